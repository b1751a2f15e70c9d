"""Webhook deliveries on a SQL database: what the SQLite and the PostgreSQL adapters do alike,
which differs only in the driver's parameter mark (``SQLDatabase.mark``). Each adapter adds
``add_many`` and ``claim``, where the two databases take different ways to one statement."""

from __future__ import annotations

from storycore.model.webhooks import Delivery
from storycore.ports import DeliveryRepository

from .accounts import SQLDatabase

__all__ = ["DELIVERY", "Deliveries"]

#: A delivery's columns, in the order of its members.
DELIVERY = ", ".join(Delivery._fields)
#: What ``finish`` writes over a stored delivery: every member but the key and the lease.
_FINISHED = tuple(name for name in Delivery._fields[2:] if not name.startswith("leased_"))


class Deliveries(DeliveryRepository):
    """Deliveries by (webhook, event), the table's key; listed newest first."""

    def __init__(self, db: SQLDatabase) -> None:
        self._db = db
        mark = db.mark
        self._key = f"webhook_id = {mark} AND event_id = {mark}"
        self._finish = (
            f"UPDATE deliveries SET {', '.join(f'{name} = {mark}' for name in _FINISHED)},"
            f" leased_until = NULL, leased_by = NULL WHERE {self._key} AND leased_by = {mark}"
        )

    def finish(self, delivery: Delivery, owner: str) -> bool:
        values = (getattr(delivery, name) for name in _FINISHED)
        return self._db.run(self._finish, (*values, *delivery[:2], owner)) > 0

    def get(self, webhook_id: str, event_id: str) -> Delivery | None:
        row = self._db.row(
            f"SELECT {DELIVERY} FROM deliveries WHERE {self._key}", (webhook_id, event_id)
        )
        return None if row is None else Delivery._make(row)

    def of_webhook(self, webhook_id: str, offset: int, limit: int) -> list[Delivery]:
        mark = self._db.mark
        rows = self._db.rows(
            f"SELECT {DELIVERY} FROM deliveries WHERE webhook_id = {mark}"
            f" ORDER BY created DESC, event_id DESC LIMIT {mark} OFFSET {mark}",
            (webhook_id, max(limit, 0), max(offset, 0)),
        )
        return [Delivery._make(row) for row in rows]

    def count(self, webhook_id: str) -> int:
        mark = self._db.mark
        row = self._db.row(
            f"SELECT count(*) FROM deliveries WHERE webhook_id = {mark}", (webhook_id,)
        )
        return int(row[0]) if row else 0

    def redeliver(self, webhook_id: str, event_id: str, now: str) -> bool:
        mark = self._db.mark
        return (
            self._db.run(
                f"UPDATE deliveries SET state = 'pending', failures = 0, next_attempt = {mark},"
                f" leased_until = NULL, leased_by = NULL WHERE {self._key}",
                (now, webhook_id, event_id),
            )
            > 0
        )
