"""A SQLite file whose write lock another process holds (docs/decisions.md#serving).

Reads never wait for the write lock. A write that cannot get the store within its busy timeout
raises ``Unavailable`` (over HTTP: 503 ``unavailable`` with ``Retry-After: 1``), changes
nothing, and goes through once the lock is free again.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from storycore import Service, Unavailable, Viewer
from storycore.adapters import open_store
from storycore.adapters.sqlite import SQLiteStore
from storycore.adapters.sqlite import _connection as _sqlite_connection
from storycore.adapters.sqlite._accounts import SQLiteUsers
from storycore.adapters.sqlite._connection import BUSY_TIMEOUT_SECONDS
from storycore.contrib.asgi import StorycoreASGI
from storycore.model.records import UserRecord
from storycore.testing.client import asgi_client
from tests.contract._factories import make_user
from tests.reliability import _workers

pytestmark = pytest.mark.sqlite

WAITING = 0.3  # how long a write is given to start waiting for the lock
# the busy timeout of the stores the tests open, so they wait less
QUICK = 1.2
#: The busy timeout of a write that must still be waiting when a read has been answered, on
#: however busy a machine: the test then lets the lock go, and the write goes through.
PATIENT = 60.0
A_FEW_SECONDS = (
    10.0  # a write's wait before it gives up: long enough to queue, short for a web request
)

# Holds SQLite's write lock on the file named by argv[1] until its stdin closes.
_HOLD = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
connection.execute("ROLLBACK")
"""


class LockHolder:
    """Another process holding the write lock of a SQLite file, until ``release``."""

    def __init__(self, path: Path) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-c", _HOLD, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._process.stdout is not None
        assert self._process.stdout.readline() == "locked\n"

    def release(self) -> None:
        if self._process.returncode is None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            assert self._process.stdout is not None
            self._process.stdout.close()


@dataclass
class World:
    path: Path
    service: Service
    alice: Viewer
    credentials: dict[str, str]

    def description(self) -> tuple[int, str]:
        """The target story's version and description, as stored."""
        story = self.service.stories.open("alice", "target", viewer=self.alice, count_view=False)
        return story.version, story.detail.description


@pytest.fixture
def busy_timeout(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> float:
    """The busy timeout of the stores a test opens: ``QUICK``, unless the test asks for another."""
    seconds: float = getattr(request, "param", QUICK)
    monkeypatch.setattr(_sqlite_connection, "BUSY_TIMEOUT_SECONDS", seconds)
    return seconds


@pytest.fixture
def world(tmp_path: Path, busy_timeout: float) -> Iterator[World]:
    path = tmp_path / "locked.db"
    with Service(open_store(f"sqlite:///{path}"), _workers.SETTINGS) as service:
        service.accounts.create_user("alice", "alice-password")
        alice = service.accounts.as_user("alice")
        service.stories.create(
            "alice",
            {"title": "Target", "slug": "target", "description": "as it was"},
            viewer=alice,
            publish=True,
        )
        api_key = service.accounts.create_app("tests").api_key
        token = service.accounts.authenticate(api_key, "alice", "alice-password").token
        credentials = {"api_key": api_key, "username": "alice", "_token": token}
        yield World(path, service, alice, credentials)


@pytest.fixture
def held(world: World) -> Iterator[LockHolder]:
    """The world's file, its write lock held by another process."""
    holder = LockHolder(world.path)
    yield holder
    holder.release()


def _save(world: World, description: str) -> None:
    world.service.stories.save("alice", "target", {"description": description}, viewer=world.alice)


def test_a_write_that_cannot_get_the_lock_raises_unavailable_within_a_few_seconds(
    world: World, held: LockHolder
) -> None:
    # the wait is the stores' busy timeout, a few seconds; measured here on a shorter one
    assert BUSY_TIMEOUT_SECONDS <= A_FEW_SECONDS
    with pytest.raises(Unavailable):  # raised while the lock is still held: it gave up
        _save(world, "changed")
    held.release()
    assert world.description() == (1, "as it was")


def test_the_same_write_goes_through_once_the_lock_is_free(world: World, held: LockHolder) -> None:
    with pytest.raises(Unavailable):
        _save(world, "changed")
    held.release()
    _save(world, "changed")
    assert world.description() == (2, "changed")


def test_a_write_over_http_answers_503_unavailable_with_retry_after(
    world: World, held: LockHolder
) -> None:
    with asgi_client(StorycoreASGI(world.service)) as client:
        answer = client.post(
            "/v1/stories/alice/target/save",
            json={**world.credentials, "story": {"description": "changed"}},
        )
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "1"
    assert answer.json()["error"]["type"] == "unavailable"
    assert "Traceback" not in answer.text
    held.release()
    assert world.description() == (1, "as it was")


@pytest.mark.parametrize("busy_timeout", [PATIENT], indirect=True)
def test_a_read_answers_promptly_while_a_write_waits_for_the_lock(
    world: World, held: LockHolder
) -> None:
    with ThreadPoolExecutor(1) as pool:
        writing: Future[None] = pool.submit(_save, world, "changed")
        time.sleep(WAITING)
        latest = world.service.catalog.latest()
        version, description = world.description()
        assert not writing.done()  # answered while the write was still waiting
        held.release()
        writing.result(timeout=PATIENT)
    assert [story.slug for story in latest.items] == ["target"]
    assert (version, description) == (1, "as it was")


@pytest.mark.parametrize("busy_timeout", [PATIENT], indirect=True)
def test_a_read_over_http_answers_promptly_while_a_write_over_http_waits_for_the_lock(
    world: World, held: LockHolder
) -> None:
    app = StorycoreASGI(world.service)

    async def exchange() -> tuple[httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            writing = asyncio.ensure_future(
                client.post(
                    "/v1/stories/alice/target/save",
                    json={**world.credentials, "story": {"description": "changed"}},
                )
            )
            await asyncio.sleep(WAITING)
            read = await client.get("/v1/stories/browse/latest")
            assert not writing.done()  # answered while the write was still waiting
            held.release()
            return read, await writing

    read, written = asyncio.run(exchange())
    assert read.status_code == 200
    assert [story["slug"] for story in read.json()["content"]["stories"]] == ["target"]
    assert written.status_code == 200  # once the lock was let go


def test_a_read_inside_a_write_transaction_sees_that_transaction_s_writes(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "own.db"))
    user = make_user("alice")
    seen_elsewhere: list[UserRecord | None] = []
    try:
        with store.connection.write() as conn:
            conn.execute(*SQLiteUsers(store.connection)._insert(user))
            seen_inside = store.users.get(user.id)
            other = threading.Thread(target=lambda: seen_elsewhere.append(store.users.get(user.id)))
            other.start()
            other.join(timeout=10)
        assert seen_inside == user
        assert seen_elsewhere == [None]  # another thread reads what is committed, at once
        assert store.users.get(user.id) == user
    finally:
        store.close()


def test_a_counted_story_read_answers_promptly_and_its_view_is_written_later(
    world: World, held: LockHolder
) -> None:
    read = world.service.stories.read("alice", "target")  # anonymous: a view to count
    with pytest.raises(Unavailable):
        world.service.flush_views()  # the lock is still held: the view waits
    held.release()
    world.service.flush_views()
    assert read.title == "Target"
    assert world.service.catalog.search("target").items[0].stats.views == 1
