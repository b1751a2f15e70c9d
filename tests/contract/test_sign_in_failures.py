"""SignInFailures: failed sign-ins by key, read back over a window and pruned, shared by every
process on one store (docs/adapters.md)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from storycore.ports import Store
from tests.contract._factories import at, two_stores

THREADS = 4
FAILURES_PER_THREAD = 25
#: A key as long as the core may make one, and of any characters.
LONG_KEY = "user:" + "é" * 300


def test_a_key_without_failures_has_none(store: Store) -> None:
    assert store.sign_in_failures.since("user:alice", at(0), 10) == []


def test_add_records_one_failure_under_each_key(store: Store) -> None:
    store.sign_in_failures.add(["user:alice", "address:192.0.2.1"], at(5))
    assert store.sign_in_failures.since("user:alice", at(0), 10) == [at(5)]
    assert store.sign_in_failures.since("address:192.0.2.1", at(0), 10) == [at(5)]


def test_since_answers_the_failures_later_than_after_oldest_first(store: Store) -> None:
    for minutes in (7, 3, 5, 1):
        store.sign_in_failures.add(["user:alice"], at(minutes))
    assert store.sign_in_failures.since("user:alice", at(2), 10) == [at(3), at(5), at(7)]


def test_a_failure_at_after_itself_is_not_later(store: Store) -> None:
    store.sign_in_failures.add(["user:alice"], at(3))
    assert store.sign_in_failures.since("user:alice", at(3), 10) == []


def test_since_answers_at_most_limit_the_oldest_first(store: Store) -> None:
    for minutes in range(1, 6):
        store.sign_in_failures.add(["user:alice"], at(minutes))
    assert store.sign_in_failures.since("user:alice", at(0), 2) == [at(1), at(2)]


def test_failures_at_the_same_time_each_count(store: Store) -> None:
    store.sign_in_failures.add(["user:alice"], at(4))
    store.sign_in_failures.add(["user:alice"], at(4))
    assert store.sign_in_failures.since("user:alice", at(0), 10) == [at(4), at(4)]


def test_a_keys_failures_are_its_own(store: Store) -> None:
    store.sign_in_failures.add(["user:alice"], at(1))
    store.sign_in_failures.add(["user:bob"], at(2))
    assert store.sign_in_failures.since("user:alice", at(0), 10) == [at(1)]


def test_keys_are_compared_exactly(store: Store) -> None:
    store.sign_in_failures.add(["user:alice"], at(1))
    assert store.sign_in_failures.since("user:Alice", at(0), 10) == []
    assert store.sign_in_failures.since("user:alic", at(0), 10) == []


def test_a_long_key_of_any_characters_is_kept(store: Store) -> None:
    store.sign_in_failures.add([LONG_KEY], at(1))
    assert store.sign_in_failures.since(LONG_KEY, at(0), 10) == [at(1)]


def test_adding_under_no_key_stores_nothing(store: Store) -> None:
    store.sign_in_failures.add([], at(1))
    assert store.sign_in_failures.prune(at(10)) == 0


def test_prune_deletes_the_failures_at_or_before_before_and_says_how_many(store: Store) -> None:
    for minutes in (1, 2, 3):
        store.sign_in_failures.add(["user:alice", "address:192.0.2.1"], at(minutes))
    assert store.sign_in_failures.prune(at(2)) == 4
    assert store.sign_in_failures.since("user:alice", at(0), 10) == [at(3)]
    assert store.sign_in_failures.since("address:192.0.2.1", at(0), 10) == [at(3)]


def test_prune_with_nothing_that_old_deletes_nothing(store: Store) -> None:
    store.sign_in_failures.add(["user:alice"], at(5))
    assert store.sign_in_failures.prune(at(4)) == 0
    assert store.sign_in_failures.since("user:alice", at(0), 10) == [at(5)]


def test_failures_added_at_once_are_all_counted(store: Store) -> None:
    start = threading.Barrier(THREADS)

    def fail(_: int) -> None:
        start.wait()
        for _ in range(FAILURES_PER_THREAD):
            store.sign_in_failures.add(["user:alice", "address:192.0.2.1"], at(1))

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(fail, range(THREADS)))
    total = THREADS * FAILURES_PER_THREAD
    assert len(store.sign_in_failures.since("user:alice", at(0), total + 1)) == total
    assert len(store.sign_in_failures.since("address:192.0.2.1", at(0), total + 1)) == total


# -- two stores on one storage -----------------------------------------------------------------


@pytest.fixture
def shared(storycore_store_url: str, tmp_path: Path) -> Iterator[tuple[Store, Store]]:
    """Two stores on one storage (``two_stores``): two processes' views of it."""
    with two_stores(storycore_store_url, tmp_path) as stores:
        yield stores


def test_a_failure_added_through_one_store_is_seen_through_another(
    shared: tuple[Store, Store],
) -> None:
    first, second = shared
    first.sign_in_failures.add(["user:alice"], at(1))
    second.sign_in_failures.add(["user:alice"], at(2))
    assert first.sign_in_failures.since("user:alice", at(0), 10) == [at(1), at(2)]
