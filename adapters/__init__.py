"""Storage adapters, chosen by URL.

========================  ==================================================
``sqlite:///relative.db``  a SQLite file, relative to the working directory
``sqlite:////abs/path.db`` a SQLite file, absolute path
``sqlite://``              SQLite in memory (gone when the store closes)
========================  ==================================================
"""

from __future__ import annotations

from storycore.errors import ConfigurationError
from storycore.ports import Store

__all__ = ["open_store"]

_SQLITE = "sqlite://"


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
    scheme = url.split(":", 1)[0] if ":" in url else url
    raise ConfigurationError(
        f"unknown storage URL scheme {scheme!r}: use sqlite:///file.db or sqlite://"
    )
