"""Webhooks and their deliveries on PostgreSQL (docs/webhooks.md): the ``webhooks`` and
``deliveries`` tables of migration 5, a column for each member.

Every write is one statement. A webhook's cursor moves by a conditional ``UPDATE`` (``advance``),
so of two processes that read the same events one moves it. Deliveries are claimed by one
``UPDATE`` over the due ones locked ``FOR UPDATE SKIP LOCKED``: a delivery another claim holds
is passed over, not waited for, and one that claim leased is no longer due when its row is read
again (``READ COMMITTED`` reads the newest row of a locked row), so no two owners lease one
delivery. The due ones are a walk of ``deliveries_due``, the partial index of pending
deliveries, earliest first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from storycore.errors import Missing
from storycore.model.webhooks import Delivery, WebhookRecord
from storycore.ports import WebhookRepository

from .._sql.deliveries import DELIVERY, Deliveries
from ._database import Part

__all__ = ["CLAIM", "PostgreSQLDeliveries", "PostgreSQLWebhooks"]

_HOOK_COLUMNS = tuple(WebhookRecord.model_fields)
_HOOK = ", ".join(_HOOK_COLUMNS)
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
#: Lease the due deliveries no process holds, earliest first (``deliveries_due``).
CLAIM = (
    "UPDATE deliveries d SET leased_until = %(until)s, leased_by = %(owner)s"
    " FROM (SELECT webhook_id, event_id FROM deliveries WHERE state = 'pending'"
    " AND next_attempt <= %(now)s AND (leased_until IS NULL OR leased_until <= %(now)s)"
    " ORDER BY next_attempt, webhook_id, event_id LIMIT %(limit)s FOR UPDATE SKIP LOCKED) due"
    " WHERE d.webhook_id = due.webhook_id AND d.event_id = due.event_id"
    f" RETURNING {', '.join(f'd.{name}' for name in Delivery._fields)}"
)


def _webhook(row: Sequence[Any]) -> WebhookRecord:
    return WebhookRecord(**dict(zip(_HOOK_COLUMNS, row, strict=True)))


def _value(name: str, value: Any) -> Any:
    """A member's value as its column takes it (``events``, a tuple, as an array)."""
    return list(value) if name == "events" else value


class PostgreSQLWebhooks(Part, WebhookRepository):
    """Webhooks by id; ``find`` walks ``webhooks_created``."""

    def add(self, webhook: WebhookRecord) -> None:
        self._db.run(
            f"INSERT INTO webhooks ({_HOOK}) VALUES ({', '.join(['%s'] * len(_HOOK_COLUMNS))})",
            [_value(name, getattr(webhook, name)) for name in _HOOK_COLUMNS],
        )

    def get(self, webhook_id: str) -> WebhookRecord | None:
        row = self._db.row(f"SELECT {_HOOK} FROM webhooks WHERE id = %s", (webhook_id,))
        return None if row is None else _webhook(row)

    def find(self, offset: int, limit: int) -> list[WebhookRecord]:
        rows = self._db.rows(
            f"SELECT {_HOOK} FROM webhooks ORDER BY created, id LIMIT %s OFFSET %s",
            (max(limit, 0), max(offset, 0)),
        )
        return [_webhook(row) for row in rows]

    def update(self, webhook_id: str, changes: Mapping[str, Any]) -> None:
        """One ``UPDATE`` of the named columns; ``changes`` names members but ``id``."""
        if unknown := set(changes) - set(_HOOK_COLUMNS[1:]):
            raise ValueError(f"not a changeable member of a webhook: {sorted(unknown)}")
        if not changes:
            found = self._db.row("SELECT FROM webhooks WHERE id = %s", (webhook_id,))
        else:
            names = [name for name in _HOOK_COLUMNS if name in changes]
            found = self._db.row(
                f"UPDATE webhooks SET {', '.join(f'{name} = %s' for name in names)}"
                " WHERE id = %s RETURNING id",
                [*(_value(name, changes[name]) for name in names), webhook_id],
            )
        if found is None:
            raise Missing("webhook")

    def advance(self, webhook_id: str, expected: str | None, cursor: str) -> bool:
        return (
            self._db.run(
                "UPDATE webhooks SET cursor = %s WHERE id = %s AND cursor IS NOT DISTINCT FROM %s",
                (cursor, webhook_id, expected),
            )
            > 0
        )

    def remove(self, webhook_id: str) -> bool:
        """The webhook and its deliveries in one statement."""
        row = self._db.row(
            "WITH gone AS (DELETE FROM webhooks WHERE id = %(id)s RETURNING id),"
            " deliveries AS (DELETE FROM deliveries WHERE webhook_id IN (SELECT id FROM gone))"
            " SELECT count(*) FROM gone",
            {"id": webhook_id},
        )
        return bool(row and row[0])


class PostgreSQLDeliveries(Deliveries):
    """Deliveries by (webhook, event): the ``delivery`` primary key."""

    def add_many(self, deliveries: Iterable[Delivery]) -> int:
        """One statement: every array of members at once."""
        given = list(deliveries)
        if not given:
            return 0
        return self._db.run(_ADD, [list(column) for column in zip(*given, strict=True)])

    def claim(self, now: str, until: str, owner: str, limit: int) -> list[Delivery]:
        """One statement (``CLAIM``); ``RETURNING`` keeps no order, so they are sorted here."""
        rows = self._db.rows(
            CLAIM, {"now": now, "until": until, "owner": owner, "limit": max(limit, 0)}
        )
        claimed = [Delivery._make(row) for row in rows]
        claimed.sort(key=lambda d: (d.next_attempt or "", d.webhook_id, d.event_id))
        return claimed
