"""The event log on SQLite (migration 12): a row of ``events`` each, in ``seq`` order.

The reporting writes store their events with ``log``, in their own transaction: every write
holds SQLite's one write lock, so ``seq`` order is commit order, and a reader's snapshot that
holds an event holds every event before it. A cursor is an event's ``seq`` as decimal text.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from storycore.errors import Missing
from storycore.model.events import Event, EventHead, LoggedEvent, LoggedHead
from storycore.ports import EventLog

from ._connection import Repository, marks

__all__ = ["SQLiteEvents", "log"]

#: The most digits a cursor has: more than any log's ``seq`` reaches, and within SQLite's
#: 64-bit integers (so that no text of digits fails to bind).
_CURSOR_DIGITS = 18
_COLUMNS = "id, type, timestamp, subject, data"
_HEAD = ", ".join(EventHead._fields)  # id, type, timestamp


#: The events before ``?1`` with no pending delivery, but the newest: a ``seq`` is never given
#: twice while the newest stays (``INTEGER PRIMARY KEY`` takes the greatest and one), so no
#: cursor handed out names a later event.
_PRUNE = (
    "DELETE FROM events WHERE timestamp < ?1 AND seq < (SELECT max(seq) FROM events)"
    " AND id NOT IN (SELECT event_id FROM deliveries WHERE state = 'pending')"
)


def log(conn: sqlite3.Connection, events: Sequence[Event]) -> None:
    """Store ``events`` in order, in the caller's write transaction; nothing when there is
    none (a write without events costs no statement more)."""
    if events:
        conn.executemany(f"INSERT INTO events ({_COLUMNS}) VALUES (?, ?, ?, ?, ?)", events)


def _seq(cursor: str) -> int:
    """The ``seq`` a cursor names; ``Missing("cursor")`` for text no cursor is."""
    if not (cursor.isascii() and cursor.isdigit()) or len(cursor) > _CURSOR_DIGITS:
        raise Missing("cursor")
    return int(cursor)


class SQLiteEvents(Repository, EventLog):
    """The log, read on a snapshot of its own: ``after`` is one walk of the primary key."""

    def after(self, cursor: str | None, limit: int) -> list[LoggedEvent]:
        rows = self._after(_COLUMNS, cursor, limit)
        return [LoggedEvent(str(row[0]), Event._make(row[1:])) for row in rows]

    def heads_after(self, cursor: str | None, limit: int) -> list[LoggedHead]:
        rows = self._after(_HEAD, cursor, limit)
        return [LoggedHead(str(row[0]), EventHead._make(row[1:])) for row in rows]

    def _after(self, columns: str, cursor: str | None, limit: int) -> list[tuple[Any, ...]]:
        """``seq`` and ``columns`` of at most ``limit`` events after ``cursor``, in order."""
        start = 0 if cursor is None else _seq(cursor)
        return self._db.rows(
            f"SELECT seq, {columns} FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
            (start, max(limit, 0)),
        )

    def end(self) -> str | None:
        row = self._db.row("SELECT max(seq) FROM events")
        return None if row is None or row[0] is None else str(row[0])

    def get_many(self, event_ids: Iterable[str]) -> dict[str, Event]:
        ids = list(set(event_ids))
        rows = self._db.rows(f"SELECT {_COLUMNS} FROM events WHERE id IN ({marks(ids)})", ids)
        return {row[0]: Event._make(row) for row in rows}

    def prune(self, before: str) -> int:
        """``_PRUNE``: one statement, so no delivery is made in between (the write lock)."""
        return self._db.run(_PRUNE, (before,))
