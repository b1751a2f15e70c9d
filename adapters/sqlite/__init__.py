"""The embedded default backend: one SQLite file (or memory).

WAL journal, foreign keys, write transactions taken with ``BEGIN IMMEDIATE`` on one writer
connection, reads on reader connections of their own that never wait for a writer, a busy
timeout after which a write raises ``Unavailable`` (``_sqlite_connection``), a schema version
table with forward migrations, the core's derivation version in ``store_meta``, and FTS5 over
the core's normalized tokens kept in step with every write in the same transaction, as are the
events a write reports (``_events``).
"""

from __future__ import annotations

import sqlite3

from storycore.ports import Store

from .._sql.accounts import Applications, Identities, Tokens
from .._sql.kept import SQLKeptFiles
from .._sql.sign_in_failures import SQLSignInFailures
from ._accounts import SQLiteUsers
from ._connection import Connection, opening_error
from ._events import SQLiteEvents
from ._kept import SQLiteKeptSources
from ._revisions import SQLiteRevisions
from ._stories import SQLiteSearch, SQLiteStories
from ._webhooks import SQLiteDeliveries, SQLiteWebhooks

__all__ = ["SQLiteStore"]


class SQLiteStore(Store):
    """Every repository over one SQLite database; ``path=None`` keeps it in memory.

    Opening raises ``ConfigurationError`` for a path that holds no database and cannot make
    one (a directory, a missing directory, a file of something else), and ``Unavailable``
    while another process holds the database too long to let it be migrated.
    """

    #: A file: reads run at once, on connections of their own, while writes queue on the one
    #: writer; a few threads keep reads answered while a write waits for the lock, and more
    #: would only add hand-offs (SQLite leaves the GIL only inside its own calls). In memory,
    #: every call queues on the one connection: 1.
    parallel_calls = 4
    #: A file's reads are WAL snapshots on connections of their own, which no writer blocks.
    reads_never_wait = True

    def __init__(self, path: str | None = None) -> None:
        self.path = path
        try:
            self.connection = Connection(path)
        except sqlite3.Error as exc:
            raise opening_error(path or ":memory:", exc) from exc
        if self.connection.path is None:
            self.parallel_calls, self.reads_never_wait = 1, False
        db = self.connection
        self.stories, self.search = SQLiteStories(db), SQLiteSearch(db)
        self.revisions = SQLiteRevisions(db)
        self.users = users = SQLiteUsers(db)
        self.apps, self.tokens, self.identities = (
            Applications(db),
            Tokens(db),
            Identities(db, users),
        )
        self.events = SQLiteEvents(db)
        self.webhooks, self.deliveries = SQLiteWebhooks(db), SQLiteDeliveries(db)
        self.sign_in_failures = SQLSignInFailures(db)
        self.kept_files, self.kept_sources = SQLKeptFiles(db), SQLiteKeptSources(db)

    def derivation(self) -> int | None:
        row = self.connection.row("SELECT value FROM store_meta WHERE name = 'derivation'")
        return None if row is None else int(row[0])

    def set_derivation(self, version: int) -> None:
        with self.connection.write() as conn:
            conn.execute(
                "INSERT INTO store_meta (name, value) VALUES ('derivation', ?)"
                " ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (version,),
            )

    def close(self) -> None:
        self.connection.close()
