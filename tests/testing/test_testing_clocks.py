"""The testing kit's ``ManualClock``: a clock that moves only when a test moves it."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta, timezone

import pytest

import storycore.testing
from storycore.clocks import Clock
from storycore.testing.clocks import DEFAULT_START, ManualClock

START = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


def _waiting(clock: ManualClock, timeout: float | None) -> tuple[threading.Thread, list[bool]]:
    """A thread waiting on a new event of ``clock`` for ``timeout``; what its wait answers."""
    event = clock.event()
    answered: list[bool] = []
    thread = threading.Thread(target=lambda: answered.append(event.wait(timeout)), daemon=True)
    thread.start()
    return thread, answered


def test_the_kit_lends_the_manual_clock_by_its_own_name() -> None:
    assert storycore.testing.ManualClock is ManualClock


def test_a_manual_clock_is_a_clock() -> None:
    assert isinstance(ManualClock(), Clock)


def test_it_starts_where_told_and_stands_still() -> None:
    clock = ManualClock(start=START)
    assert [clock.now(), clock.now()] == [START, START]
    assert clock.monotonic() == clock.monotonic() == 0.0


def test_it_starts_at_a_fixed_moment_unless_told() -> None:
    assert ManualClock().now() == DEFAULT_START == datetime(2026, 1, 1, tzinfo=UTC)


def test_it_tells_the_time_in_utc_whatever_zone_it_started_in() -> None:
    paris = timezone(timedelta(hours=1))
    told = ManualClock(start=datetime(2026, 3, 1, 10, 30, tzinfo=paris)).now()
    assert (told, told.utcoffset()) == (START, timedelta(0))


def test_a_start_without_a_time_zone_is_refused() -> None:
    with pytest.raises(ValueError, match="aware"):
        ManualClock(start=datetime(2026, 3, 1, 9, 30))  # no zone: the point of the test


def test_advance_moves_the_wall_and_the_monotonic_time_together() -> None:
    clock = ManualClock(start=START)
    assert clock.advance(90) == START + timedelta(seconds=90)
    assert (clock.now(), clock.monotonic()) == (START + timedelta(seconds=90), 90.0)


def test_advance_adds_its_units_and_takes_a_timedelta() -> None:
    clock = ManualClock(start=START)
    clock.advance(timedelta(seconds=1), minutes=2, hours=3, days=4)
    step = timedelta(days=4, hours=3, minutes=2, seconds=1)
    assert (clock.now(), clock.monotonic()) == (START + step, step.total_seconds())


def test_advance_counts_milliseconds_exactly() -> None:
    clock = ManualClock()
    for _ in range(1000):
        clock.advance(0.001)
    assert clock.monotonic() == 1.0


def test_advance_never_moves_the_clock_back() -> None:
    clock = ManualClock(start=START)
    with pytest.raises(ValueError, match="set"):
        clock.advance(-1)
    assert (clock.now(), clock.monotonic()) == (START, 0.0)


def test_set_moves_the_wall_time_alone_either_way() -> None:
    clock = ManualClock(start=START)
    clock.set(START - timedelta(days=1))
    assert (clock.now(), clock.monotonic()) == (START - timedelta(days=1), 0.0)
    clock.set(START + timedelta(days=1))
    assert (clock.now(), clock.monotonic()) == (START + timedelta(days=1), 0.0)


def test_set_refuses_a_time_without_a_zone() -> None:
    with pytest.raises(ValueError, match="aware"):
        ManualClock().set(datetime(2026, 3, 1))  # no zone: the point of the test


def test_an_event_waits_until_the_clock_has_advanced_by_its_timeout() -> None:
    clock = ManualClock()
    thread, answered = _waiting(clock, 5)
    assert clock.wait_for_waiters(1)
    clock.advance(5)
    thread.join(timeout=10)
    assert answered == [False]  # woken by the time, not by the flag


def test_an_event_does_not_wake_for_a_step_short_of_its_timeout() -> None:
    clock = ManualClock()
    thread, answered = _waiting(clock, 1)
    assert clock.wait_for_waiters(1)
    clock.advance(0.999)
    clock.set(clock.now() + timedelta(hours=1))  # the wall time moves no timeout
    assert clock.wait_for_waiters(1)  # still waiting, after the clock moved
    assert answered == []
    clock.advance(0.001)
    thread.join(timeout=10)
    assert answered == [False]


def test_an_event_wakes_its_waiter_when_set() -> None:
    clock = ManualClock()
    event = clock.event()
    answered: list[bool] = []
    thread = threading.Thread(target=lambda: answered.append(event.wait(60)), daemon=True)
    thread.start()
    assert clock.wait_for_waiters(1)
    event.set()
    thread.join(timeout=10)
    assert (answered, event.is_set()) == ([True], True)


def test_waiting_for_waiters_says_when_none_came() -> None:
    assert ManualClock().wait_for_waiters(1, timeout=0) is False


def test_an_event_waits_not_at_all_for_no_time() -> None:
    event = ManualClock().event()
    assert (event.wait(0), event.wait(-1)) == (False, False)
    event.set()
    assert event.wait(0) is True
