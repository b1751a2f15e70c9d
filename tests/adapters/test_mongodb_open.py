"""Opening MongoDB stores: URLs, unreachable servers, indexes, the in-memory server, extras.

The contract suite runs on MongoDB through the shared ``store`` fixture; this file covers what
happens before a store exists, and the README's storage examples on ``mongomock://``.
"""

from __future__ import annotations

import os
import time
import traceback
import uuid
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

import pytest

from storycore.adapters import open_store
from storycore.adapters.mongodb import _client
from storycore.adapters.mongodb._mock import mock_database
from storycore.adapters.mongodb._schema import INDEXES
from storycore.contrib.cli import main
from storycore.errors import ConfigurationError
from tests._missing_driver import opening_without
from tests.contract._factories import add_story, add_user

pytestmark = pytest.mark.mongodb

ROOT = Path(__file__).resolve().parents[2]
SECRET = "s3cret-Pa55word"
SERVER = os.environ.get("STORYCORE_TEST_MONGODB_URI", "")


def _fresh_name() -> str:
    return f"storycore_open_{uuid.uuid4().hex[:16]}"


def _everything_said(exc: BaseException) -> str:
    """Every line a traceback of ``exc`` would print, its causes included."""
    return "".join(traceback.format_exception(exc))


# -- malformed URLs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "mongodb://",
        "mongodb://localhost:notaport/db",
        "mongodb://localhost:99999/db",
        "mongodb://localhost/db?noSuchOption=1",
        "mongodb://localhost/bad name",
        "mongodb://localhost",
        "mongodb://localhost:27017/",
        "mongodb://localhost/db.collection",
        "mongomock://",
        "mongomock://bad.name",
        "mongomock://a/b",
        "mongomock://" + "x" * 64,
    ],
)
def test_a_malformed_url_fails_at_open_with_a_configuration_error(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def asking(url: str, **options: Any) -> NoReturn:
        asked.append(url)
        raise AssertionError("a server was asked")

    monkeypatch.setattr(_client, "MongoClient", asking)
    with pytest.raises(ConfigurationError):
        open_store(url)
    assert asked == []  # refused before any server is asked


def test_a_url_without_a_database_says_how_to_name_one() -> None:
    with pytest.raises(ConfigurationError, match="must name a database"):
        open_store("mongodb://localhost:27017")


@pytest.mark.parametrize(
    "url",
    [
        f"mongodb://alice:{SECRET}@localhost:notaport/db",
        f"mongodb://alice:{SECRET}@localhost/db?noSuchOption=1",
        f"mongodb://alice:{SECRET}@/db",
    ],
)
def test_a_malformed_url_never_shows_its_password(url: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        open_store(url)
    assert SECRET not in _everything_said(caught.value)


# -- unreachable servers -------------------------------------------------------------------


def test_an_unreachable_server_fails_fast_at_open() -> None:
    started = time.monotonic()
    with pytest.raises(
        ConfigurationError,
        match=r"cannot open MongoDB at 127\.0\.0\.1:1/db: ServerSelectionTimeoutError",
    ):
        open_store(f"mongodb://alice:{SECRET}@127.0.0.1:1/db")
    # the server-selection timeout is 5 s (pymongo's own, 30 s): a ceiling a busy machine keeps
    assert time.monotonic() - started < 25


def test_an_unreachable_server_never_shows_the_password(capsys: pytest.CaptureFixture[str]) -> None:
    url = f"mongodb://alice:{SECRET}@127.0.0.1:1/db?serverSelectionTimeoutMS=200"
    with pytest.raises(ConfigurationError) as caught:
        open_store(url)
    assert SECRET not in _everything_said(caught.value)
    assert main(["--db", url, "demo"]) == 1
    printed = capsys.readouterr()
    assert "cannot open MongoDB at 127.0.0.1:1/db" in printed.err
    assert SECRET not in printed.out + printed.err


# -- indexes -------------------------------------------------------------------------------


def _indexes(name: str) -> dict[str, MutableMapping[str, Any]]:
    database = mock_database(name)
    return {collection: database[collection].index_information() for collection in INDEXES}


def test_opening_creates_every_index() -> None:
    name = _fresh_name()
    open_store(f"mongomock://{name}").close()
    made = _indexes(name)
    for collection, indexes in INDEXES.items():
        assert {index.document["name"] for index in indexes} <= set(made[collection])
    assert made["stories"]["author_slug"]["unique"] is True
    assert made["users"]["username_key"]["unique"] is True


def test_opening_again_leaves_the_indexes_and_the_data_as_they_are() -> None:
    name = _fresh_name()
    first = open_store(f"mongomock://{name}")
    author = add_user(first, "alice")
    story = add_story(first, author.id, "tale")
    first.close()
    before = _indexes(name)
    again = open_store(f"mongomock://{name}")
    assert _indexes(name) == before
    assert again.stories.get(story.id) == story


@pytest.mark.skipif(not SERVER, reason="set STORYCORE_TEST_MONGODB_URI to run on a real MongoDB")
def test_opening_a_server_database_twice_leaves_its_indexes_as_they_are() -> None:
    import pymongo

    name = _fresh_name()
    url = urlunsplit(urlsplit(SERVER)._replace(path=f"/{name}"))
    client: pymongo.MongoClient[dict[str, Any]] = pymongo.MongoClient(
        url, serverSelectionTimeoutMS=5000
    )
    with client:
        try:
            open_store(url).close()
            first = {c: client[name][c].index_information() for c in INDEXES}
            open_store(url).close()
            assert {c: client[name][c].index_information() for c in INDEXES} == first
            for collection, indexes in INDEXES.items():
                assert {index.document["name"] for index in indexes} <= set(first[collection])
        finally:
            client.drop_database(name)


def test_an_index_of_another_shape_fails_at_open_with_a_configuration_error() -> None:
    name = _fresh_name()
    mock_database(name)["stories"].create_index([("slug", 1)], name="author_slug")
    with pytest.raises(ConfigurationError, match="cannot create storycore's indexes"):
        open_store(f"mongomock://{name}")


# -- the in-memory server ------------------------------------------------------------------


def test_a_mongomock_store_reopened_by_name_finds_its_data() -> None:
    name = _fresh_name()
    store = open_store(f"mongomock://{name}")
    user = add_user(store, "alice")
    store.close()
    assert open_store(f"mongomock://{name}").users.get(user.id) == user


def test_mongomock_stores_of_other_names_are_apart() -> None:
    store = open_store(f"mongomock://{_fresh_name()}")
    add_user(store, "alice")
    assert open_store(f"mongomock://{_fresh_name()}").users.find(0, 10) == []


# -- the README's storage examples on mongomock:// -----------------------------------------


def test_the_readme_quickstart_runs_on_mongomock(capsys: pytest.CaptureFixture[str]) -> None:
    source = (ROOT / "examples" / "quickstart.py").read_text()
    sqlite_url = 'f"sqlite:///{database}"'
    assert source.count(sqlite_url) == 2
    source = source.replace(sqlite_url, repr(f"mongomock://{_fresh_name()}"))
    exec(compile(source, "quickstart.py", "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out.splitlines() == [
        "a-walk-by-the-harbour working",
        "['A walk by the harbour']",
        "['a-walk-by-the-harbour']",
        "published ['quote', 'image']",
    ]


def test_the_command_line_loads_and_exports_on_mongomock(tmp_path: Path) -> None:
    url = f"mongomock://{_fresh_name()}"
    exported = tmp_path / "export.jsonl"
    assert main(["--db", url, "demo"]) == 0
    assert main(["--db", url, "export", str(exported)]) == 0
    copy = f"mongomock://{_fresh_name()}"
    assert main(["--db", copy, "import", str(exported)]) == 0
    again = tmp_path / "again.jsonl"
    assert main(["--db", copy, "export", str(again)]) == 0
    assert again.read_bytes() == exported.read_bytes()


# -- missing extras ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("blocked", "url", "hint"),
    [
        ({"pymongo", "bson", "gridfs"}, "mongodb://localhost:27017/db", "storycore[mongodb]"),
        ({"pymongo", "bson", "gridfs"}, "mongomock://db", "storycore[mongodb]"),
        ({"mongomock"}, "mongomock://db", "storycore[mongomock]"),
    ],
)
def test_a_missing_driver_names_the_extra_to_install(
    blocked: set[str], url: str, hint: str
) -> None:
    said = opening_without(blocked, url)
    assert said.startswith("MissingDependencyError")
    assert f"pip install '{hint}'" in said
