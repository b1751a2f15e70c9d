"""A clock a test moves by hand, so that no test sleeps for time to pass.

Give it to the service and move it::

    clock = ManualClock(start=datetime(2026, 3, 1, 9, tzinfo=UTC))
    service = Service(store, settings, clock=clock)
    ...
    clock.advance(days=31)  # the service's tokens have expired

It stands still until moved: every write between two moves has the same timestamp, and a write
after ``advance`` a later one. ``advance`` moves the wall time and the monotonic time together
and wakes the service's background threads whose interval has passed (the view-count writer);
``set`` moves the wall time alone, as setting a computer's clock does (rate-limit windows,
counted on the monotonic time, do not move with it).
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Final

from storycore.clocks import Clock, ClockEvent

__all__ = ["DEFAULT_START", "ManualClock"]

#: Where a ``ManualClock`` starts unless told: a fixed moment, so that runs are alike.
DEFAULT_START: Final = datetime(2026, 1, 1, tzinfo=UTC)


class ManualClock(Clock):
    """A ``storycore.clocks.Clock`` that moves only when ``advance`` or ``set`` moves it,
    starting at ``start`` (an aware datetime; ``DEFAULT_START`` unless given) and at monotonic
    time 0. Safe to read and move from any thread."""

    def __init__(self, start: datetime = DEFAULT_START) -> None:
        self._moved = threading.Condition()
        self._now = _aware(start)
        self._elapsed = timedelta(0)  # the monotonic time, kept exact
        self._waiters = 0  # threads waiting on the clock's events now

    def now(self) -> datetime:
        with self._moved:
            return self._now

    def monotonic(self) -> float:
        with self._moved:
            return self._elapsed.total_seconds()

    def event(self) -> ClockEvent:
        return _ManualEvent(self)

    def advance(
        self,
        seconds: float | timedelta = 0.0,
        *,
        minutes: float = 0.0,
        hours: float = 0.0,
        days: float = 0.0,
    ) -> datetime:
        """Move the clock forward by the sum of the arguments (``seconds`` may be a
        ``timedelta``: ``advance(settings.token_lifetime)``); the new time. Threads waiting on
        the clock's events wake when their timeout has passed. ``ValueError`` for a step back
        (``set`` moves the wall time back)."""
        if not isinstance(seconds, timedelta):
            seconds = timedelta(seconds=seconds)
        step = seconds + timedelta(days=days, hours=hours, minutes=minutes)
        if step < timedelta(0):
            raise ValueError(f"a clock advances forward, not by {step}; set() moves it back")
        with self._moved:
            self._now += step
            self._elapsed += step
            self._moved.notify_all()
            return self._now

    def wait_for_waiters(self, count: int = 1, *, timeout: float = 10.0) -> bool:
        """Block until at least ``count`` threads wait on this clock's events, at most
        ``timeout`` seconds of real time; whether they do. A thread's wait counts its timeout
        from when it began: a test that moves the clock past a background thread's timeout
        calls this first, so that the thread is waiting when the clock moves."""
        with self._moved:
            return self._moved.wait_for(lambda: self._waiters >= count, timeout)

    def set(self, moment: datetime) -> None:
        """Make the wall time ``moment`` (an aware datetime, earlier or later), as setting a
        computer's clock does: the monotonic time, and so rate-limit windows and the timeouts
        of waiting threads, do not move."""
        moment = _aware(moment)
        with self._moved:
            self._now = moment

    def __repr__(self) -> str:
        return f"ManualClock({self.now().isoformat()})"


class _ManualEvent(ClockEvent):
    """A ``ClockEvent`` whose timeouts pass when its ``ManualClock`` advances."""

    def __init__(self, clock: ManualClock) -> None:
        self._clock = clock
        self._set = False

    def set(self) -> None:
        with self._clock._moved:
            self._set = True
            self._clock._moved.notify_all()

    def is_set(self) -> bool:
        with self._clock._moved:
            return self._set

    def wait(self, timeout: float | None = None) -> bool:
        clock = self._clock
        with clock._moved:
            clock._waiters += 1
            clock._moved.notify_all()
            try:
                if timeout is None:
                    clock._moved.wait_for(lambda: self._set)
                else:
                    until = clock._elapsed + timedelta(seconds=max(0.0, timeout))
                    clock._moved.wait_for(lambda: self._set or clock._elapsed >= until)
                return self._set
            finally:
                clock._waiters -= 1


def _aware(moment: datetime) -> datetime:
    """``moment`` in UTC; ``ValueError`` for a naive datetime, whose zone nobody knows."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"a ManualClock needs an aware datetime, not {moment!r}")
    return moment.astimezone(UTC)
