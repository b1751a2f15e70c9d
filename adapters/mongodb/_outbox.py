"""The outbox: the events of a write, carried in the document the write changes.

MongoDB writes one document atomically and no more, so an event travels in the document whose
change it reports (a story's, a user's): its ``outbox`` field, an array of entries written by
the same insert or update as the change, and moved to the log by the relay (``_relay``). A
write without events writes no ``outbox`` (nor any other field it did not write before).

An entry is the event (``id``, ``type``, ``timestamp``, ``subject``, ``data``) and ``at``, a
stamp made when the write is sent: the relay logs events in stamp order, so the events of
writes made one after another in a process come out in that order (``stamp``).

A removed story becomes a tombstone first (``tombstone``: the update that carries its event),
which the relay deletes, with what goes with the story, once its events are logged. Every read
of stories goes through ``live``, which hides tombstones: one filter, in one place.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any, cast

from pymongo.collection import Collection

from storycore.model.events import Event

from ._documents import Document

__all__ = [
    "DELETED",
    "FIRST",
    "LIVE",
    "PENDING",
    "carried",
    "event_of",
    "live",
    "pushed",
    "stamp",
    "tombstone",
]

#: The stamp of a document's first pending event: the key of the ``outbox`` partial index.
FIRST = "outbox.0.at"
#: The documents whose outbox holds an event (the partial index's filter).
PENDING: Document = {FIRST: {"$exists": True}}
#: The stories that are tombstones (the ``tombstones`` partial index's filter), and the others.
DELETED: Document = {"deleted": True}
LIVE: Document = {"deleted": {"$ne": True}}
_EVENT = Event._fields
# The calls whose first argument selects documents.
_SELECTING = frozenset(
    {
        "find",
        "find_one",
        "count_documents",
        "update_one",
        "update_many",
        "delete_one",
        "delete_many",
        "find_one_and_update",
        "find_one_and_delete",
    }
)


class _Stamps:
    """Stamps later than every other this process made: the wall clock in nanoseconds, moved
    on by one when the clock did not move on (or went back). Across processes, stamps follow
    their clocks."""

    def __init__(self) -> None:
        self._last, self._lock = 0, threading.Lock()

    def __call__(self) -> str:
        with self._lock:
            self._last = max(time.time_ns(), self._last + 1)
            return f"{self._last:020d}"


#: The next stamp of this process.
stamp = _Stamps()


def _entries(events: Sequence[Event]) -> list[Document]:
    return [{**event._asdict(), "at": stamp()} for event in events]


def carried(events: Sequence[Event]) -> Document:
    """The fields a new document holds to carry ``events``: none for none."""
    return {"outbox": _entries(events)} if events else {}


def pushed(events: Sequence[Event]) -> Document:
    """The update operators that add ``events`` to a document's outbox: none for none."""
    return {"$push": {"outbox": {"$each": _entries(events)}}} if events else {}


def event_of(entry: Document) -> Event:
    """The event an outbox entry (or a logged event's document) holds."""
    return Event._make(entry[name] for name in _EVENT)


def tombstone(story_id: str) -> Document:
    """The members a removed story's document takes until the relay deletes it: marked
    ``deleted``, out of the public and scheduled indexes, and its slug moved to one no slug can
    be (``~`` is never in a slug), which frees its place in the unique (author, slug) index."""
    return {"deleted": True, "slug": f"~{story_id}", "public": False, "publish_at": None}


class _Live:
    """The stories collection seen without tombstones: each call that selects documents selects
    live ones only (its filter, or its pipeline's first ``$match``, joined with ``LIVE``)."""

    def __init__(self, collection: Collection[Document]) -> None:
        self._collection = collection

    def __getattr__(self, name: str) -> Any:
        member = getattr(self._collection, name)
        if name == "aggregate":

            def aggregating(pipeline: Sequence[Document], *args: Any, **kwargs: Any) -> Any:
                return member(_live_pipeline(pipeline), *args, **kwargs)

            return aggregating
        if name not in _SELECTING:
            return member

        def selecting(selector: Document, *args: Any, **kwargs: Any) -> Any:
            return member({**selector, **LIVE}, *args, **kwargs)

        return selecting


def _live_pipeline(pipeline: Sequence[Document]) -> list[Document]:
    """``pipeline`` on live stories: ``LIVE`` joins its first ``$match`` (or one comes first)."""
    if pipeline and "$match" in pipeline[0]:
        return [{"$match": {**pipeline[0]["$match"], **LIVE}}, *pipeline[1:]]
    return [{"$match": LIVE}, *pipeline]


def live(stories: Collection[Document]) -> Collection[Document]:
    """The stories collection as every read and write of a live story sees it: tombstones
    hidden. Inserts go through as they are (a tombstone still holds its id)."""
    return cast("Collection[Document]", _Live(stories))
