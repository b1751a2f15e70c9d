"""Webhooks on a SQL database (docs/webhooks.md): one implementation for the SQLite and the
PostgreSQL adapters, a row of ``webhooks`` each, a column for each member. They differ only in
the parameter mark (``SQLDatabase.mark``) and in how the ``events`` column holds the event
types (a JSON array on SQLite, an array of text on PostgreSQL): each adapter says that
(``Webhooks.stored_events``, ``Webhooks.loaded_events``).

A webhook's cursor moves by a conditional ``UPDATE`` (``advance``), so of two processes that
read the same events one moves it. ``remove`` deletes the webhook and its deliveries in one
transaction (no foreign key: a delivery is stored as given).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from storycore.errors import Missing
from storycore.model.trusted import construct_trusted
from storycore.model.webhooks import WebhookRecord
from storycore.ports import WebhookRepository

from .accounts import SQLDatabase

__all__ = ["Webhooks"]

_FIELDS = tuple(WebhookRecord.model_fields)
_CHANGEABLE = frozenset(_FIELDS) - {"id"}
_HOOK = f"SELECT {', '.join(_FIELDS)} FROM webhooks"


class Webhooks(WebhookRepository):
    """Webhooks by id, listed oldest first (``webhooks_created``)."""

    def __init__(self, db: SQLDatabase) -> None:
        self._db = db

    def stored_events(self, events: Sequence[str]) -> Any:
        """The ``events`` column of these event types."""
        raise NotImplementedError

    def loaded_events(self, column: Any) -> tuple[str, ...]:
        """The event types an ``events`` column holds."""
        raise NotImplementedError

    def add(self, webhook: WebhookRecord) -> None:
        row = self._columns({name: getattr(webhook, name) for name in _FIELDS})
        mark = self._db.mark
        self._db.run(
            f"INSERT INTO webhooks ({', '.join(row)}) VALUES ({', '.join([mark] * len(row))})",
            list(row.values()),
        )

    def get(self, webhook_id: str) -> WebhookRecord | None:
        row = self._db.row(f"{_HOOK} WHERE id = {self._db.mark}", (webhook_id,))
        return None if row is None else self._webhook(row)

    def find(self, offset: int, limit: int) -> list[WebhookRecord]:
        mark = self._db.mark
        rows = self._db.rows(
            f"{_HOOK} ORDER BY created, id LIMIT {mark} OFFSET {mark}",
            (max(limit, 0), max(offset, 0)),
        )
        return [self._webhook(row) for row in rows]

    def update(self, webhook_id: str, changes: Mapping[str, Any]) -> None:
        """One ``UPDATE`` of the named columns; ``changes`` names members but ``id``."""
        if unknown := set(changes) - _CHANGEABLE:
            raise ValueError(f"not a changeable member of a webhook: {sorted(unknown)}")
        mark = self._db.mark
        columns = self._columns(changes)
        if not columns:  # nothing to set: whether there is one to set it on
            found = self._db.row(f"SELECT 1 FROM webhooks WHERE id = {mark}", (webhook_id,))
            changed = found is not None
        else:
            assignments = ", ".join(f"{name} = {mark}" for name in columns)
            sql = f"UPDATE webhooks SET {assignments} WHERE id = {mark}"
            changed = self._db.run(sql, [*columns.values(), webhook_id]) > 0
        if not changed:
            raise Missing("webhook")

    def advance(self, webhook_id: str, expected: str | None, cursor: str) -> bool:
        mark = self._db.mark
        sql = f"UPDATE webhooks SET cursor = {mark} WHERE id = {mark} AND cursor"
        if expected is None:
            return self._db.run(f"{sql} IS NULL", (cursor, webhook_id)) > 0
        return self._db.run(f"{sql} = {mark}", (cursor, webhook_id, expected)) > 0

    def remove(self, webhook_id: str) -> bool:
        mark = self._db.mark
        with self._db.write() as conn:
            conn.execute(f"DELETE FROM deliveries WHERE webhook_id = {mark}", (webhook_id,))
            gone = conn.execute(f"DELETE FROM webhooks WHERE id = {mark}", (webhook_id,))
            return int(gone.rowcount) > 0

    def _columns(self, members: Mapping[str, Any]) -> dict[str, Any]:
        """The columns of webhook ``members`` as stored. Only member names become column
        names (the callers check them)."""
        return {
            name: self.stored_events(value) if name == "events" else value
            for name, value in members.items()
        }

    def _webhook(self, row: Sequence[Any]) -> WebhookRecord:
        """A webhook rebuilt from its row without validating it again (it was, when written)."""
        data = dict(zip(_FIELDS, row, strict=True))
        data["events"] = self.loaded_events(data["events"])
        data["private"] = bool(data["private"])  # SQLite's 0 or 1
        return construct_trusted(WebhookRecord, data)
