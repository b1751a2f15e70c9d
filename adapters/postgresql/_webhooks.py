"""Webhooks and their deliveries on PostgreSQL (docs/webhooks.md): the ``webhooks`` and
``deliveries`` tables of migration 5, a column for each member (a webhook's event types an
array of text; the rest is ``_sql.webhooks``).

Deliveries are claimed by one ``UPDATE`` over the due ones locked ``FOR UPDATE SKIP LOCKED``:
a delivery another claim holds is passed over, not waited for, and one that claim leased is no
longer due when its row is read again (``READ COMMITTED`` reads the newest row of a locked
row), so no two owners lease one delivery. The due ones are a walk of ``deliveries_due``, the
partial index of pending deliveries, earliest first.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from storycore.model.webhooks import Delivery

from .._sql.deliveries import DELIVERY, Deliveries
from .._sql.webhooks import Webhooks

__all__ = ["CLAIM", "PostgreSQLDeliveries", "PostgreSQLWebhooks"]

_DELIVERY = DELIVERY
#: The members of a delivery that count: integers; the others are text.
_NUMBERS = frozenset({"attempts", "failures", "last_status"})
#: New deliveries from one array per member, in order; the first of a key is kept.
_ADD = (
    f"INSERT INTO deliveries ({_DELIVERY}) SELECT {_DELIVERY} FROM unnest("
    + ", ".join(f"%s::{'bigint' if name in _NUMBERS else 'text'}[]" for name in Delivery._fields)
    + f") WITH ORDINALITY AS d({_DELIVERY}, position) ORDER BY position"
    " ON CONFLICT (webhook_id, event_id) DO NOTHING"
)
#: Lease the due deliveries no process holds, but those of the webhooks ``skip`` names,
#: earliest first (``deliveries_due``).
CLAIM = (
    "UPDATE deliveries d SET leased_until = %(until)s, leased_by = %(owner)s"
    " FROM (SELECT webhook_id, event_id FROM deliveries WHERE state = 'pending'"
    " AND next_attempt <= %(now)s AND (leased_until IS NULL OR leased_until <= %(now)s)"
    " AND webhook_id <> ALL(%(skip)s::text[])"
    " ORDER BY next_attempt, webhook_id, event_id LIMIT %(limit)s FOR UPDATE SKIP LOCKED) due"
    " WHERE d.webhook_id = due.webhook_id AND d.event_id = due.event_id"
    f" RETURNING {', '.join(f'd.{name}' for name in Delivery._fields)}"
)


class PostgreSQLWebhooks(Webhooks):
    """Webhooks, their event types an array of text."""

    def stored_events(self, events: Sequence[str]) -> Any:
        return list(events)

    def loaded_events(self, column: Any) -> tuple[str, ...]:
        return tuple(column)


class PostgreSQLDeliveries(Deliveries):
    """Deliveries by (webhook, event): the ``delivery`` primary key."""

    def add_many(self, deliveries: Iterable[Delivery]) -> int:
        """One statement: every array of members at once."""
        given = list(deliveries)
        if not given:
            return 0
        return self._db.run(_ADD, [list(column) for column in zip(*given, strict=True)])

    def claim(
        self, now: str, until: str, owner: str, limit: int, skip: Collection[str] = ()
    ) -> list[Delivery]:
        """One statement (``CLAIM``); ``RETURNING`` keeps no order, so they are sorted here."""
        params = {"now": now, "until": until, "owner": owner, "limit": max(limit, 0)}
        rows = self._db.rows(CLAIM, {**params, "skip": list(skip)})
        claimed = [Delivery._make(row) for row in rows]
        claimed.sort(key=lambda d: (d.next_attempt or "", d.webhook_id, d.event_id))
        return claimed
