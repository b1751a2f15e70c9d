"""MongoDB storage URLs, and the database each one names.

``mongodb://[user:password@]host[:port][,host...]/dbname[?options]`` (or ``mongodb+srv://``)
reaches a real server through pymongo. The URL must name a database. Opening asks the server
for a ``ping`` and fails with a ``ConfigurationError`` when no server answers within the
server-selection timeout: 5 seconds unless the URL sets ``serverSelectionTimeoutMS``. Error
messages name hosts and the database, never credentials.

``mongomock://dbname`` opens ``dbname`` on this process's in-memory mongomock server.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_plus

from pymongo import MongoClient, uri_parser
from pymongo.collection import Collection
from pymongo.database import Database
from pymongo.errors import PyMongoError

from storycore.errors import ConfigurationError

from ._mongo_documents import Document
from ._mongo_mock import mock_database, serialized
from ._mongo_schema import Wrap

__all__ = ["MOCK_SCHEME", "SERVER_SCHEMES", "SERVER_SELECTION_TIMEOUT_MS", "Connection", "connect"]

MOCK_SCHEME = "mongomock://"
SERVER_SCHEMES = ("mongodb://", "mongodb+srv://")
SERVER_SELECTION_TIMEOUT_MS = 5000
_MOCK_NAME = re.compile(r"^[A-Za-z0-9_-]{1,63}$")
_REASON_LENGTH = 300


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


def _unchanged(collection: Collection[Document]) -> Collection[Document]:
    return collection


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
    return Connection(client[name], _unchanged, client.close)


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
