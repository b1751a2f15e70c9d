"""The event log on PostgreSQL (docs/webhooks.md): the ``events`` table of migration 5.

An event is written by the statement of the change it reports, as a ``WITH`` clause of it
(``logged``), or in its transaction (``insert_events``), so the change and its events commit
together. ``n``, an identity column, numbers events as they are written, but writes commit in
another order: a write that took n = 5 may commit after one that took n = 6, and a reader that
went on from 6 would never see 5. So each event also holds ``xid``, the id of the transaction
that wrote it (``pg_current_xact_id()``, 64 bits: it never wraps), and the log is read in
(``xid``, ``n``) order and only below the oldest transaction still running when the read's
snapshot was taken (``pg_snapshot_xmin``): every event below it is committed (or rolled back,
and then never visible), and every event written later belongs to a transaction at or above it,
so it sorts after every event handed out. An event is handed out once every transaction older
than its own has ended: a transaction that wrote anything, in any database of the server, and
stays open holds the log back until it ends. A read that finds events so held back waits for
those transactions, at most ``HOLD_SECONDS``: writes are short, and a reader (a host that
wrote and reads, a webhook's delivery) then gets what was committed before it read, even while
other writes are under way; a transaction open longer holds the log back, and the read answers
what is handed out. A cursor is ``"xid-n"`` of the last event read.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from typing import Any

from storycore.errors import Missing
from storycore.model.events import Event, EventHead, LoggedEvent, LoggedHead
from storycore.ports import EventLog

from ._database import Connection, Part

__all__ = ["AFTER", "HOLD_SECONDS", "PostgreSQLEvents", "insert_events", "logged"]

_COLUMNS = ", ".join(Event._fields)  # id, type, timestamp, subject, data
#: Below the oldest transaction running when the statement's snapshot was taken.
_ENDED = "xid < pg_snapshot_xmin(pg_current_snapshot())"
#: The events after a position (``xid``, ``n``), in order: one walk of ``events_order``. The
#: ``xid`` is selected as text under another name, so that ``ORDER BY xid`` sorts by the
#: column, a number, not by that text (where "10" comes before "9").
_AFTER = (
    "SELECT xid::text AS at, n, {columns} FROM events"
    f" WHERE (xid, n) > (%s::xid8, %s) AND {_ENDED} ORDER BY xid, n LIMIT %s"
)
AFTER = _AFTER.format(columns=_COLUMNS)
#: ``AFTER``, the events' heads only.
_HEADS_AFTER = _AFTER.format(columns=", ".join(EventHead._fields))
#: Whether events after a position are committed but held back by an older transaction still
#: open (visible to the statement, not yet below the oldest running one).
_HELD = f"SELECT EXISTS (SELECT 1 FROM events WHERE (xid, n) > (%s::xid8, %s) AND NOT ({_ENDED}))"
#: The longest a read waits for the transactions that hold committed events back.
HOLD_SECONDS = 1.0
_FIRST_PAUSE, _LONGEST_PAUSE = 0.002, 0.05
_CURSOR = re.compile(r"(0|[1-9][0-9]{0,19})-(0|[1-9][0-9]{0,18})")
_XID_END, _N_END = 2**64, 2**63  # xid8 and bigint: a larger number is no cursor of ours


def _insert(events: Sequence[Event], when: str) -> tuple[str, dict[str, Any]]:
    """The statement that writes ``events`` in order when the condition ``when`` holds, and
    its parameters: a row of scalar parameters each (an array of JSON texts costs its quoting
    and unquoting: a new story with its event took 1.2 times as long as without it that way,
    about 1.05 times this way)."""
    rows: list[str] = []
    params: dict[str, Any] = {}
    for number, event in enumerate(events):
        names = [f"event{number}_{name}" for name in Event._fields]
        params.update(zip(names, event, strict=True))
        rows.append(f"({', '.join(f'%({name})s' for name in names)}, {number})")
    return (
        f"INSERT INTO events ({_COLUMNS}) SELECT {_COLUMNS} FROM (VALUES {', '.join(rows)})"
        f" AS e({_COLUMNS}, position) WHERE {when} ORDER BY position",
        params,
    )


def logged(events: Sequence[Event], when: str = "TRUE") -> tuple[str, dict[str, Any]]:
    """A ``WITH`` clause (``logged``) that writes ``events`` in the statement it joins, when
    the condition ``when`` holds (it may name the statement's other clauses), and its
    parameters (named, to join the statement's own)."""
    statement, params = _insert(events, when)
    return f"logged AS ({statement})", params


def insert_events(conn: Connection, events: Sequence[Event]) -> None:
    """Write ``events`` in the transaction of ``conn``."""
    conn.execute(*_insert(events, "TRUE"))


def _position(cursor: str) -> tuple[str, int]:
    """The (``xid``, ``n``) a cursor of ours names; ``Missing("cursor")`` for any other."""
    found = _CURSOR.fullmatch(cursor)
    if found is None or int(found[1]) >= _XID_END or int(found[2]) >= _N_END:
        raise Missing("cursor")
    return found[1], int(found[2])


def _logged_event(row: Sequence[Any]) -> LoggedEvent:
    xid, n, *event = row
    return LoggedEvent(f"{xid}-{n}", Event._make(event))


#: The events before ``%s`` with no pending delivery, but the newest (as every store keeps it).
_PRUNE = (
    "DELETE FROM events WHERE timestamp < %s AND n < (SELECT max(n) FROM events)"
    " AND id NOT IN (SELECT event_id FROM deliveries WHERE state = 'pending')"
)


class PostgreSQLEvents(Part, EventLog):
    """The log, walked along ``events_order`` (``xid``, ``n``) from a cursor."""

    def after(self, cursor: str | None, limit: int) -> list[LoggedEvent]:
        """``AFTER`` (``_after``)."""
        return [_logged_event(row) for row in self._after(AFTER, cursor, limit)]

    def heads_after(self, cursor: str | None, limit: int) -> list[LoggedHead]:
        """``AFTER`` of the heads (``_after``)."""
        return [
            LoggedHead(f"{xid}-{n}", EventHead._make(head))
            for xid, n, *head in self._after(_HEADS_AFTER, cursor, limit)
        ]

    def _after(self, query: str, cursor: str | None, limit: int) -> list[tuple[Any, ...]]:
        """The rows of ``query`` (``AFTER``'s) from ``cursor``; the start of the log is the
        position ``0-0``, before every event. A read that hands out fewer than ``limit`` while
        committed events wait behind an older open transaction reads again once it may have
        ended, for at most ``HOLD_SECONDS``."""
        start = ("0", 0) if cursor is None else _position(cursor)
        limit = max(limit, 0)
        ends, pause = time.monotonic() + HOLD_SECONDS, _FIRST_PAUSE
        while True:
            rows = self._db.rows(query, (*start, limit))
            if len(rows) >= limit or time.monotonic() >= ends:
                break
            held = self._db.row(_HELD, start)
            if held is None or not held[0]:
                break
            time.sleep(pause)  # for the older transactions to end
            pause = min(2 * pause, _LONGEST_PAUSE)
        return rows

    def end(self) -> str | None:
        row = self._db.row(
            f"SELECT xid::text AS at, n FROM events WHERE {_ENDED}"
            " ORDER BY xid DESC, n DESC LIMIT 1"
        )
        return None if row is None else f"{row[0]}-{row[1]}"

    def get_many(self, event_ids: Iterable[str]) -> dict[str, Event]:
        rows = self._db.rows(
            f"SELECT {_COLUMNS} FROM events WHERE id = ANY(%s::text[])", (list(set(event_ids)),)
        )
        return {row[0]: Event._make(row) for row in rows}

    def prune(self, before: str) -> int:
        """``_PRUNE``, one statement."""
        return self._db.run(_PRUNE, (before,))
