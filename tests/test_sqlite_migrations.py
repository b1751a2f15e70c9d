"""The SQLite schema moves forward from every earlier version, keeping the data."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from storycore import Service
from storycore.adapters import open_store
from storycore.adapters._sqlite_schema import MIGRATIONS
from tests.conftest import TEST_SETTINGS


def _database_at(path: Path, version: int) -> None:
    """A database whose schema stops at ``version``, made as that version made it."""
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    for number, script in enumerate(MIGRATIONS[:version], start=1):
        connection.executescript(script)
        connection.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
    connection.commit()
    connection.close()


def test_opening_an_older_database_migrates_it_and_search_still_finds_its_stories(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    _database_at(path, 1)
    with Service(open_store(f"sqlite:///{path}"), TEST_SETTINGS) as service:
        service.accounts.create_user("alice", name="Alice Old")
        alice = service.accounts.as_user("alice")
        service.stories.create("alice", {"title": "Harbour tales"}, viewer=alice, publish=True)
    _rewind(path, to=2)
    with Service(open_store(f"sqlite:///{path}"), TEST_SETTINGS) as service:
        assert [s.title for s in service.catalog.search("harbour old").items] == ["Harbour tales"]
    version = sqlite3.connect(path).execute("SELECT MAX(version) FROM schema_version").fetchone()
    assert version == (len(MIGRATIONS),)


def _rewind(path: Path, to: int) -> None:
    """Make the database look as if the migrations after ``to`` never ran, the data kept."""
    connection = sqlite3.connect(path)
    connection.execute("DELETE FROM schema_version WHERE version > ?", (to,))
    connection.commit()
    connection.close()


def test_migrating_twice_changes_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'twice.db'}"
    open_store(url).close()
    open_store(url).close()
    rows = sqlite3.connect(tmp_path / "twice.db").execute("SELECT version FROM schema_version")
    assert [row[0] for row in rows] == list(range(1, len(MIGRATIONS) + 1))
