"""MongoDB storage URLs, the database each one names, and its collections, guarded.

``mongodb://[user:password@]host[:port][,host...]/dbname[?options]`` (or ``mongodb+srv://``)
reaches a server through pymongo; the URL must name a database. Opening pings the server and
raises ``ConfigurationError`` when none answers within the server-selection timeout (5 seconds
unless the URL sets ``serverSelectionTimeoutMS``); messages name hosts and the database, never
credentials. ``mongomock://dbname`` opens ``dbname`` on the in-process server (``_mongo_mock``).

Every collection is guarded: pymongo's ``ConnectionFailure`` family (no server in time, a lost
connection, a full pool) becomes ``Unavailable`` (503 with ``Retry-After``) at every call, and a
query's documents are read within the call (a cursor reaches the server only when iterated). A
write cut off may or may not have been applied: pymongo retries a retryable write once, and the
multi-document changes are ordered so that a retry repairs what the first attempt left.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, cast
from urllib.parse import unquote_plus

from pymongo import MongoClient, uri_parser
from pymongo.collection import Collection
from pymongo.database import Database
from pymongo.errors import ConnectionFailure, PyMongoError

from storycore.errors import ConfigurationError, Unavailable

from ._documents import Document
from ._mock import LOCK, mock_database
from ._schema import INDEXES, Bucket, Collections, field_of

__all__ = [
    "collections_of",
    "connect",
    "drop_database",
    "guarded",
    "unavailable_when_unreachable",
]

_MOCK = "mongomock://"
_MOCK_NAME = re.compile(r"^[A-Za-z0-9_-]{1,63}$")
_SERVER_SELECTION_TIMEOUT_MS = 5000
_QUERIES = frozenset({"find", "aggregate"})
_REASON_LENGTH = 300
_UNREACHABLE = "the MongoDB server did not answer in time; try again in a moment"
# An open database, the lock its calls hold, and how to close it.
_Opened = tuple[Database[Document], AbstractContextManager[Any], Callable[[], None]]


def connect(url: str) -> tuple[Collections, Callable[[], None]]:
    """The collections of the database ``url`` names, their indexes made, and how to close
    it; ``ConfigurationError`` when the URL is malformed or the server unreachable.
    """
    database, lock, close = _mock(url) if url.startswith(_MOCK) else _server(url)
    try:
        for name, indexes in INDEXES.items():
            if indexes:  # a server refuses a createIndexes of none
                unavailable_when_unreachable(database[name], lock).create_indexes(list(indexes))
    except BaseException as exc:
        close()
        if isinstance(exc, PyMongoError):  # a user without createIndex, an index of another shape
            raise ConfigurationError(
                f"cannot create storycore's indexes in {database.name!r}: {exc}"
            ) from exc
        raise
    return collections_of(database, lock), close


def collections_of(
    database: Database[Document], lock: AbstractContextManager[Any] | None = None
) -> Collections:
    """The collections of ``database``, each guarded (``unavailable_when_unreachable``), and
    its bucket of kept files with the same guard."""
    held = lock or nullcontext()
    collections = {
        field_of(name): unavailable_when_unreachable(database[name], held) for name in INDEXES
    }
    return Collections(**collections, media=Bucket(database["media"], lambda: guarded(held)))


def drop_database(url: str) -> None:
    """Drop the database ``url`` names with everything in it, on a server or on the process's
    mongomock server (the testing kit drops the database of each store it named)."""
    database, lock, close = _mock(url) if url.startswith(_MOCK) else _server(url)
    try:
        with lock:
            database.client.drop_database(database.name)
    finally:
        close()


class _Guarded:
    """A collection whose calls hold ``lock``, read a query in full and raise ``Unavailable``
    when no server answers."""

    def __init__(self, collection: Collection[Document], lock: AbstractContextManager[Any]) -> None:
        self._collection, self._lock = collection, lock

    def __getattr__(self, name: str) -> Any:
        member = getattr(self._collection, name)
        if not callable(member):
            return member

        def call(*args: Any, **kwargs: Any) -> Any:
            with guarded(self._lock):
                result = member(*args, **kwargs)
                return list(result) if name in _QUERIES else result

        setattr(self, name, call)  # found here from now on, without __getattr__
        return call


@contextmanager
def guarded(lock: AbstractContextManager[Any]) -> Iterator[None]:
    """Hold ``lock`` (mongomock's; none on a server), and raise ``Unavailable`` for pymongo's
    ``ConnectionFailure`` (no server in time, a lost connection, a full pool)."""
    try:
        with lock:
            yield
    except ConnectionFailure as exc:
        raise Unavailable(_UNREACHABLE) from exc


def unavailable_when_unreachable(
    collection: Collection[Document], lock: AbstractContextManager[Any] | None = None
) -> Collection[Document]:
    """``collection``, guarded: each call holds ``lock`` (mongomock's; none on a server), a
    query answers a list, and ``Unavailable`` stands for pymongo's ``ConnectionFailure``.
    """
    return cast("Collection[Document]", _Guarded(collection, lock or nullcontext()))


def _mock(url: str) -> _Opened:
    name = url[len(_MOCK) :]
    if not _MOCK_NAME.match(name):
        raise ConfigurationError(
            f"cannot open mongomock://{name}: write mongomock://dbname, the name made of"
            " letters, digits, '_' and '-' (at most 63)"
        )
    return mock_database(name), LOCK, lambda: None


def _server(url: str) -> _Opened:
    """The database ``url`` names on a server that answered a ping."""
    scheme = url.split("://", 1)[0]
    try:
        parsed = uri_parser.parse_uri(url)
    except (PyMongoError, ValueError) as exc:
        # pymongo's message may quote parts of the URL: say why, without the URL's secrets
        reason = _without_secrets(str(exc), url)
        raise ConfigurationError(f"malformed MongoDB URL ({scheme}://...): {reason}") from None
    hosts = ",".join(f"{host}:{port}" for host, port in parsed["nodelist"])
    name, collection = parsed["database"], parsed["collection"]
    if not name or collection is not None:
        named = "" if not name else f", not a collection ({name}.{collection})"
        raise ConfigurationError(
            f"the MongoDB URL for {hosts} must name a database{named}: {scheme}://host:port/dbname"
        )
    options: dict[str, Any] = {}
    if not any(key.lower() == "serverselectiontimeoutms" for key in parsed["options"]):
        options["serverSelectionTimeoutMS"] = _SERVER_SELECTION_TIMEOUT_MS
    client: MongoClient[Document] = MongoClient(url, **options)
    try:
        client.admin.command("ping")
    except PyMongoError as exc:
        client.close()
        reason = _without_secrets(str(exc).split(", Topology Description:")[0], url)
        raise ConfigurationError(
            f"cannot open MongoDB at {hosts}/{name}: {type(exc).__name__}: {reason}"
        ) from exc
    return client[name], nullcontext(), client.close


def _without_secrets(message: str, url: str) -> str:
    """``message`` with the URL's password blotted out, and cut to a readable length."""
    authority = url.split("://", 1)[-1].split("?", 1)[0]
    userinfo = authority.rsplit("@", 1)[0] if "@" in authority else ""
    if ":" in userinfo:
        password = userinfo.split(":", 1)[1]
        secrets = {userinfo, password, unquote_plus(password)} - {""}
        for secret in sorted(secrets, key=len, reverse=True):
            message = message.replace(secret, "***")
    if len(message) > _REASON_LENGTH:
        message = message[: _REASON_LENGTH - 3] + "..."
    return message
