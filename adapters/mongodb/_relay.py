"""The relay: events move from the outboxes (``_outbox``) to the log, one process at a time.

The log is the ``events`` collection: one document per event (``_id`` its id, ``seq``, ``type``,
``timestamp``, ``subject``, ``data``), read by ``seq``. A relay holds a lease, the ``relay``
document of ``meta`` (``leased_by``, ``leased_until``, and ``seq``: the last number handed out),
and goes in rounds, each:

1. read the documents (stories, tombstones included, and users) whose outbox holds an event:
   one walk of each collection's ``outbox`` partial index, which holds those documents only
   (so a relay finds none with one lookup per collection), oldest first stamp first, a batch;
2. put their events in order: by stamp, each document's in its array order (an event sorts no
   earlier than those before it in its outbox), up to the first stamp of the documents the
   batch left out;
3. take as many numbers in one ``$inc`` of ``seq``, which also renews the lease, and matches
   nothing once the lease is another's: a relay that lost its lease takes no number;
4. log each event under its number: an upsert by its id with ``$setOnInsert``, so an event
   logged already (by a relay that died before step 5) stays as it was, under its number;
5. ``$pull`` the logged events from their documents' outboxes.

Then it deletes the tombstones whose outbox holds no event any more (their events are logged:
only ``remove``, in the update that makes a tombstone, gives one events), each after its
story's aliases, revisions, elements and embed counts; the stories' ``tombstones`` partial
index holds them.

A relay that dies anywhere leaves each event in its outbox until the step that removes it, and
logs each at most once: the next relay (once the lease ran out) logs what is left and deletes
the tombstones. Numbers a dead relay took and did not use are never handed out; the log has
gaps, which readers do not see (they read ``seq`` greater than their cursor).

Readers read in ``seq`` order, and one relay at a time numbers events after every event it
logged before, so a reader that goes on from its cursor misses nothing, with one limit: a relay
paused for longer than its lease (a process frozen, a network that held its writes back) while
another relay took over may log an event, under the number it took before the pause, after a
reader read past that number; that reader never sees the event. The lease (``LEASE`` seconds)
is far longer than a round takes, and each round renews it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

from pymongo import ASCENDING, ReturnDocument
from pymongo.collection import Collection
from pymongo.errors import DuplicateKeyError

from storycore.rules.ids import new_id

from ._documents import Document
from ._outbox import DELETED, FIRST, PENDING
from ._schema import Collections

__all__ = ["LEASE", "RELAY_AT", "Relay", "delete_parts"]

#: Seconds a relay holds the log after each round begins.
LEASE = 60.0
#: How many pending events a document's outbox holds before a write that adds more runs the
#: relay (when no other process does): a store whose log nobody reads keeps small documents.
RELAY_AT = 16
_WAIT = 2.0  # seconds a caller waits for another process's relay to end
_BATCH = 100  # documents a round reads from each collection
_ROUNDS = 20  # rounds a run makes at most; what is left waits for the next run
_LOCK: Document = {"_id": "relay"}
_ORDER = [(FIRST, ASCENDING), ("_id", ASCENDING)]


@dataclass
class _Source:
    """A document with pending events, as a round read it, and which of them it moves."""

    collection: Collection[Document]
    found: Document
    moving: list[str] = field(default_factory=list)


class Relay:
    """Moves the events of a database's outboxes to its log. ``clock`` (seconds since the
    epoch) times the lease; every process sharing the database must keep it close."""

    def __init__(self, collections: Collections, clock: Callable[[], float] = time.time) -> None:
        self._collections, self._clock = collections, clock
        # stories as stored, tombstones included: the relay is the one reader that sees them
        self._sources = (collections.stories, collections.users)

    def run(self, *, wait: bool) -> None:
        """Log the pending events, oldest first, in rounds (at most ``_ROUNDS``), then delete
        the tombstones. When another process relays: with ``wait``, wait for it to end (a
        little while) and relay after it, so what was written before the call is logged when
        it returns; else leave them to it.
        """
        stories, users = self._sources
        if not (
            stories.find_one({"$or": [PENDING, DELETED]}, {"_id": 1})
            or users.find_one(PENDING, {"_id": 1})
        ):
            return
        with self.holding(wait=wait) as owner:
            if owner is not None:
                for _ in range(_ROUNDS):
                    if not self.round(owner):
                        break
                self.sweep()

    @contextmanager
    def holding(self, *, wait: bool) -> Iterator[str | None]:
        """Hold the lease for the block: its owner id, or None when another process held it
        (through the wait, with ``wait``). No event is logged meanwhile, but by a relay paused
        past its lease."""
        owner = new_id()
        if not self._take(owner, wait=wait):
            yield None
            return
        try:
            yield owner
        finally:
            self._collections.meta.update_one(
                {**_LOCK, "leased_by": owner}, {"$set": {"leased_until": 0.0}}
            )

    def _take(self, owner: str, *, wait: bool) -> bool:
        """Take the lease when it is free (none, or run out); whether it was taken."""
        deadline, pause = time.monotonic() + (_WAIT if wait else 0.0), 0.005
        while True:
            now = self._clock()
            try:
                self._collections.meta.update_one(
                    {**_LOCK, "leased_until": {"$lte": now}},
                    {"$set": {"leased_by": owner, "leased_until": now + LEASE}},
                    upsert=True,
                )
                return True
            except DuplicateKeyError:  # the lease is another's: the upsert found it held
                if time.monotonic() >= deadline:
                    return False
            time.sleep(pause)
            pause = min(2 * pause, 0.1)

    def round(self, owner: str) -> bool:
        """One round (the module docstring's steps) by the holder of the lease ``owner``;
        whether documents beyond its batch have pending events (another round is due)."""
        sources, boundary = self._read()
        moving: list[tuple[str, int, int, Document]] = []  # (sort key, source, position, entry)
        for number, source in enumerate(sources):
            key = ""
            for position, entry in enumerate(source.found["outbox"]):
                key = max(key, entry["at"])
                if boundary is not None and key > boundary:
                    break
                moving.append((key, number, position, entry))
                source.moving.append(entry["id"])
        if not moving:
            return False
        moving.sort(key=lambda item: item[:3])
        first = self._numbers(owner, len(moving))
        if first is None:  # the lease ran out and is another's: it relays from here
            return False
        for seq, (_, _, _, entry) in enumerate(moving, start=first):
            self._log(entry, seq)
        for source in sources:
            self._moved(source)
        return boundary is not None

    def _read(self) -> tuple[list[_Source], str | None]:
        """A batch of the documents with pending events, and the first stamp of those it left
        out (None when it left none): events that sort after it wait for a later round."""
        sources: list[_Source] = []
        boundary: str | None = None
        for collection in self._sources:
            found = list(collection.find(PENDING, {"outbox": 1}, sort=_ORDER, limit=_BATCH + 1))
            if len(found) > _BATCH:
                left = found.pop()["outbox"][0]["at"]
                boundary = left if boundary is None else min(boundary, left)
            sources += [_Source(collection, document) for document in found]
        return sources, boundary

    def _numbers(self, owner: str, count: int) -> int | None:
        """The first of ``count`` new numbers, the lease renewed; None once it is another's."""
        now = self._clock()
        taken = self._collections.meta.find_one_and_update(
            {**_LOCK, "leased_by": owner, "leased_until": {"$gt": now}},
            {"$inc": {"seq": count}, "$set": {"leased_until": now + LEASE}},
            projection={"seq": 1},
            return_document=ReturnDocument.AFTER,
        )
        return None if taken is None else int(taken["seq"]) - count + 1

    def _log(self, entry: Document, seq: int) -> None:
        """Log the event of ``entry`` as number ``seq``, unless it is logged already."""
        logged = {name: entry[name] for name in ("type", "timestamp", "subject", "data")}
        with suppress(DuplicateKeyError):  # a relay paused past its lease logged it meanwhile
            self._collections.events.update_one(
                {"_id": entry["id"]}, {"$setOnInsert": {"seq": seq, **logged}}, upsert=True
            )

    def _moved(self, source: _Source) -> None:
        """Take the logged events out of their document."""
        if moved := source.moving:
            source.collection.update_one(
                {"_id": source.found["_id"]}, {"$pull": {"outbox": {"id": {"$in": moved}}}}
            )

    def sweep(self) -> None:
        """Delete the tombstones whose events are logged (a batch), each after what goes with
        its story: a crash in between leaves the tombstone, which the next relay finds again."""
        stories = self._collections.stories
        done = {**DELETED, FIRST: {"$exists": False}}
        for tombstone in stories.find(done, {"_id": 1}, limit=_BATCH):
            delete_parts(self._collections, tombstone["_id"])
            stories.delete_one({"_id": tombstone["_id"], **done})


def delete_parts(collections: Collections, story_id: str) -> None:
    """Delete what goes with a story that is gone: its aliases, revisions, elements and embed
    counts (deleting again does nothing)."""
    db = collections
    for collection in (db.aliases, db.revisions, db.elements, db.embeds):
        collection.delete_many({"story_id": story_id})
