"""Fixtures shared by every test.

``store`` is the one storage fixture: it is parametrized over every adapter, each param naming
the fixture that opens that adapter, so every test that asks for ``store`` (or ``service``) runs
once per backend, unchanged. Tests never branch on the backend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from storycore import Service, Settings, Viewer
from storycore.adapters import open_store
from storycore.ports import Store

# scrypt at a low cost keeps the suite fast; the hash format and checks are the same.
TEST_SETTINGS = Settings(password_cost=2**4)

# Every storage the suite runs on: (id, URL template, mark). ``{dir}`` is a fresh temporary
# directory, so each store opened from a template is a new, empty one.
STORES = [
    pytest.param("sqlite:///{dir}/stories.db", marks=pytest.mark.sqlite, id="sqlite-file"),
    pytest.param("sqlite://", marks=pytest.mark.sqlite, id="sqlite-memory"),
]

StoreFactory = Callable[[], Store]


@pytest.fixture(params=STORES)
def store_factory(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[StoreFactory]:
    """Opens fresh, empty stores of each adapter in turn; closes them all after the test."""
    template: str = request.param
    opened: list[Store] = []

    def open_fresh() -> Store:
        directory = tmp_path_factory.mktemp("store")
        store = open_store(template.format(dir=directory))
        opened.append(store)
        return store

    yield open_fresh
    for store in opened:
        store.close()


@pytest.fixture
def store(store_factory: StoreFactory) -> Store:
    """A fresh, empty store of each adapter in turn."""
    return store_factory()


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
