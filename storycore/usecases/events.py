"""The event log for host applications (docs/webhooks.md): every change, in order, from a
cursor the reader keeps, without running an HTTP endpoint.

    cursor = None
    while True:
        for item in service.events.after(cursor, 100):
            react(item.event.type, json.loads(item.event.data))
            cursor = item.cursor   # keep it: the next call goes on from here
        ...
"""

from __future__ import annotations

from ..errors import InvalidParameter, Missing
from ..model.events import LoggedEvent
from ..rules.numbers import whole_number
from .context import Context

__all__ = ["MAX_EVENTS", "Events"]

#: The most events one call hands out.
MAX_EVENTS = 1000


class Events:
    """Reading the log of events."""

    def __init__(self, context: Context) -> None:
        self._ctx = context

    def after(self, cursor: str | None = None, limit: int | str = 100) -> list[LoggedEvent]:
        """At most ``limit`` (1 to ``MAX_EVENTS``) events logged after ``cursor`` (None: from
        the first), oldest first, each with the cursor to go on from. A reader that keeps the
        last cursor it was given never misses an event and never sees one twice."""
        limit = whole_number(limit, "limit")
        if limit > MAX_EVENTS:
            raise InvalidParameter(f"limit is at most {MAX_EVENTS}", field="limit")
        if cursor is not None and not isinstance(cursor, str):
            raise InvalidParameter("cursor must be a cursor the log gave", field="cursor")
        try:
            return self._ctx.store.events.after(cursor, limit)
        except Missing as exc:
            raise InvalidParameter(
                "cursor is not a cursor this store's log gave", field="cursor"
            ) from exc

    def end(self) -> str | None:
        """The cursor after the newest event now (None when there is none): a reader that
        starts here sees only what happens from now on."""
        return self._ctx.store.events.end()
