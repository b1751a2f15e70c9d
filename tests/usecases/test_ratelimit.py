"""The per-key rate limit over a sliding minute that guards delegated creation (docs/delegation.md),
answered as 429 ``rate_limited`` with ``Retry-After`` (storycore.errors)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from storycore.errors import RateLimited
from storycore.testing import ManualClock
from storycore.usecases.ratelimit import RateLimiter


def test_hits_up_to_the_limit_are_allowed() -> None:
    limiter = RateLimiter(3, clock=ManualClock())
    for _ in range(3):
        limiter.hit("app")


def test_a_hit_over_the_limit_is_rate_limited_with_retry_after() -> None:
    clock = ManualClock()
    limiter = RateLimiter(2, clock=clock)
    limiter.hit("app")
    clock.advance(10)
    limiter.hit("app")
    with pytest.raises(RateLimited) as caught:
        limiter.hit("app")
    assert (caught.value.status, caught.value.type) == (429, "rate_limited")
    assert caught.value.retry_after == 50  # the first hit leaves the window in 50 s
    assert caught.value.headers() == [("Retry-After", "50")]


def test_a_refused_hit_does_not_count() -> None:
    clock = ManualClock()
    limiter = RateLimiter(1, clock=clock)
    limiter.hit("app")
    for _ in range(5):
        with pytest.raises(RateLimited):
            limiter.hit("app")
    clock.advance(60)
    limiter.hit("app")


def test_hits_older_than_a_minute_leave_the_window() -> None:
    clock = ManualClock()
    limiter = RateLimiter(1, clock=clock)
    limiter.hit("app")
    clock.advance(59.9)
    with pytest.raises(RateLimited):
        limiter.hit("app")
    clock.advance(0.1)
    limiter.hit("app")


def test_retry_after_is_at_least_one_second() -> None:
    clock = ManualClock()
    limiter = RateLimiter(1, clock=clock)
    limiter.hit("app")
    clock.advance(59.99)
    with pytest.raises(RateLimited) as caught:
        limiter.hit("app")
    assert caught.value.retry_after == 1


def test_each_key_has_its_own_limit() -> None:
    limiter = RateLimiter(1, clock=ManualClock())
    limiter.hit("app-1")
    limiter.hit("app-2")
    with pytest.raises(RateLimited):
        limiter.hit("app-1")


def test_a_wall_clock_set_back_or_forward_moves_no_window() -> None:
    clock = ManualClock()
    limiter = RateLimiter(1, clock=clock)
    limiter.hit("app")
    clock.set(clock.now() + timedelta(hours=1))
    with pytest.raises(RateLimited):
        limiter.hit("app")
    clock.set(clock.now() - timedelta(hours=2))
    with pytest.raises(RateLimited) as caught:
        limiter.hit("app")
    assert caught.value.retry_after == 60
