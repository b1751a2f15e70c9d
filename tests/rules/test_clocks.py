"""The system clock, the service's default: the real time, in UTC (``storycore.clocks``)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from storycore import Service
from storycore.adapters import open_store
from storycore.clocks import Clock, SystemClock


def test_the_system_clock_tells_the_real_time_in_utc() -> None:
    before = datetime.now(UTC)
    told = SystemClock().now()
    after = datetime.now(UTC)
    assert before <= told <= after
    assert told.utcoffset() == timedelta(0)


def test_the_system_clocks_monotonic_time_never_goes_back() -> None:
    clock = SystemClock()
    readings = [clock.monotonic() for _ in range(1000)]
    assert readings == sorted(readings)


def test_the_system_clocks_events_are_threading_events() -> None:
    event = SystemClock().event()
    assert isinstance(event, threading.Event)
    assert event.wait(0) is False
    event.set()
    assert event.wait(0) is True


def test_the_system_clock_is_a_clock() -> None:
    assert isinstance(SystemClock(), Clock)


def test_a_service_given_no_clock_reads_the_system_clock() -> None:
    with Service(open_store("memory://")) as service:
        assert isinstance(service.clock, SystemClock)
