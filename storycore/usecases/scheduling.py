"""Publishing scheduled stories when their time comes (docs/api.md#scheduled-publishing).

Every process that serves a store runs a ``Scheduler``: once a second (on the service's
clock) it asks storage for the stories that are due, one index lookup when none is, and
publishes them through ``Stories.publish_due``, the path of a publish. Processes need not know
of each other: each due story is published by the one whose version-checked write comes
first, and the others find it changed and leave it. A process that dies mid-way leaves each
story published or not, never half: the next round, here or elsewhere, takes what is left.
"""

from __future__ import annotations

import logging

from ..clocks import Clock
from ..errors import Unavailable
from ._rounds import RoundThread
from .lifecycle import Stories

__all__ = ["INTERVAL", "Scheduler"]

logger = logging.getLogger("storycore.scheduler")

#: Seconds between two looks for due stories: a story is published at most this long (plus
#: the time its publishing takes) after its time.
INTERVAL = 1.0
#: Stories looked up and published in one go; a round goes on to the next batch as long as the
#: last one published anything.
_BATCH = 100


class Scheduler:
    """Publishes due stories: once (``run_once``) or in a background thread (``start``)."""

    def __init__(self, stories: Stories, clock: Clock, *, interval: float = INTERVAL) -> None:
        self._stories = stories
        self._thread = RoundThread(
            clock,
            interval,
            self.run_once,
            name="storycore-scheduler",
            logger=logger,
            waits=(Unavailable,),
            waiting="the store is busy; due stories will be published in a moment",
            failed="due stories could not be published",
        )

    def run_once(self) -> int:
        """Publish every story due now; how many this process published.

        A batch goes on to the next as long as it published anything, not only when it
        published a whole batch: where other processes publish too, each publishes a share of
        the batch all of them found, and stopping there left the rest for the next round, a
        second later. A batch that published nothing found nothing due, or found what others
        published (and they go on).
        """
        published = 0
        while done := self._stories.publish_due(_BATCH):
            published += done
        return published

    def start(self) -> None:
        """Look for due stories every ``interval`` in a daemon thread, until ``close``; a
        second start does nothing."""
        self._thread.start()

    @property
    def running(self) -> bool:
        """Whether the background thread runs."""
        return self._thread.running

    def close(self) -> None:
        """Stop the background thread (after the round under way, if any)."""
        self._thread.close()
