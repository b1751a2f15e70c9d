"""Webhooks and their deliveries on SQLite (migration 12): a row of ``webhooks`` each, its
members in their columns (its event types a JSON array), and a row of ``deliveries`` each,
keyed by webhook and event.

A claim is one statement in a write transaction: it leases the due deliveries it picks from
``deliveries_due`` (the pending ones, in the order they are due) and returns them, so two
processes never lease the same delivery (each write holds SQLite's one write lock).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from storycore.errors import Missing
from storycore.model.trusted import construct_trusted
from storycore.model.webhooks import Delivery, WebhookRecord
from storycore.ports import WebhookRepository

from .._sql.deliveries import DELIVERY, Deliveries
from ._connection import Repository, insert, marks

__all__ = ["SQLiteDeliveries", "SQLiteWebhooks"]

_HOOK_FIELDS = tuple(WebhookRecord.model_fields)
_CHANGEABLE = frozenset(_HOOK_FIELDS) - {"id"}
_HOOK = f"SELECT {', '.join(_HOOK_FIELDS)} FROM webhooks"

_DELIVERY = DELIVERY
#: The pending deliveries due at ``?1`` that no process holds, the first ``?2`` of them due.
_CLAIMABLE = (
    "SELECT rowid FROM deliveries WHERE state = 'pending' AND next_attempt <= ?1"
    " AND (leased_until IS NULL OR leased_until <= ?1)"
    " ORDER BY next_attempt, webhook_id, event_id LIMIT ?2"
)
#: A claim: lease ``_CLAIMABLE`` to ``?4`` until ``?3``, and return them as leased.
_CLAIM = (
    f"UPDATE deliveries SET leased_until = ?3, leased_by = ?4 WHERE rowid IN ({_CLAIMABLE})"
    f" RETURNING {_DELIVERY}"
)


def _webhook(row: tuple[Any, ...]) -> WebhookRecord:
    """A webhook rebuilt from its row without validating it again (it was, when written)."""
    data = dict(zip(_HOOK_FIELDS, row, strict=True))
    data["events"] = tuple(orjson.loads(data["events"]))
    return construct_trusted(WebhookRecord, data)


def _columns(members: Mapping[str, Any]) -> dict[str, Any]:
    """The columns of webhook ``members`` (not ``id``) as stored: the event types as a JSON
    array, the others as they are. Only member names become column names."""
    if unknown := set(members) - _CHANGEABLE:
        raise ValueError(f"not a changeable member of a webhook: {sorted(unknown)}")
    return {
        name: orjson.dumps(list(value)).decode() if name == "events" else value
        for name, value in members.items()
    }


class SQLiteWebhooks(Repository, WebhookRepository):
    """Webhooks, found by id or listed oldest first (``webhooks_created``)."""

    def add(self, webhook: WebhookRecord) -> None:
        members = {name: getattr(webhook, name) for name in _CHANGEABLE}
        with self._db.write() as conn:
            insert(conn, "webhooks", {"id": webhook.id, **_columns(members)})

    def get(self, webhook_id: str) -> WebhookRecord | None:
        row = self._db.row(f"{_HOOK} WHERE id = ?", (webhook_id,))
        return None if row is None else _webhook(row)

    def find(self, offset: int, limit: int) -> list[WebhookRecord]:
        rows = self._db.rows(
            f"{_HOOK} ORDER BY created, id LIMIT ? OFFSET ?", (max(limit, 0), max(offset, 0))
        )
        return [_webhook(row) for row in rows]

    def update(self, webhook_id: str, changes: Mapping[str, Any]) -> None:
        columns = _columns(changes)
        if not columns:  # nothing to set: whether there is one to set it on
            found = self._db.row("SELECT 1 FROM webhooks WHERE id = ?", (webhook_id,)) is not None
        else:
            assignments = ", ".join(f"{name} = ?" for name in columns)
            sql = f"UPDATE webhooks SET {assignments} WHERE id = ?"
            found = self._db.run(sql, [*columns.values(), webhook_id]) > 0
        if not found:
            raise Missing("webhook")

    def advance(self, webhook_id: str, expected: str | None, cursor: str) -> bool:
        return (
            self._db.run(
                "UPDATE webhooks SET cursor = ? WHERE id = ? AND cursor IS ?",
                (cursor, webhook_id, expected),
            )
            > 0
        )

    def remove(self, webhook_id: str) -> bool:
        with self._db.write() as conn:
            conn.execute("DELETE FROM deliveries WHERE webhook_id = ?", (webhook_id,))
            return conn.execute("DELETE FROM webhooks WHERE id = ?", (webhook_id,)).rowcount > 0


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

    def claim(self, now: str, until: str, owner: str, limit: int) -> list[Delivery]:
        """``_CLAIM``: SQLite returns the rows in no set order, so they are sorted here."""
        with self._db.write() as conn:
            rows = conn.execute(_CLAIM, (now, max(limit, 0), until, owner)).fetchall()
        claimed = [Delivery._make(row) for row in rows]
        claimed.sort(key=lambda d: (d.next_attempt or "", d.webhook_id, d.event_id))
        return claimed
