"""Keeping the pictures stories and profiles show (docs/media.md#how-pictures-are-kept).

A write that brings pictures queues their addresses (``KeptSources.want``); the keeper takes
what is due and keeps it:

1. **Claim.** The due records are leased to this keeper for ``LEASE``, ``limit`` at a time, as
   webhook deliveries are (docs/media-storage.md#the-keepers-queue): several processes on one
   store never fetch one address at once, and what a stopped process held is due again when
   its lease ends.
2. **Fetch.** Each address through the fetcher (``PageFetcher``, the online resolver's, with
   its address rules and allowances: docs/resolver.md), at most ``Settings.resolver_at_once``
   at a time, each within ``Settings.keep_media_timeout`` seconds, at most ``MAX_BYTES`` and
   one byte more read (so that a longer picture is refused, not cut). Its ``Content-Type`` is
   not read: the bytes say what a picture is.
3. **Keep.** ``keep_picture`` makes the files; each is put in the store checked against its
   name (the SHA-256 of its bytes), then the record is finished as kept with its copies, the
   original first. A ``PictureRefused`` is failed for good at once, its message the reason:
   the same bytes would be refused again. So is a picture that would take the story that first
   wanted it past its limit (``Settings.limits.media_bytes``: the bytes fetched for the kept
   pictures it shows now, and this one's; docs/media.md#limits). A fetch that failed (refused
   address, no answer in time, any status but 2xx) is tried again after 1 minute, 1 hour and
   1 day (``storycore.rules.keeping``), then failed for good with its reason.

``keep_due`` is synchronous and keeps what is due when it is called: the fetches run on an
event loop of their own, and ``keep_picture``'s CPU work in the calling thread. ``start`` runs
it every ``INTERVAL`` seconds in a daemon thread of its own until ``close`` (what a serve
process is to do, so that a picture is kept within 10 seconds of its write), and in another,
at once and then every ``UPKEEP_INTERVAL``, ``upkeep``: a walk of what every story, revision
and user shows, wanting what is not kept yet, then the prune of what nothing showed for 7
days (``storycore.usecases.pruning``). ``keep_all`` keeps everything not kept yet, failures
too (``storycore keep-media``). Time is the service's clock.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import secrets
import socket
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import NamedTuple

from ..errors import PictureRefused, StorycoreError
from ..media.pictures import MAX_BYTES, KeptPicture, PictureFile, keep_picture
from ..model.kept import KeptCopy, KeptFile, KeptSource
from ..model.records import element_of
from ..model.shown_pictures import story_pictures
from ..resolving.coroutines import run_to_end
from ..resolving.fetching import PageFetcher
from ..rules.keeping import next_attempt, over_limit
from ..rules.timestamps import format_timestamp
from ._rounds import RoundThread
from .context import Context
from .pruning import MediaWalk, Progress, Pruned

__all__ = ["BATCH", "INTERVAL", "LEASE", "UPKEEP_INTERVAL", "Keeper", "KeptAll"]

logger = logging.getLogger("storycore.media")

#: How long a keeper holds the records it took: more than a batch's fetches and keeping take.
LEASE = timedelta(minutes=5)
#: The records one claim takes.
BATCH = 8
#: Seconds between two rounds in the background: a picture is kept within 10 s of its write.
INTERVAL = 5.0
#: Seconds between two walks and prunes in the background (the first at ``start``): a day.
UPKEEP_INTERVAL = 24 * 60 * 60.0
#: Every element of a story, however many its store holds.
_ALL = 2**31
_ACCEPT = "image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1"


class _Fetched(NamedTuple):
    """What fetching one address gave: its bytes, or why there are none."""

    body: bytes | None
    reason: str | None = None


class KeptAll(NamedTuple):
    """What ``Keeper.keep_all`` did."""

    #: the records failed for good made due again
    retried: int
    #: the stories and users walked, and the addresses they showed that were new
    walked: int
    wanted: int
    #: the pictures tried, and of them those kept
    tried: int
    kept: int


class Keeper:
    """Fetches and keeps the pictures due, through ``fetcher``; without one it keeps nothing."""

    def __init__(self, context: Context, fetcher: PageFetcher | None) -> None:
        self._ctx = context
        self._fetcher = fetcher
        self.walk = MediaWalk(context)
        #: who holds a lease: this process (host and pid) and this keeper
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._thread = RoundThread(
            context.clock,
            INTERVAL,
            self._round,
            name="storycore-keeper",
            logger=logger,
            waits=(StorycoreError,),
            waiting="pictures wait for the keeper's next round",
            failed="keeping pictures failed",
        )
        self._upkeep_thread = RoundThread(
            context.clock,
            UPKEEP_INTERVAL,
            self._upkeep_round,
            name="storycore-media-walk",
            logger=logger,
            waits=(StorycoreError,),
            waiting="the walk of the pictures shown waits for the next day's",
            failed="walking and pruning the pictures shown failed",
        )

    @property
    def fetching(self) -> bool:
        """Whether this keeper has a fetcher (without one, ``keep_due`` keeps nothing)."""
        return self._fetcher is not None

    def start(self) -> None:
        """Keep what is due every ``INTERVAL`` seconds in a daemon thread, and ``upkeep`` at
        once and then every ``UPKEEP_INTERVAL`` in another, until ``close``; a second start
        does nothing, and so does a start without a fetcher or after ``close``."""
        if self._fetcher is not None:
            self._thread.start()
            self._upkeep_thread.start()

    def _round(self) -> None:
        self.keep_due()  # looked up each round: a test may wrap it

    def _upkeep_round(self) -> None:
        self.upkeep()  # looked up each round: a test may wrap it

    @property
    def running(self) -> bool:
        """Whether the background threads run."""
        return self._thread.running or self._upkeep_thread.running

    def close(self) -> None:
        """Stop the background threads, after the batch under way (what it has not claimed
        stays due, for any process); a walk under way ends early, and prunes nothing."""
        self._upkeep_thread.close()
        self._thread.close()

    def upkeep(self) -> Pruned:
        """Want every picture a story, a revision or a user shows (the known ones seen now,
        the new ones queued: a store written before pictures were kept), then delete what
        nothing showed for 7 days (``MediaWalk``); what was deleted. Once the keeper is
        closing, a walk ends early and deletes nothing."""
        marked = self.walk.mark(want=True, stop=lambda: self._upkeep_thread.stopped)
        return self.walk.sweep(marked)

    def keep_all(self, progress: Progress | None = None) -> KeptAll:
        """Keep everything not kept yet (``storycore keep-media``): the pictures failed for
        good due again, every picture shown wanted (``MediaWalk.mark``), then every picture
        due kept (``keep_due``); ``progress`` is told the stories and users walked, then the
        pictures tried."""
        retried = self._ctx.store.kept_sources.retry_failed(self._ctx.now())
        marked = self.walk.mark(want=True, progress=progress)
        tried = kept = 0

        def counted(outcome: KeptSource) -> None:
            nonlocal tried, kept
            tried, kept = tried + 1, kept + (outcome.state == "kept")
            if progress is not None:
                progress("kept", tried, None)

        self.keep_due(outcome=counted)
        return KeptAll(retried, marked.walked, marked.wanted, tried, kept)

    def keep_due(
        self, limit: int = BATCH, *, outcome: Callable[[KeptSource], object] | None = None
    ) -> int:
        """Fetch and keep every picture due now, ``limit`` claimed at a time (those that fail
        and come due again meanwhile wait for the next call); how many were tried. Each
        outcome stored is given to ``outcome``."""
        if self._fetcher is None:
            return 0
        sources = self._ctx.store.kept_sources
        due, tried = self._ctx.clock.now(), 0
        while not self._thread.stopped:
            until = format_timestamp(self._ctx.clock.now() + LEASE)
            taken = sources.claim(format_timestamp(due), until, self.owner, limit)
            if not taken:
                return tried
            fetched = run_to_end(self._fetch_all(taken), thread_name="storycore-keeper")
            for source, got in zip(taken, fetched, strict=True):
                result = self._outcome(source, got)
                if not sources.finish(result, self.owner):
                    logger.info("a kept picture's lease ran out before its outcome was stored")
                elif outcome is not None:
                    outcome(result)
            tried += len(taken)
        return tried

    async def _fetch_all(self, taken: Sequence[KeptSource]) -> list[_Fetched]:
        places = asyncio.Semaphore(self._ctx.settings.resolver_at_once)

        async def one(address: str) -> _Fetched:
            async with places:
                return await self._fetch(address)

        return list(await asyncio.gather(*(one(source.address) for source in taken)))

    async def _fetch(self, address: str) -> _Fetched:
        assert self._fetcher is not None
        seconds = self._ctx.settings.keep_media_timeout
        try:
            async with asyncio.timeout(seconds):
                got = await self._fetcher.fetch(address, accept=_ACCEPT, max_bytes=MAX_BYTES + 1)
        except TimeoutError:
            return _Fetched(None, f"no answer within {seconds:g} s")
        if got is None:
            return _Fetched(None, "not fetched: refused, unreachable or a broken answer")
        if not 200 <= got.status < 300:
            return _Fetched(None, f"the source answered {got.status}")
        return _Fetched(got.body)

    def _outcome(self, source: KeptSource, got: _Fetched) -> KeptSource:
        """``source`` once ``got`` was fetched for it: kept, refused for good, or failed."""
        now = self._ctx.clock.now()
        if got.body is None:
            return self._failed(source, got.reason or "not fetched", now)
        over = self._over_limit(source, len(got.body))
        if over is not None:
            return self._refused(source, over)
        try:
            kept = keep_picture(got.body)
        except PictureRefused as refused:
            return self._refused(source, refused.message)
        at = format_timestamp(now)
        for file in kept.files:
            self._put(file, at)
        return source._replace(
            state="kept", copies=_copies(kept), fetched=len(got.body), reason=None,
            next_attempt=None,
        )  # fmt: skip

    def _over_limit(self, source: KeptSource, size: int) -> str | None:
        """Why ``size`` fetched bytes for ``source`` would take the story that first wanted it
        past its limit, or None: the bytes fetched for the kept pictures it shows now are
        added up (one read of its records). A picture wanted by no story (an avatar), or by a
        story gone since, counts against none."""
        story = None if source.wanted_by is None else self._ctx.store.stories.get(source.wanted_by)
        if story is None:
            return None
        documents = self._ctx.store.stories.element_documents(story.id, 0, _ALL)
        shown = story_pictures(story, map(element_of, documents))
        others = [address for address in shown if address != source.address]
        records = self._ctx.store.kept_sources.get_many(others).values()
        kept = sum(record.fetched for record in records if record.state == "kept")
        return over_limit(kept, size, self._ctx.settings.limits.media_bytes)

    @staticmethod
    def _refused(source: KeptSource, reason: str) -> KeptSource:
        """``source`` failed for good: what was fetched would be refused again."""
        return source._replace(
            state="failed", reason=reason, next_attempt=None, attempts=source.attempts + 1,
            copies=(),
        )  # fmt: skip

    @staticmethod
    def _failed(source: KeptSource, reason: str, now: datetime) -> KeptSource:
        attempts = source.attempts + 1
        later = next_attempt(attempts, now)
        return source._replace(
            state="failed", attempts=attempts, reason=reason,
            next_attempt=None if later is None else format_timestamp(later),
        )  # fmt: skip

    def _put(self, file: PictureFile, at: str) -> None:
        """Store ``file``, checked against its name: a file's name is the hash of its bytes."""
        if hashlib.sha256(file.content).hexdigest() != file.sha256:
            raise AssertionError(f"a kept file's bytes are not its name {file.sha256}")  # a bug
        members = KeptFile(file.sha256, file.media_type, file.width, file.height, file.size, at)
        self._ctx.store.kept_files.put(members, file.content)


def _copies(kept: KeptPicture) -> tuple[KeptCopy, ...]:
    """The copies a record names: the original first, then the narrower widths, narrowest
    first."""
    return tuple(
        KeptCopy(file.sha256, file.media_type, file.width, file.height)
        for file in (kept.original, *kept.widths)
    )
