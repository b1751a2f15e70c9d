"""The server backend: PostgreSQL through psycopg 3 and a ``psycopg_pool`` connection pool.

Storage URL: ``postgresql://user:password@host:port/dbname`` (or ``postgres://``), any libpq
connection URL, with an optional ``schema`` query parameter (``?schema=storycore``; default
``public``): storycore's tables live in that schema, made when missing, so a host application
keeps them apart from its own and tests give each store a fresh one. Every call is one
transaction; several processes may share one database. ``docs/postgresql.md`` has the tables,
the indexes and the plans that serve each list.
"""

from __future__ import annotations

from storycore.ports import Store, StoryRead

from .._sql.accounts import Applications, Identities, Tokens
from .._sql.sign_in_failures import SQLSignInFailures
from ._accounts import PostgreSQLUsers
from ._database import POOL_SIZE, Database, drop_schema, empty_schema
from ._events import PostgreSQLEvents
from ._kept import PostgreSQLKeptFiles, PostgreSQLKeptSources
from ._revisions import PostgreSQLRevisions
from ._stories import PostgreSQLSearch, PostgreSQLStories, read_story
from ._webhooks import PostgreSQLDeliveries, PostgreSQLWebhooks

__all__ = ["PostgreSQLStore", "drop_schema", "empty_schema"]


class PostgreSQLStore(Store):
    """Every repository over one schema of a PostgreSQL database, opened from its URL.

    Opening brings the schema up to date and raises ``ConfigurationError`` for a malformed
    URL or a server that refuses or does not answer within a few seconds.
    """

    #: The pool's size: calls on different connections run at once on the server.
    parallel_calls = POOL_SIZE

    def __init__(self, url: str) -> None:
        self._db = db = Database(url)
        self.stories, self.search = PostgreSQLStories(db), PostgreSQLSearch(db)
        self.revisions = PostgreSQLRevisions(db)
        self.users = users = PostgreSQLUsers(db)
        self.apps, self.tokens, self.identities = (
            Applications(db),
            Tokens(db),
            Identities(db, users),
        )
        self.events = PostgreSQLEvents(db)
        self.webhooks, self.deliveries = PostgreSQLWebhooks(db), PostgreSQLDeliveries(db)
        self.sign_in_failures = SQLSignInFailures(db)
        self.kept_files, self.kept_sources = PostgreSQLKeptFiles(db), PostgreSQLKeptSources(db)

    def read_story(self, username: str, slug: str, offset: int, limit: int) -> StoryRead:
        return read_story(self._db, username, slug, offset, limit)

    def derivation(self) -> int | None:
        row = self._db.row("SELECT value FROM store_meta WHERE name = 'derivation'")
        return None if row is None else int(row[0])

    def set_derivation(self, version: int) -> None:
        self._db.run(
            "INSERT INTO store_meta (name, value) VALUES ('derivation', %s)"
            " ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            (version,),
        )

    def close(self) -> None:
        self._db.close()
