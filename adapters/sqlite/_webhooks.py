"""Webhooks and their deliveries on SQLite (migration 12): a row of ``webhooks`` each, its
members in their columns (its event types a JSON array; the rest is ``_sql.webhooks``), and a
row of ``deliveries`` each, keyed by webhook and event.

A claim is one statement in a write transaction: it leases the due deliveries it picks from
``deliveries_due`` (the pending ones, in the order they are due) and returns them, so two
processes never lease the same delivery (each write holds SQLite's one write lock).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

import orjson

from storycore.model.webhooks import Delivery

from .._sql.deliveries import DELIVERY, Deliveries
from .._sql.webhooks import Webhooks
from ._connection import marks

__all__ = ["SQLiteDeliveries", "SQLiteWebhooks"]

_DELIVERY = DELIVERY
#: The pending deliveries due at ``?1`` that no process holds, but those of the webhooks in
#: the JSON array ``?5``, the first ``?2`` of them due.
_CLAIMABLE = (
    "SELECT rowid FROM deliveries WHERE state = 'pending' AND next_attempt <= ?1"
    " AND (leased_until IS NULL OR leased_until <= ?1)"
    " AND webhook_id NOT IN (SELECT value FROM json_each(?5))"
    " ORDER BY next_attempt, webhook_id, event_id LIMIT ?2"
)
#: A claim: lease ``_CLAIMABLE`` to ``?4`` until ``?3``, and return them as leased.
_CLAIM = (
    f"UPDATE deliveries SET leased_until = ?3, leased_by = ?4 WHERE rowid IN ({_CLAIMABLE})"
    f" RETURNING {_DELIVERY}"
)


class SQLiteWebhooks(Webhooks):
    """Webhooks, their event types a JSON array."""

    def stored_events(self, events: Sequence[str]) -> Any:
        return orjson.dumps(list(events)).decode()

    def loaded_events(self, column: Any) -> tuple[str, ...]:
        return tuple(orjson.loads(column))


class SQLiteDeliveries(Deliveries):
    """Deliveries by webhook and event; claimed from ``deliveries_due``."""

    def add_many(self, deliveries: Iterable[Delivery]) -> int:
        """One statement for all: a delivery stored already is ignored, and not counted."""
        rows = list(deliveries)
        with self._db.write() as conn:
            added = conn.executemany(
                f"INSERT OR IGNORE INTO deliveries ({_DELIVERY})"
                f" VALUES ({marks(Delivery._fields)})",
                rows,
            )
            return int(added.rowcount)

    def claim(
        self, now: str, until: str, owner: str, limit: int, skip: Collection[str] = ()
    ) -> list[Delivery]:
        """``_CLAIM``: SQLite returns the rows in no set order, so they are sorted here."""
        params = (now, max(limit, 0), until, owner, orjson.dumps(list(skip)).decode())
        with self._db.write() as conn:
            rows = conn.execute(_CLAIM, params).fetchall()
        claimed = [Delivery._make(row) for row in rows]
        claimed.sort(key=lambda d: (d.next_attempt or "", d.webhook_id, d.event_id))
        return claimed
