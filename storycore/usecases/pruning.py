"""What the kept pictures are still shown by, and deleting those nothing shows
(docs/media.md#keeping-what-is-shown-and-nothing-else; why a walk:
docs/media-storage.md#what-is-still-shown-mark-then-sweep).

The stores do not know what a story shows: the core does. So a walk (``MediaWalk.mark``) reads
every story with its elements and its revisions, and every user, and for each the pictures it
shows (``storycore.model.shown_pictures``), and marks them shown now:

- **touching** their records (``KeptSources.touch``): what ``storycore prune-media`` does;
- or **wanting** them (``KeptSources.want``, which touches the known ones and queues the others
  for the keeper, each new one noted as wanted by its story): what ``storycore keep-media``
  does, for a store written before pictures were kept, and ``serve`` in the background.

Then ``sweep`` forgets the records nothing marked for ``UNSHOWN`` (7 days: a story that drops a
picture and takes it back within a week keeps its copy) and deletes the files last put before
then that no record names. A walk that fails or is stopped half-way sweeps nothing: what it did
not reach would look unshown. Time is the service's clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import NamedTuple

from ..model.kept import KeptSource
from ..model.queries import StoryQuery
from ..model.records import element_of
from ..model.shown_pictures import pictures, story_pictures, user_pictures
from ..ports import Store
from ..rules.timestamps import format_timestamp
from .context import Context

__all__ = ["UNSHOWN", "Marked", "MediaWalk", "Progress", "Pruned", "Shown", "shown_pictures"]

#: How long a kept picture is kept once nothing shows it.
UNSHOWN = timedelta(days=7)
#: The users one read takes, and the addresses marked at once.
_USERS_AT_ONCE = 500
_MARKED_AT_ONCE = 500
#: Every story, working and private ones too (a count of them).
_EVERY_STORY = StoryQuery(offset=0, limit=0, audience="owner")
#: The files one ``delete_unshown`` deletes at most.
_DELETED_AT_ONCE = 100

#: Told how a long walk goes: a phase (``walked``: stories and users read; ``kept``: pictures
#: tried), how many are done, and of how many when that is known.
Progress = Callable[[str, int, int | None], None]


def _quiet(phase: str, done: int, total: int | None) -> None:
    """No one to tell."""


class Shown(NamedTuple):
    """The pictures one story (its id; with those of its revisions) or one user (``story``
    None) shows."""

    story: str | None
    addresses: list[str]


def shown_pictures(store: Store) -> Iterator[Shown]:
    """What every story shows, in its current version and its revisions, then every user."""
    for story, elements in store.stories.iter_all():
        found = story_pictures(story, elements)
        for revision in store.revisions.of_story(story.id):
            found += story_pictures(revision.record, map(element_of, revision.elements))
        yield Shown(story.id, pictures(found))
    offset = 0
    while users := store.users.find(offset, _USERS_AT_ONCE):
        for user in users:
            yield Shown(None, user_pictures(user))
        offset += len(users)


class Marked(NamedTuple):
    """What a walk read and marked, and when."""

    at: datetime
    #: the stories and users read
    walked: int
    #: the addresses it queued for the keeper (none when it only touched)
    wanted: int
    #: whether it walked everything (not stopped half-way): only then may a sweep follow
    whole: bool = True


class Pruned(NamedTuple):
    """What a prune deleted: the records nothing showed for ``UNSHOWN``, and the files no record
    names any more."""

    records: int
    files: int


class MediaWalk:
    """Walks what the store shows, marking its pictures shown (``mark``), and deletes what
    nothing showed for ``UNSHOWN`` (``sweep``; ``prune`` does both)."""

    def __init__(self, context: Context) -> None:
        self._ctx = context

    def mark(
        self,
        *,
        want: bool,
        progress: Progress | None = None,
        stop: Callable[[], bool] = lambda: False,
    ) -> Marked:
        """Mark every picture a story, a revision or a user shows as seen now: ``want`` them
        (queued for the keeper when new) or only touch the known ones. A walk ends early once
        ``stop()`` says so (a keeper closing), not ``whole``."""
        store, at = self._ctx.store, self._ctx.clock.now()
        stamp = format_timestamp(at)
        total = store.stories.count(_EVERY_STORY) + store.users.count()
        walked = wanted = pending = 0
        batch: list[Shown] = []
        for shown in shown_pictures(store):
            if stop():
                return Marked(at, walked, wanted, whole=False)
            batch.append(shown)
            pending += len(shown.addresses)
            if pending >= _MARKED_AT_ONCE or len(batch) >= _MARKED_AT_ONCE:
                wanted += self._marked(batch, stamp, want=want)
                batch, pending = [], 0
            walked += 1
            (progress or _quiet)("walked", walked, max(total, walked))
        wanted += self._marked(batch, stamp, want=want)
        return Marked(at, walked, wanted)

    def _marked(self, batch: list[Shown], stamp: str, *, want: bool) -> int:
        """Mark the pictures ``batch`` shows seen at ``stamp``; how many were new (wanted).

        The known ones are touched together, whatever story shows them: one read of their
        records and one write, where a ``want`` per story would write every record it names
        (measured on PostgreSQL: 6 ms a story, against about 1). Only the new ones, and those
        no story wanted yet, are wanted, story by story. A record forgotten between the read
        and the touch is not made again: the next walk makes it."""
        sources = self._ctx.store.kept_sources
        every = [address for shown in batch for address in shown.addresses]
        if not want:
            if every:
                sources.touch(every, stamp)
            return 0
        known = sources.get_many(every)
        touched: list[str] = []
        new = 0
        for story, addresses in batch:
            wanting = [a for a in addresses if _wanting(known.get(a), story)]
            if wanting:
                new += sources.want(wanting, stamp, story)
            touched += set(addresses).difference(wanting)
        if touched:
            sources.touch(touched, stamp)
        return new

    def prune(self, progress: Progress | None = None) -> Pruned:
        """Touch what is shown, then sweep: what ``storycore prune-media`` does."""
        return self.sweep(self.mark(want=False, progress=progress))

    def sweep(self, marked: Marked) -> Pruned:
        """Forget the records not seen for ``UNSHOWN`` before ``marked`` began, then delete the
        files last put before then that no record names; nothing after a walk that was not
        ``whole`` (what it did not reach would look unshown)."""
        if not marked.whole:
            return Pruned(0, 0)
        before = format_timestamp(marked.at - UNSHOWN)
        store = self._ctx.store
        records = store.kept_sources.forget(before)
        files = 0
        while gone := store.kept_files.delete_unshown(before, _DELETED_AT_ONCE):
            files += len(gone)
            if len(gone) < _DELETED_AT_ONCE:
                break
        return Pruned(records, files)


def _wanting(record: KeptSource | None, story: str | None) -> bool:
    """Whether a walk wants an address (rather than touches it) whose record is ``record``:
    there is none, or no story wanted it yet and ``story`` shows it."""
    return record is None or (story is not None and record.wanted_by is None)
