"""Storage adapters, chosen by URL.

=================================  ===========================================================
``sqlite:///relative.db``           a SQLite file, relative to the working directory
``sqlite:////abs/path.db``          a SQLite file, absolute path
``sqlite://``                       SQLite in memory (gone when the store closes)
``mongodb://host:port/dbname``      a MongoDB server (any pymongo connection string naming a
                                    database; ``mongodb+srv://`` too); needs
                                    ``pip install 'storycore[mongodb]'``
``postgresql://u:pw@host:port/db``  a PostgreSQL server (any libpq connection URL;
                                    ``postgres://`` too); ``?schema=name`` keeps the tables in
                                    that schema (default ``public``), made when missing; needs
                                    ``pip install 'storycore[postgresql]'``
``mongomock://dbname``              MongoDB in memory (mongomock), shared by the process: a
                                    reopen by name finds the data, which goes with the process;
                                    needs ``pip install 'storycore[mongomock]'``
``memory://``                       the reference store, plain Python dicts; each open is a new,
                                    empty store, gone when it closes; anything after
                                    ``memory://`` (``memory://{name}``) is ignored: no two opens
                                    share data
=================================  ===========================================================

A SQLite URL takes no query string or fragment: ``sqlite:///x.db?mode=ro`` is refused, not
made into a file named ``x.db?mode=ro``. A URL that cannot be opened (a malformed one, a path
that is a directory, in a missing directory or a file that is not a database, a server that
does not answer) raises ``ConfigurationError`` with one line that names it.
"""

from __future__ import annotations

from storycore.errors import ConfigurationError
from storycore.extras import imported_from
from storycore.ports import Store

__all__ = ["in_memory", "open_store"]

_SQLITE = "sqlite://"
_SQLITE_FORMS = "write sqlite:///relative.db, sqlite:////absolute.db or sqlite:// (memory)"
_MONGODB = ("mongodb://", "mongodb+srv://", "mongomock://")
_POSTGRESQL = ("postgresql://", "postgres://")
_MEMORY = "memory://"


def open_store(url: str) -> Store:
    """The store a storage URL names; ``ConfigurationError`` for a URL it cannot open."""
    if url.startswith("sqlite:"):
        return _sqlite_store(url)
    if url.startswith(_MONGODB):
        return _mongo_store(url)
    if url.startswith(_POSTGRESQL):
        return _postgresql_store(url)
    if url.startswith(_MEMORY):
        from .memory import MemoryStore

        return MemoryStore()
    scheme = url.split(":", 1)[0] if ":" in url else url
    raise ConfigurationError(
        f"unknown storage URL scheme {scheme!r}: use sqlite:///file.db, sqlite://,"
        " mongodb://host:port/dbname, postgresql://user@host:port/dbname, mongomock://dbname"
        " or memory://"
    )


def in_memory(url: str) -> bool:
    """Whether the store ``url`` names lives in the memory of the process that opens it
    (``sqlite://``, ``mongomock://``, ``memory://``), so no other process can share it."""
    return url == _SQLITE or url.startswith((_MEMORY, "mongomock://"))


def _sqlite_store(url: str) -> Store:
    """A SQLite store; ``ConfigurationError`` for a URL of another form or a path that holds
    no database (``SQLiteStore`` says which)."""
    from .sqlite import SQLiteStore

    if not url.startswith(_SQLITE):
        raise ConfigurationError(f"cannot open {url!r}: {_SQLITE_FORMS}")
    path = url[len(_SQLITE) :]
    if "?" in path or "#" in path:
        raise ConfigurationError(
            f"cannot open {url!r}: a SQLite URL takes no query string or fragment; {_SQLITE_FORMS}"
        )
    if path == "":
        return SQLiteStore(None)
    if not path.startswith("/") or path == "/":
        raise ConfigurationError(f"cannot open {url!r}: {_SQLITE_FORMS}")
    return SQLiteStore(path[1:])


def _mongo_store(url: str) -> Store:
    """A MongoDB store; a missing pymongo names the extra that brings it."""
    with imported_from("mongodb"):
        from .mongodb import MongoStore
    return MongoStore(url)


def _postgresql_store(url: str) -> Store:
    """A PostgreSQL store; a missing psycopg names the extra that brings it."""
    with imported_from("postgresql"):
        from .postgresql import PostgreSQLStore
    return PostgreSQLStore(url)
