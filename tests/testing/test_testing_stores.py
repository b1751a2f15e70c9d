"""``storycore.testing.stores``: each ``with`` gives a new, empty store (or a service on one) on a
storage URL, and takes away on exit what it made for it; a URL naming one lasting store is
refused. (PostgreSQL: ``test_postgresql_store``; under pytest and hypothesis, through the
plugin's ``fresh_service``: ``test_testing_plugin``.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from storycore import Settings
from storycore.adapters.mongodb._mock import mock_database
from storycore.adapters.sqlite import SQLiteStore
from storycore.errors import ConfigurationError
from storycore.testing.stores import fresh_service, fresh_store

FRESH_URLS = ["sqlite://", "sqlite:///{dir}/stories.db", "mongomock://{name}", "memory://"]


@pytest.mark.parametrize("url", FRESH_URLS)
def test_each_with_gives_a_new_empty_service(url: str) -> None:
    for _ in range(3):
        with fresh_service(url) as service:
            assert service.store.users.get_by_username("alice") is None
            service.accounts.create_user("alice", "alice-password")
            alice = service.accounts.as_user("alice")
            service.stories.create("alice", {"title": "Fog", "slug": "fog"}, viewer=alice)


def test_a_sqlite_file_goes_with_its_directory_on_exit() -> None:
    with fresh_store("sqlite:///{dir}/stories.db") as store:
        assert isinstance(store, SQLiteStore)
        assert store.path is not None
        file = Path(store.path)
        assert file.exists()
    assert not file.parent.exists()


def test_a_mongomock_database_named_for_a_store_is_dropped_on_exit() -> None:
    with fresh_service("mongomock://{name}") as service:
        service.accounts.create_user("alice", "alice-password")
        name = service.store._collections.users.database.name  # type: ignore[attr-defined]
        assert mock_database(name).list_collection_names()
    assert mock_database(name).list_collection_names() == []


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///stories.db",
        "mongomock://stories",
        "mongodb://localhost/stories",
        "postgresql://localhost/stories",
    ],
)
def test_a_url_naming_one_lasting_store_is_refused(url: str) -> None:
    with pytest.raises(ConfigurationError, match=r"\{dir\}.*\{name\}"):
        fresh_store(url)
    with pytest.raises(ConfigurationError, match="names one lasting store"):
        fresh_service(url)


def test_a_service_runs_on_the_kits_settings_unless_given_others() -> None:
    with fresh_service("memory://") as service:
        assert service.settings == Settings(password_cost=2**4)
    own = Settings(password_cost=2**5, web_url="https://stories.example")
    with fresh_service("memory://", own) as service:
        assert service.settings is own


def test_the_plugins_sqlite_files_are_copies_of_one_made_once_and_go_at_the_end() -> None:
    from storycore.testing._fresh import FreshStores

    fresh = FreshStores()
    paths = []
    for _ in range(2):
        with fresh.service("sqlite:///{dir}/stories.db") as service:
            assert isinstance(service.store, SQLiteStore)
            assert service.store.users.get_by_username("alice") is None
            service.accounts.create_user("alice", "alice-password")
            paths.append(Path(str(service.store.path)))
    assert paths[0] != paths[1]
    assert not any(path.parent.exists() for path in paths)
    (original,) = fresh._originals.values()
    assert original.exists()
    fresh.close()
    assert not original.exists()
