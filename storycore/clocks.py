"""The service's clock: the one place the core learns what time it is.

Every rule about time reads the clock the service was given (``Service(store, settings,
clock=...)``): the timestamps it writes (``created``, ``updated``, ``published``, a feature's
time, a token's issue and expiry), whether a token has expired, the delegation rate limit's
window, the view-count writer's interval and the online resolver's kept results. The core never
calls ``datetime.now`` or ``time.monotonic`` itself.

``SystemClock`` is the real time, the default. The testing kit's ``ManualClock``
(``storycore.testing``) moves only when a test moves it, so that no test sleeps for time to pass.
What waits on the network or on another process (an identity provider's deadline, a store's
busy timeout, SQLite's checkpoint thread) waits in real time: those are I/O, not rules.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from typing import Protocol, runtime_checkable

__all__ = ["Clock", "ClockEvent", "SystemClock"]


@runtime_checkable
class ClockEvent(Protocol):
    """A flag a background thread waits on, with its timeout counted on a clock: what
    ``threading.Event`` is on the system clock."""

    def set(self) -> None:
        """Raise the flag, waking whoever waits."""
        ...

    def is_set(self) -> bool:
        """Whether the flag is raised."""
        ...

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the flag is raised, or until ``timeout`` seconds have passed on the
        clock (never, when None); whether it is raised. A timeout of 0 or less waits not at
        all."""
        ...


@runtime_checkable
class Clock(Protocol):
    """What time it is, for the service."""

    def now(self) -> datetime:
        """The current time, aware, in UTC: what the service's timestamps are written from."""
        ...

    def monotonic(self) -> float:
        """Seconds since some fixed moment, never going back (whatever the wall time does):
        what intervals are measured with (rate-limit windows, how long a result is kept)."""
        ...

    def event(self) -> ClockEvent:
        """A new flag, not raised, whose ``wait`` counts its timeout on this clock: what a
        background thread of the service waits on between rounds."""
        ...


class SystemClock(Clock):
    """The real time: ``datetime.now(UTC)``, ``time.monotonic()`` and ``threading.Event``."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    def event(self) -> ClockEvent:
        return threading.Event()

    def __repr__(self) -> str:
        return "SystemClock()"
