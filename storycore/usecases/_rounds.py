"""When a background thread's rounds come: every ``interval`` on the service's clock."""

from __future__ import annotations

from collections.abc import Iterator

from ..clocks import Clock, ClockEvent

__all__ = ["rounds"]


def rounds(clock: Clock, stop: ClockEvent, interval: float, due: float) -> Iterator[None]:
    """Yield when each round is due, the first at ``due`` (the clock's monotonic time), until
    ``stop`` is raised. Each round is due when the last was due, plus ``interval``, or at once
    when that has passed: when a round comes does not depend on when its thread got to wait
    for it, nor on how long the last round took."""
    while not stop.wait(max(0.0, due - clock.monotonic())):
        due = max(due + interval, clock.monotonic())
        yield
