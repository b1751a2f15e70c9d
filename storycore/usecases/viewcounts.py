"""Views and embed loads, counted in memory and written once a second (docs/decisions.md#serving).

A read must not wait for a write: counting each view in its own transaction made every read a
write, queued on the store's write lock. Each process counts instead, and a background thread
adds what it counted to the store at least once a second and at close, as additive updates
(``views = views + n``, and the popularity those views make, ``counters.popularity``), so
processes never overwrite each other's counts; the store keeps the embed pages the core's rule
keeps (``counters.pages_dropped``, under ``Limits.embed_pages``). A crash loses at
most the last second of counts. A write that fails because the store is busy or unreachable
(``Unavailable``) keeps its counts for the next one, and nothing written is counted twice: the
store adds them in one transaction, or story by story where it has none
(``StoryRepository.add_views``).

The interval is counted on the service's clock (``storycore.clocks``): on a test's manual clock
the writer writes when the test moves the clock past it, never on its own.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter

from ..clocks import Clock
from ..errors import Unavailable
from ..ports import StoryRepository
from ._rounds import rounds

__all__ = ["ViewCounts"]

logger = logging.getLogger("storycore.views")

#: How often counted views are written, in seconds.
INTERVAL = 1.0


class ViewCounts:
    """The views and embed loads one process has counted and not yet written."""

    def __init__(
        self,
        stories: StoryRepository,
        *,
        max_embed_pages: int,
        clock: Clock,
        interval: float = INTERVAL,
    ) -> None:
        self._stories = stories
        self._max_embed_pages = max_embed_pages
        self._clock = clock
        self._interval = interval
        self._lock = threading.Lock()
        self._views: Counter[str] = Counter()
        self._embeds: Counter[tuple[str, str]] = Counter()
        self._stop = clock.event()
        self._writer: threading.Thread | None = None

    def add(self, story_id: str, embed_page: str | None = None) -> None:
        """Count one view of a story, loaded through its embed from ``embed_page`` if given."""
        with self._lock:
            self._views[story_id] += 1
            if embed_page is not None:
                self._embeds[story_id, embed_page] += 1
            if self._writer is None and not self._stop.is_set():
                due = self._clock.monotonic() + self._interval
                self._writer = threading.Thread(
                    target=self._run, args=(due,), name="storycore-views", daemon=True
                )
                self._writer.start()

    def flush(self) -> None:
        """Write what has been counted. When the store is busy or unreachable (``Unavailable``)
        the counts it did not take stay for the next write; any error is raised.
        """
        with self._lock:
            views, self._views = self._views, Counter()
            embeds, self._embeds = self._embeds, Counter()
        if not views:
            return
        try:
            self._stories.add_views(views, embeds, max_embed_pages=self._max_embed_pages)
        except Unavailable:
            with self._lock:  # what the store did not take: all of it, or what is left
                self._views.update(views)
                self._embeds.update(embeds)
            raise

    def close(self) -> None:
        """Stop the background writer and write what is left."""
        self._stop.set()
        writer = self._writer
        if writer is not None:
            writer.join()
        self.flush()

    def _run(self, due: float) -> None:
        """Write every ``interval`` from ``due`` (on the clock's monotonic time, ``rounds``)
        until closed, or until a write finds nothing to write (the next count starts the writer
        again), so an idle service holds no thread.
        """
        for _ in rounds(self._clock, self._stop, self._interval, due):
            with self._lock:
                if not self._views:
                    self._writer = None
                    return
            try:
                self.flush()
            except Unavailable:
                logger.warning("the store is busy; views will be written in a moment")
            except Exception:  # a bug or a closed store: these counts cannot be written
                logger.exception("views could not be written and are dropped")
