"""Fixtures shared by every test.

The storage fixtures are the testing kit's (``storycore.testing.plugin``, loaded through its
entry point): every test that asks for ``store_factory``, ``store`` or ``service`` runs once per
URL of the ``storycore_store_urls`` ini value in ``pyproject.toml`` (a SQLite file, SQLite in
memory, MongoDB through mongomock, the reference store ``memory://``), unchanged, with the marker
of its backend (``-m sqlite``, ``-m mongodb``, ``-m memory``). Tests never branch on the
backend. A real MongoDB joins when STORYCORE_TEST_MONGODB_URI names a server
(``mongodb://host:port``, no database: the kit makes one per store and drops it after).
PostgreSQL joins always (``-m postgresql``): each store in a fresh schema of the session's own
throwaway cluster, or of the server STORYCORE_TEST_POSTGRESQL_URI names (``tests/_postgresql``);
its runs are skipped, saying why, where there is neither.
"""

from __future__ import annotations

import os
import subprocess
from urllib.parse import urlsplit, urlunsplit

import pytest

from storycore import Service, Settings, Viewer
from tests import _postgresql

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


def pytest_configure(config: pytest.Config) -> None:
    if _MONGODB_URI:
        parts = urlsplit(_MONGODB_URI)
        config.addinivalue_line("storycore_store_urls", urlunsplit(parts._replace(path="/{name}")))
    config.addinivalue_line("storycore_store_urls", _postgresql.store_url())


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each run of a storage test with its backend, before ``-m`` selects."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        url = callspec.params.get("storycore_store_url") if callspec else None
        if url:
            item.add_marker(_BACKEND_MARKS[url.split(":", 1)[0]])
        if item.get_closest_marker("postgresql") and (reason := _postgresql.unavailable()):
            item.add_marker(pytest.mark.skip(reason=reason))


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
