"""Concurrent writers on one SQLite file: no duplicate slug, no lost update, no lock errors."""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from storycore import Service
from storycore.adapters import open_store
from tests.reliability import _workers

# the process pool starts once, on one worker
pytestmark = pytest.mark.xdist_group("concurrency")

WORKERS = 4


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    with Service(open_store(url), _workers.SETTINGS) as service:
        service.accounts.create_user("alice")
        alice = service.accounts.as_user("alice")
        service.stories.create(
            "alice", {"title": "Target", "slug": "target"}, viewer=alice, publish=True
        )
    return url


@pytest.fixture(scope="module")
def processes() -> Iterator[ProcessPoolExecutor]:
    """``WORKERS`` spawned processes, shared by the tests of this module: each task opens its own
    store, so a process carries nothing from one test to the next but its imports.
    """
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(WORKERS, mp_context=context) as executor:
        yield executor


@pytest.fixture(params=["threads", "processes"])
def pool(request: pytest.FixtureRequest) -> Iterator[Executor]:
    """``WORKERS`` threads, or ``WORKERS`` processes, to run concurrent writers on."""
    if request.param == "processes":
        yield request.getfixturevalue("processes")
        return
    with ThreadPoolExecutor(WORKERS) as threads:
        yield threads


def _run(pool: Executor, task: Callable[..., Any], *args: Any) -> list[Any]:
    """``task(*args)`` once per worker, all at once; their results."""
    futures = [pool.submit(task, *args) for _ in range(WORKERS)]
    return [future.result(timeout=120) for future in futures]


def test_concurrent_creates_with_one_derived_slug_get_distinct_slugs(
    url: str, pool: Executor
) -> None:
    slugs = [slug for batch in _run(pool, _workers.create_same_title, url, 10) for slug in batch]
    assert len(slugs) == len(set(slugs)) == WORKERS * 10
    with Service(open_store(url), _workers.SETTINGS) as service:
        listed = service.catalog.user(
            "alice", viewer=service.accounts.as_user("alice"), per_page=100
        )
    assert {s.slug for s in listed.items} == {*slugs, "target"}


def test_thirty_two_creates_of_one_title_at_once_all_get_a_slug(url: str) -> None:
    slugs = _workers.at_once(url, "create_titled", 32, "Same title")
    assert all(slug.startswith("same-title") for slug in slugs), slugs
    assert len(set(slugs)) == 32


def test_concurrent_views_are_all_counted(url: str, pool: Executor) -> None:
    reads = sum(_run(pool, _workers.read_story, url, "target", 25))
    with Service(open_store(url), _workers.SETTINGS) as service:
        stats = service.catalog.search("target").items[0].stats
    assert stats.views == reads == WORKERS * 25


def test_versioned_saves_lose_no_update(url: str, pool: Executor) -> None:
    saved = sum(_run(pool, _workers.save_with_versions, url, "target", 15))
    with Service(open_store(url), _workers.SETTINGS) as service:
        version = service.stories.open("alice", "target", count_view=False).version
    assert saved >= 15  # at least one writer wins each round
    assert version == 1 + saved


def test_threads_sharing_one_store_never_see_database_is_locked(url: str) -> None:
    errors: list[BaseException] = []
    with Service(open_store(url), _workers.SETTINGS) as service:
        alice = service.accounts.as_user("alice")

        def work(n: int) -> None:
            try:
                for i in range(10):
                    service.stories.create("alice", {"title": f"t{n}-{i}"}, viewer=alice)
                    service.catalog.user("alice", viewer=alice)
                    service.stories.read("alice", "target")
            except BaseException as exc:  # noqa: BLE001 - collected and asserted below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert errors == []


def test_authentications_lose_no_concurrent_profile_update(url: str, pool: Executor) -> None:
    with Service(open_store(url), _workers.SETTINGS) as service:
        service.accounts.create_user("carol", "carol-password")
        api_key = service.accounts.create_app("reader").api_key
        carol = service.accounts.as_user("carol")
        lost = []
        running = [
            pool.submit(_workers.authenticate_for, url, api_key, 3.0) for _ in range(WORKERS)
        ]
        time.sleep(0.5)  # the authentications are under way
        for n in range(20):
            service.accounts.update("carol", {"bio": f"bio {n}"}, viewer=carol)
            time.sleep(0.05)  # authentications that read the profile before now finish
            if service.accounts.get("carol").bio != f"bio {n}":
                lost.append(n)
        authentications = sum(future.result(timeout=120) for future in running)
        stored = service.store.users.get_by_username("carol")
    assert authentications > 0
    assert lost == []
    assert stored is not None
    assert (stored.bio, stored.last_seen is not None) == ("bio 19", True)
