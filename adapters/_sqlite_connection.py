"""One SQLite connection, shared safely by threads, with explicit write transactions.

Writes run in ``BEGIN IMMEDIATE`` transactions, so two writers (threads or processes) queue on
the busy timeout instead of failing half-way with ``database is locked``; reads are single
statements. A lock serializes the connection's use across threads.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlite_utils import Database

from ._sqlite_schema import MIGRATIONS

__all__ = ["Connection"]

BUSY_TIMEOUT_SECONDS = 30.0


class Connection:
    """A locked SQLite connection to one database file (or to memory, with ``path=None``)."""

    def __init__(self, path: str | None) -> None:
        raw = sqlite3.connect(
            path or ":memory:", timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False
        )
        self.db = Database(raw)
        self.conn = raw
        self.lock = threading.RLock()
        self.conn.execute("PRAGMA foreign_keys = ON")
        if path is not None:
            self.db.enable_wal()
            self.conn.execute("PRAGMA synchronous = NORMAL")
        self._migrate()

    def _migrate(self) -> None:
        with self.write():
            self.conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
            row = self.conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            current = row[0] or 0
            for number, migration in enumerate(MIGRATIONS[current:], start=current + 1):
                if isinstance(migration, str):
                    for statement in _statements(migration):
                        self.conn.execute(statement)
                else:
                    migration(self.conn)
                self.conn.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: committed when the block ends, rolled back when it raises."""
        with self.lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    def rows(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        """All rows of one query."""
        with self.lock:
            return self.conn.execute(sql, params).fetchall()

    def row(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> tuple[Any, ...] | None:
        """The first row of one query, or None."""
        with self.lock:
            found: tuple[Any, ...] | None = self.conn.execute(sql, params).fetchone()
            return found

    def close(self) -> None:
        """Close the connection."""
        with self.lock:
            self.conn.close()


def _statements(script: str) -> list[str]:
    """A migration script as single statements (executescript would commit our transaction)."""
    return [part.strip() for part in script.split(";\n") if part.strip()]
