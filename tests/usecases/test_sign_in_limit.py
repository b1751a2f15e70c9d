"""The limit on failed sign-ins: per username (regardless of case) and per client address, a
number a minute of the service's clock, counted in the store so that every service on it counts
the same failures; past it, 429 ``rate_limited`` with ``Retry-After``."""

from __future__ import annotations

import pytest

from storycore import Service, Settings
from storycore.errors import RateLimited
from storycore.ports import Store
from storycore.rules.timestamps import format_timestamp
from storycore.settings import Limits
from storycore.testing import ManualClock
from storycore.usecases.sign_in_limit import SignInLimit

LIMIT = 3
SETTINGS = Settings(password_cost=2**4, limits=Limits(sign_ins_per_minute=LIMIT))
HERE, THERE, ELSEWHERE = "192.0.2.1", "198.51.100.7", "203.0.113.9"


@pytest.fixture
def storycore_clock() -> ManualClock:
    """The service's time, moved by hand."""
    return ManualClock()


@pytest.fixture
def storycore_settings() -> Settings:
    """A limit of ``LIMIT`` failed sign-ins a minute."""
    return SETTINGS


@pytest.fixture
def limit(service: Service) -> SignInLimit:
    """The service's limit on failed sign-ins."""
    return SignInLimit(service._context)


def _refused(limit: SignInLimit, username: str, address: str | None) -> RateLimited:
    with pytest.raises(RateLimited) as caught:
        limit.check(username, address)
    return caught.value


def test_the_default_limit_is_10_failed_sign_ins_a_minute() -> None:
    assert Settings().limits.sign_ins_per_minute == 10


def test_failures_below_the_limit_refuse_nothing(limit: SignInLimit) -> None:
    for _ in range(LIMIT - 1):
        limit.failed("alice", HERE)
    limit.check("alice", HERE)


def test_a_username_at_the_limit_is_refused_from_any_address(limit: SignInLimit) -> None:
    for address in (HERE, THERE, None):
        limit.failed("alice", address)
    refused = _refused(limit, "alice", ELSEWHERE)
    assert (refused.status, refused.type) == (429, "rate_limited")


def test_a_username_is_limited_regardless_of_case(limit: SignInLimit) -> None:
    for username in ("alice", "Alice", "ALICE"):
        limit.failed(username, None)
    _refused(limit, "aLiCe", None)


def test_an_address_at_the_limit_is_refused_for_any_username(limit: SignInLimit) -> None:
    for username in ("alice", "bob", "carol"):
        limit.failed(username, HERE)
    _refused(limit, "dave", HERE)


def test_one_usernames_failures_do_not_limit_another(limit: SignInLimit) -> None:
    for address in (HERE, THERE, ELSEWHERE):
        limit.failed("alice", address)
    limit.check("bob", None)


def test_a_failure_without_an_address_counts_for_the_username_alone(limit: SignInLimit) -> None:
    for username in ("alice", "bob", "carol"):
        limit.failed(username, None)
    limit.check("dave", HERE)


def test_a_username_written_as_an_address_is_not_that_address(limit: SignInLimit) -> None:
    for address in (HERE, THERE, ELSEWHERE):
        limit.failed("192.0.2.99", address)
    limit.check("alice", "192.0.2.99")


def test_checking_counts_no_failure(limit: SignInLimit) -> None:
    for _ in range(LIMIT + 5):
        limit.check("alice", HERE)
    limit.failed("alice", HERE)
    limit.check("alice", HERE)


def test_retry_after_counts_the_seconds_until_the_oldest_failure_leaves_the_minute(
    limit: SignInLimit, storycore_clock: ManualClock
) -> None:
    for _ in range(LIMIT):
        limit.failed("alice", HERE)
        storycore_clock.advance(10)
    refused = _refused(limit, "alice", HERE)  # the first failure was 30 s ago
    assert refused.retry_after == 30
    assert refused.headers() == [("Retry-After", "30")]


def test_retry_after_is_at_least_one_second(
    limit: SignInLimit, storycore_clock: ManualClock
) -> None:
    for _ in range(LIMIT):
        limit.failed("alice", HERE)
    storycore_clock.advance(59.9)
    assert _refused(limit, "alice", HERE).retry_after == 1


def test_a_failure_a_minute_old_no_longer_counts(
    limit: SignInLimit, storycore_clock: ManualClock
) -> None:
    for _ in range(LIMIT):
        limit.failed("alice", HERE)
    storycore_clock.advance(60)
    limit.check("alice", HERE)


def test_failures_are_counted_in_the_store_not_in_one_limit(
    service: Service, limit: SignInLimit
) -> None:
    elsewhere = SignInLimit(service._context)  # what another process would make
    limit.failed("alice", HERE)
    elsewhere.failed("alice", THERE)
    limit.failed("alice", ELSEWHERE)
    _refused(elsewhere, "alice", None)


def test_failing_prunes_the_failures_that_left_the_minute(
    store: Store, limit: SignInLimit, storycore_clock: ManualClock
) -> None:
    limit.failed("alice", HERE)
    storycore_clock.advance(61)
    limit.failed("bob", THERE)
    assert store.sign_in_failures.prune(format_timestamp(storycore_clock.now())) == 2
