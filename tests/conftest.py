"""Fixtures shared by every test.

The storage fixtures are the testing kit's (``storycore.testing.plugin``, loaded through its
entry point). Behaviour tests run on the fastest store, the reference store ``memory://``: what
a service does is the same on every store, and each backend keeping its part is the contract
suite's to show. The tests of storage run on every backend: those of ``tests/contract``,
``tests/reliability`` and ``tests/adapters``, and any other test marked ``every_backend``; each
runs once per URL of the ``storycore_store_urls`` ini value in ``pyproject.toml`` (a SQLite
file, SQLite in memory, MongoDB through mongomock, ``memory://``), unchanged, with the marker
of its backend (``-m sqlite``, ``-m mongodb``, ``-m memory``). A test's own
``storycore_store_urls`` marker wins over both. Tests never branch on the backend. A real
MongoDB joins when STORYCORE_TEST_MONGODB_URI names a server (``mongodb://host:port``, no
database: the kit makes one per store and drops it after). PostgreSQL joins always
(``-m postgresql``): each store in a fresh schema of the session's own throwaway cluster, or of
the server STORYCORE_TEST_POSTGRESQL_URI names (``tests/_postgresql``); its runs are skipped,
saying why, where there is neither.

Hypothesis's deadline is off for the whole suite (the ``storycore`` profile): it bounds each
example's wall-clock time, which a busy machine can exceed whatever the code (docs/testing.md).
"""

from __future__ import annotations

import os
import subprocess
from urllib.parse import urlsplit, urlunsplit

import pytest
from hypothesis import settings

from storycore import Service, Settings, Viewer
from tests import _postgresql

settings.register_profile("storycore", deadline=None)
settings.load_profile("storycore")

# scrypt at a low cost keeps the suite fast; the hash format and checks are the same.
TEST_SETTINGS = Settings(password_cost=2**4)

_MONGODB_URI = os.environ.get("STORYCORE_TEST_MONGODB_URI", "")
_BACKEND_MARKS = {
    "sqlite": pytest.mark.sqlite,
    "mongomock": pytest.mark.mongodb,
    "mongodb": pytest.mark.mongodb,
    "memory": pytest.mark.memory,
    "postgresql": pytest.mark.postgresql,
    "postgres": pytest.mark.postgresql,
}


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the cores (``--maxprocesses`` caps it). A part of the
    suite waits on server processes, sockets and timeouts, and the extra worker keeps the cores
    busy meanwhile: on 2 cores the suite took 241 s with 2 workers, 223 s with 3, 236 s with 4."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


#: Where behaviour tests run: the fastest store.
FASTEST_STORE = "memory://"
#: The suites of storage, whose tests run on every backend (as do tests marked ``every_backend``).
_EVERY_BACKEND_SUITES = ("tests.contract.", "tests.reliability.", "tests.adapters.")


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A behaviour test runs on ``FASTEST_STORE`` alone: it gets the kit's
    ``storycore_store_urls`` marker naming it, unless it is a test of storage or names its own
    storage (run before the kit's hook, which reads that marker)."""
    test = metafunc.definition
    storage = metafunc.module.__name__.startswith(_EVERY_BACKEND_SUITES)
    if storage or test.get_closest_marker("every_backend"):
        return
    if test.get_closest_marker("storycore_store_urls") is None:
        test.add_marker(pytest.mark.storycore_store_urls(FASTEST_STORE))


def pytest_configure(config: pytest.Config) -> None:
    if _MONGODB_URI:
        parts = urlsplit(_MONGODB_URI)
        config.addinivalue_line("storycore_store_urls", urlunsplit(parts._replace(path="/{name}")))
    config.addinivalue_line("storycore_store_urls", _postgresql.store_url())


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each run of a storage test with its backend, before ``-m`` selects; then put the
    tests marked ``long`` first (``_long_first``)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        url = callspec.params.get("storycore_store_url") if callspec else None
        if url:
            item.add_marker(_BACKEND_MARKS[url.split(":", 1)[0]])
        if item.get_closest_marker("postgresql") and (reason := _postgresql.unavailable()):
            item.add_marker(pytest.mark.skip(reason=reason))
    _long_first(items)


def _long_first(items: list[pytest.Item]) -> None:
    """The tests marked ``long`` first, each part in its own order: pytest-xdist hands tests out
    in this order (``--no-loadscope-reorder`` in ``pyproject.toml``), so the long ones start
    while the many short ones fill the other workers, rather than trail at the end of a run
    with every other worker idle."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the session's PostgreSQL cluster when a selected test runs on it."""
    cluster = _postgresql.cluster()
    selected = any(item.get_closest_marker("postgresql") for item in session.items)
    if cluster and selected and not session.config.option.collectonly:
        try:
            cluster.start()
        except (OSError, RuntimeError, subprocess.SubprocessError) as exc:
            pytest.exit(f"cannot start the test PostgreSQL cluster: {exc}", returncode=3)


def pytest_unconfigure() -> None:
    if cluster := _postgresql.cluster():
        cluster.remove()


@pytest.fixture
def storycore_settings() -> Settings:
    """The settings of the kit's ``service``: ``TEST_SETTINGS``."""
    return TEST_SETTINGS


@pytest.fixture
def alice(service: Service) -> Viewer:
    """A plain user (free plan), acting through no application."""
    service.accounts.create_user("alice", "alice-password", name="Alice Liddell")
    return service.accounts.as_user("alice")


@pytest.fixture
def bob(service: Service) -> Viewer:
    """Another plain user."""
    service.accounts.create_user("bob", "bob-password", name="Bob Builder")
    return service.accounts.as_user("bob")


@pytest.fixture
def editor(service: Service) -> Viewer:
    """An editor: may act on every story, may not feature."""
    service.accounts.create_user("ed", "ed-password", name="Ed Itor", editor=True)
    return service.accounts.as_user("ed")


@pytest.fixture
def curator(service: Service) -> Viewer:
    """A user allowed to feature stories (not an editor)."""
    service.accounts.create_user("cora", "cora-password", name="Cora", can_feature=True)
    return service.accounts.as_user("cora")
