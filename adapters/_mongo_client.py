"""MongoDB storage URLs, and the database each one names.

``mongodb://[user:password@]host[:port][,host...]/dbname[?options]`` (or ``mongodb+srv://``)
reaches a real server through pymongo. The URL must name a database. Opening asks the server
for a ``ping`` and fails with a ``ConfigurationError`` when no server answers within the
server-selection timeout: 5 seconds unless the URL sets ``serverSelectionTimeoutMS``. Error
messages name hosts and the database, never credentials.

Once open, a call that finds no server (it went away, an election takes longer than the
server-selection timeout, the connection pool stays full) raises ``Unavailable``, which
answers 503 with ``Retry-After``: the collections of a server are wrapped so that pymongo's
``ConnectionFailure`` family (``ServerSelectionTimeoutError``, ``AutoReconnect``,
``NetworkTimeout``, ``WaitQueueTimeoutError``) is translated at every call, and at every step
of a cursor, which reaches the server only when iterated. (A write cut off that way may or may
not have been applied: pymongo retries a retryable write once, and the adapter's multi-document
changes are ordered so that a retry repairs what the first attempt left.)

``mongomock://dbname`` opens ``dbname`` on this process's in-memory mongomock server.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import unquote_plus

from pymongo import MongoClient, uri_parser
from pymongo.collection import Collection
from pymongo.command_cursor import CommandCursor
from pymongo.cursor import Cursor
from pymongo.database import Database
from pymongo.errors import ConnectionFailure, PyMongoError

from storycore.errors import ConfigurationError, Unavailable

from ._mongo_documents import Document
from ._mongo_mock import mock_database, serialized
from ._mongo_schema import Wrap

__all__ = [
    "MOCK_SCHEME",
    "SERVER_SCHEMES",
    "SERVER_SELECTION_TIMEOUT_MS",
    "Connection",
    "connect",
    "unavailable_when_unreachable",
]

MOCK_SCHEME = "mongomock://"
SERVER_SCHEMES = ("mongodb://", "mongodb+srv://")
SERVER_SELECTION_TIMEOUT_MS = 5000
_MOCK_NAME = re.compile(r"^[A-Za-z0-9_-]{1,63}$")
_REASON_LENGTH = 300
_UNREACHABLE = "the MongoDB server did not answer in time; try again in a moment"


@dataclass(frozen=True, slots=True)
class Connection:
    """An open database, how its collections are wrapped, and how to let it go."""

    database: Database[Document]
    wrap: Wrap
    close: Callable[[], None]


def connect(url: str) -> Connection:
    """The database ``url`` names; ``ConfigurationError`` when it is malformed or unreachable."""
    if url.startswith(MOCK_SCHEME):
        return _mock(url[len(MOCK_SCHEME) :])
    return _server(url)


def _mock(name: str) -> Connection:
    if not _MOCK_NAME.match(name):
        raise ConfigurationError(
            f"cannot open mongomock://{name}: write mongomock://dbname, the name made of"
            " letters, digits, '_' and '-' (at most 63)"
        )
    return Connection(mock_database(name), serialized, lambda: None)


class _Answering:
    """A collection whose calls raise ``Unavailable`` when no server answers."""

    def __init__(self, collection: Collection[Document]) -> None:
        self._collection = collection

    def __getattr__(self, name: str) -> Any:
        member = getattr(self._collection, name)
        if not inspect.ismethod(member):
            return member

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                result = member(*args, **kwargs)
            except ConnectionFailure as exc:
                raise Unavailable(_UNREACHABLE) from exc
            if isinstance(result, Cursor | CommandCursor):
                return _answering_cursor(result)
            return result

        setattr(self, name, call)  # found here from now on, without __getattr__
        return call


def _answering_cursor(cursor: Iterator[Document]) -> Iterator[Document]:
    """The documents of ``cursor``; ``Unavailable`` when a batch cannot be fetched."""
    try:
        yield from cursor
    except ConnectionFailure as exc:
        raise Unavailable(_UNREACHABLE) from exc


def unavailable_when_unreachable(collection: Collection[Document]) -> Collection[Document]:
    """``collection`` (on a server), its calls raising ``Unavailable`` when none answers."""
    return cast("Collection[Document]", _Answering(collection))


def _server(url: str) -> Connection:
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
    where = f"{hosts}/{name}"
    options: dict[str, Any] = {}
    if not any(key.lower() == "serverselectiontimeoutms" for key in parsed["options"]):
        options["serverSelectionTimeoutMS"] = SERVER_SELECTION_TIMEOUT_MS
    client: MongoClient[Document] = MongoClient(url, **options)
    try:
        client.admin.command("ping")
    except PyMongoError as exc:
        client.close()
        reason = _without_secrets(str(exc).split(", Topology Description:")[0], url)
        raise ConfigurationError(
            f"cannot open MongoDB at {where}: {type(exc).__name__}: {reason}"
        ) from exc
    return Connection(client[name], unavailable_when_unreachable, client.close)


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
