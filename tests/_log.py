"""Reading the event log in tests as a reader must on PostgreSQL: the log hands an event out
only once every writing transaction older than it has ended, on the whole server, so a test
that shares the server with others (xdist workers) may find its newest events held back for a
moment by another test's transaction."""

from __future__ import annotations

import time
from collections.abc import Callable

from storycore.model.events import LoggedEvent

__all__ = ["at_least"]

#: How long a test waits for the log to hand out what it wrote.
SECONDS = 20.0


def at_least(read: Callable[[], list[LoggedEvent]], count: int) -> list[LoggedEvent]:
    """What ``read`` (a read of the log after a cursor) gives once it gives ``count`` events
    or more, or after ``SECONDS`` (the caller's assertion then says what is missing)."""
    ends = time.monotonic() + SECONDS
    while True:
        logged = read()
        if len(logged) >= count or time.monotonic() > ends:
            return logged
        time.sleep(0.01)  # waits for other transactions to end, not for time to pass
