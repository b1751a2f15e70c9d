"""A MongoDB server that stops answering after the store was opened (docs/decisions.md#serving).

A call that finds no server within the server-selection timeout raises ``Unavailable`` (over
HTTP: 503 with ``Retry-After: 1``), never pymongo's own error (a 500). The collections here are
real pymongo ones, on a port of 127.0.0.1 where nothing listens, wrapped as the adapter wraps
the collections of a server.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
from pymongo import MongoClient

from storycore.adapters.mongodb._accounts import MongoUsers
from storycore.adapters.mongodb._client import collections_of
from storycore.adapters.mongodb._documents import Document
from storycore.adapters.mongodb._kept import MongoKeptFiles, MongoKeptSources
from storycore.adapters.mongodb._schema import Collections
from storycore.adapters.mongodb._stories import MongoStories
from storycore.errors import Unavailable
from storycore.model.kept import KeptFile
from storycore.model.queries import StoryQuery
from tests.contract._factories import make_user

pytestmark = pytest.mark.mongodb

SELECTION_MS = 300
#: Seconds: a call gives up after the selection timeout (0.3 s), far within this, which a busy
#: machine keeps too; pymongo's own timeout (30 s) would not.
BOUNDED = 20.0


def _closed_port() -> int:
    """A port of 127.0.0.1 where nothing listens."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture
def collections() -> Iterator[Collections]:
    client: MongoClient[Document] = MongoClient(
        f"mongodb://127.0.0.1:{_closed_port()}/",
        serverSelectionTimeoutMS=SELECTION_MS,
        connect=False,
    )
    database = client["storycore_unreachable"]
    yield collections_of(database)
    client.close()


def test_a_read_of_one_document_raises_unavailable(collections: Collections) -> None:
    started = time.monotonic()
    with pytest.raises(Unavailable):
        MongoStories(collections).get("some-story")
    assert time.monotonic() - started < BOUNDED


def test_a_read_through_a_cursor_raises_unavailable(collections: Collections) -> None:
    with pytest.raises(Unavailable):
        MongoStories(collections).find(StoryQuery(offset=0, limit=10, author_id="someone"))


def test_an_aggregation_raises_unavailable(collections: Collections) -> None:
    with pytest.raises(Unavailable):
        MongoStories(collections).author_stats(["someone"])


def test_a_write_raises_unavailable(collections: Collections) -> None:
    with pytest.raises(Unavailable):
        MongoUsers(collections).add(make_user("alice"))


def test_putting_a_kept_file_raises_unavailable(collections: Collections) -> None:
    with pytest.raises(Unavailable):
        MongoKeptFiles(collections).put(KeptFile("0" * 64, "image/png", 1, 1, 3, "now"), b"png")


def test_reading_a_kept_file_through_gridfs_raises_unavailable(collections: Collections) -> None:
    with pytest.raises(Unavailable):
        MongoKeptFiles(collections).get("0" * 64)


def test_claiming_kept_sources_raises_unavailable(collections: Collections) -> None:
    with pytest.raises(Unavailable):
        MongoKeptSources(collections).claim("now", "later", "keeper", 10)
