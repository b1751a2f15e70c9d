"""The embedded default backend: one SQLite file (or memory), on sqlite-utils.

WAL journal, foreign keys, a busy timeout, write transactions taken with ``BEGIN IMMEDIATE``,
a schema version table with forward migrations, and FTS5 over the core's normalized tokens
kept in step with every write in the same transaction.
"""

from __future__ import annotations

from storycore.ports import Store

from ._sqlite_accounts import SQLiteApplications, SQLiteIdentities, SQLiteTokens, SQLiteUsers
from ._sqlite_connection import Connection
from ._sqlite_stories import SQLiteAliases, SQLiteSearch, SQLiteStories

__all__ = ["SQLiteStore"]


class SQLiteStore(Store):
    """Every repository over one SQLite database; ``path=None`` keeps it in memory."""

    parallel_calls = 1  # every call holds the one connection's lock

    def __init__(self, path: str | None = None) -> None:
        self.path = path
        self.connection = Connection(path)
        self._stories = SQLiteStories(self.connection)
        self._aliases = SQLiteAliases(self.connection)
        self._search = SQLiteSearch(self.connection)
        self._users = SQLiteUsers(self.connection)
        self._apps = SQLiteApplications(self.connection)
        self._tokens = SQLiteTokens(self.connection)
        self._identities = SQLiteIdentities(self.connection)

    @property
    def stories(self) -> SQLiteStories:
        return self._stories

    @property
    def aliases(self) -> SQLiteAliases:
        return self._aliases

    @property
    def search(self) -> SQLiteSearch:
        return self._search

    @property
    def users(self) -> SQLiteUsers:
        return self._users

    @property
    def apps(self) -> SQLiteApplications:
        return self._apps

    @property
    def tokens(self) -> SQLiteTokens:
        return self._tokens

    @property
    def identities(self) -> SQLiteIdentities:
        return self._identities

    def close(self) -> None:
        self.connection.close()
