"""Time in tests: a service's ``ManualClock``, moved on so that what it writes next is later."""

from __future__ import annotations

from storycore import Service
from storycore.testing import ManualClock

__all__ = ["later"]


def later(service: Service, seconds: float = 1.0) -> None:
    """Move ``service``'s clock (a ``ManualClock``: the test module's ``storycore_clock``) on
    by ``seconds``: the next time it writes is that much later than the last."""
    clock = service.clock
    assert isinstance(clock, ManualClock), f"{clock!r} is not moved by hand"
    clock.advance(seconds)
