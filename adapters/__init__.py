"""Storage adapters, chosen by URL.

=================================  ===========================================================
``sqlite:///relative.db``           a SQLite file, relative to the working directory
``sqlite:////abs/path.db``          a SQLite file, absolute path
``sqlite://``                       SQLite in memory (gone when the store closes)
``mongodb://host:port/dbname``      a MongoDB server (any pymongo connection string naming a
                                    database; ``mongodb+srv://`` too); needs
                                    ``pip install 'storycore[mongodb]'``
``mongomock://dbname``              MongoDB in memory (mongomock), shared by the process: a
                                    reopen by name finds the data, which goes with the process
=================================  ===========================================================
"""

from __future__ import annotations

from storycore.errors import ConfigurationError, MissingDependencyError
from storycore.ports import Store

__all__ = ["open_store"]

_SQLITE = "sqlite://"
_MONGODB = ("mongodb://", "mongodb+srv://", "mongomock://")


def open_store(url: str) -> Store:
    """The store a storage URL names; ``ConfigurationError`` for a URL it cannot open."""
    if url.startswith(_SQLITE):
        from .sqlite import SQLiteStore

        path = url[len(_SQLITE) :]
        if path == "":
            return SQLiteStore(None)
        if not path.startswith("/") or path == "/":
            raise ConfigurationError(
                f"cannot open {url!r}: write sqlite:///relative.db, sqlite:////absolute.db "
                "or sqlite:// (memory)"
            )
        return SQLiteStore(path[1:])
    if url.startswith(_MONGODB):
        return _mongo_store(url)
    scheme = url.split(":", 1)[0] if ":" in url else url
    raise ConfigurationError(
        f"unknown storage URL scheme {scheme!r}: use sqlite:///file.db, sqlite://,"
        " mongodb://host:port/dbname or mongomock://dbname"
    )


def _mongo_store(url: str) -> Store:
    """A MongoDB store; a missing pymongo names the extra that brings it."""
    try:
        from .mongodb import MongoStore
    except ModuleNotFoundError as exc:
        if exc.name not in ("pymongo", "bson"):
            raise
        raise MissingDependencyError("pymongo", "mongodb") from exc
    return MongoStore(url)
