"""Fixtures shared by every test.

``store`` is the one storage fixture: it is parametrized over every adapter, each param naming
the fixture that opens that adapter, so every test that asks for ``store`` (or ``service``) runs
once per backend, unchanged. Tests never branch on the backend.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest

from storycore import Service, Settings, Viewer
from storycore.adapters import open_store
from storycore.ports import Store

# scrypt at a low cost keeps the suite fast; the hash format and checks are the same.
TEST_SETTINGS = Settings(password_cost=2**4)

# Every storage the suite runs on: (id, URL template, mark). ``{dir}`` is a fresh temporary
# directory and ``{name}`` a fresh database name, so each store opened from a template is a
# new, empty one. A real MongoDB joins when STORYCORE_TEST_MONGODB_URI names a server
# (``mongodb://host:port``, no database: the suite makes one per store and drops it after).
_MONGODB_URI = os.environ.get("STORYCORE_TEST_MONGODB_URI", "")
_NO_MONGODB = "set STORYCORE_TEST_MONGODB_URI=mongodb://host:port to run on a real MongoDB"


def _with_database_name(uri: str) -> str:
    """``uri`` with the template field ``{name}`` as its database."""
    parts = urlsplit(uri)
    return urlunsplit(parts._replace(path="/{name}"))


STORES = [
    pytest.param("sqlite:///{dir}/stories.db", marks=pytest.mark.sqlite, id="sqlite-file"),
    pytest.param("sqlite://", marks=pytest.mark.sqlite, id="sqlite-memory"),
    pytest.param("mongomock://{name}", marks=pytest.mark.mongodb, id="mongomock"),
    pytest.param(
        _with_database_name(_MONGODB_URI) if _MONGODB_URI else "",
        marks=[pytest.mark.mongodb, pytest.mark.skipif(not _MONGODB_URI, reason=_NO_MONGODB)],
        id="mongodb",
    ),
]

StoreFactory = Callable[[], Store]


@pytest.fixture(params=STORES)
def store_factory(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[StoreFactory]:
    """Opens fresh, empty stores of each adapter in turn; closes them all after the test."""
    template: str = request.param
    opened: list[Store] = []
    urls: list[str] = []

    def open_fresh() -> Store:
        directory = tmp_path_factory.mktemp("store")
        url = template.format(dir=directory, name=f"storycore_test_{uuid.uuid4().hex[:16]}")
        store = open_store(url)
        opened.append(store)
        urls.append(url)
        return store

    yield open_fresh
    for store in opened:
        store.close()
    for url in urls:
        _drop_server_database(url)


def _drop_server_database(url: str) -> None:
    """Drop a database the suite made on a real MongoDB (other stores go by themselves)."""
    if url.startswith("mongodb://"):
        import pymongo

        with pymongo.MongoClient(url, serverSelectionTimeoutMS=5000) as client:
            client.drop_database(client.get_default_database())


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
