"""Fixtures shared by every test.

``store`` is the one storage fixture: it is parametrized over every adapter, each param naming
the fixture that opens that adapter, so every test that asks for ``store`` (or ``service``) runs
once per backend, unchanged. Tests never branch on the backend.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from storycore import Service, Settings, Viewer
from storycore.adapters import open_store
from storycore.ports import Store

# scrypt at a low cost keeps the suite fast; the hash format and checks are the same.
TEST_SETTINGS = Settings(password_cost=2**4)

STORE_FIXTURES = [
    pytest.param("sqlite_file_store", marks=pytest.mark.sqlite, id="sqlite-file"),
    pytest.param("sqlite_memory_store", marks=pytest.mark.sqlite, id="sqlite-memory"),
]


@pytest.fixture
def sqlite_file_store(tmp_path: Path) -> Iterator[Store]:
    store = open_store(f"sqlite:///{tmp_path / 'stories.db'}")
    yield store
    store.close()


@pytest.fixture
def sqlite_memory_store() -> Iterator[Store]:
    store = open_store("sqlite://")
    yield store
    store.close()


@pytest.fixture(params=STORE_FIXTURES)
def store(request: pytest.FixtureRequest) -> Store:
    """A fresh, empty store of each adapter in turn."""
    return request.getfixturevalue(request.param)  # type: ignore[no-any-return]


@pytest.fixture
def service(store: Store) -> Service:
    """A service over a fresh store."""
    return Service(store, TEST_SETTINGS)


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
