"""The event log on MongoDB: the ``events`` collection the relay fills (``_relay``).

Every read runs the relay first, waiting a little while for another process's, so that what
was written before it is in the log. A cursor is the decimal ``seq`` of the event it follows
(``0`` before the first), written as ``str`` writes an int; any other text is a cursor the log
did not make (``Missing("cursor")``).
"""

from __future__ import annotations

from collections.abc import Iterable

from pymongo import ASCENDING, DESCENDING

from storycore.errors import Missing
from storycore.model.events import Event, EventHead, LoggedEvent, LoggedHead
from storycore.ports import EventLog

from ._documents import Document
from ._outbox import event_of
from ._relay import Relay
from ._schema import Collections

__all__ = ["MongoEvents"]

_MAX_DIGITS = 18  # a seq fits a 64-bit int
_HEAD = {"seq": 1, "type": 1, "timestamp": 1}  # and ``_id``, the event's id
_PRUNED = 1000  # events one batch of ``prune`` looks at


class MongoEvents(EventLog):
    """The log, read by ``seq``."""

    def __init__(self, collections: Collections) -> None:
        self._events, self._relay = collections.events, Relay(collections)
        self._deliveries = collections.deliveries

    def after(self, cursor: str | None, limit: int) -> list[LoggedEvent]:
        start = 0 if cursor is None else _seq(cursor)
        self._relay.run(wait=True)
        if limit <= 0:  # to MongoDB, a limit of 0 means none
            return []
        found = self._events.find({"seq": {"$gt": start}}, sort=[("seq", ASCENDING)], limit=limit)
        return [LoggedEvent(str(logged["seq"]), _event(logged)) for logged in found]

    def heads_after(self, cursor: str | None, limit: int) -> list[LoggedHead]:
        """``after`` without reading the events' data (a projection)."""
        start = 0 if cursor is None else _seq(cursor)
        self._relay.run(wait=True)
        if limit <= 0:
            return []
        found = self._events.find(
            {"seq": {"$gt": start}}, _HEAD, sort=[("seq", ASCENDING)], limit=limit
        )
        return [
            LoggedHead(str(logged["seq"]), EventHead(logged["_id"], logged["type"],
                                                     logged["timestamp"]))
            for logged in found
        ]  # fmt: skip

    def end(self) -> str | None:
        self._relay.run(wait=True)
        last = self._events.find({}, {"seq": 1}, sort=[("seq", DESCENDING)], limit=1)
        return next((str(logged["seq"]) for logged in last), None)

    def get_many(self, event_ids: Iterable[str]) -> dict[str, Event]:
        if not (ids := list(set(event_ids))):
            return {}
        self._relay.run(wait=True)
        found = self._events.find({"_id": {"$in": ids}})
        return {logged["_id"]: _event(logged) for logged in found}

    def prune(self, before: str) -> int:
        """The events before ``before`` but the newest, in ``seq`` order, ``_PRUNED`` at a
        time: those no pending delivery holds are deleted (the port says what a delivery made
        meanwhile finds). ``seq`` numbers come from the relay's counter: none is given twice."""
        self._relay.run(wait=True)  # the events written by now are in the log
        newest = self._events.find_one({}, {"seq": 1}, sort=[("seq", DESCENDING)])
        gone, after = 0, 0
        while newest is not None:
            old = {"timestamp": {"$lt": before}, "seq": {"$gt": after, "$lt": newest["seq"]}}
            batch = list(
                self._events.find(old, {"seq": 1}, sort=[("seq", ASCENDING)], limit=_PRUNED)
            )
            if not batch:
                break
            ids = [logged["_id"] for logged in batch]
            held = set(self._deliveries.distinct("event_id", {"event_id": {"$in": ids},
                                                              "state": "pending"}))  # fmt: skip
            if unheld := [event_id for event_id in ids if event_id not in held]:
                gone += self._events.delete_many({"_id": {"$in": unheld}}).deleted_count
            after = batch[-1]["seq"]
        return gone


def _event(logged: Document) -> Event:
    return event_of({**logged, "id": logged["_id"]})


def _seq(cursor: str) -> int:
    """The ``seq`` a cursor names; ``Missing("cursor")`` for text the log does not write."""
    if not (cursor.isascii() and cursor.isdigit()) or len(cursor) > _MAX_DIGITS:
        raise Missing("cursor")
    seq = int(cursor)
    if str(seq) != cursor:  # leading zeros
        raise Missing("cursor")
    return seq
