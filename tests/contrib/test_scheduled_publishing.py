"""Scheduled stories published by real ``storycore serve`` processes
(docs/api.md#scheduled-publishing).

Every ``serve`` process publishes the stories whose ``publish_at`` has come, never before it,
and many processes on one store publish each story exactly once: one version more, one
revision (the story as it was, working) and ``date.published`` the moment it was published. A
process killed mid-way leaves no story half published and none forgotten: another process, or
``storycore publish-due`` run after, publishes the rest. How soon after ``publish_at`` (within
2 seconds, docs/api.md#scheduled-publishing) is printed, not asserted: a busy machine makes
any bound on real time miss.

Each server is a real ``storycore --db URL serve --port 0 --workers 1`` (one process, reading
the real time) on 127.0.0.1; the stories are made through a ``Service`` of the test's own on
the same store before the servers start, all to be published at one whole second a few seconds
ahead (the test's service writes them at a time of its own, an hour before: making them
never runs past the second a schedule needs), and the test watches the store until none is
left to publish. Each test prints how
long after ``publish_at`` its stories were published (``-s`` shows it).
"""

from __future__ import annotations

import math
import os
import re
import select
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.ports import Store
from storycore.rules.counts import counted
from storycore.rules.timestamps import format_timestamp
from storycore.testing import ManualClock
from tests import _postgresql
from tests._serve import stop
from tests.conftest import TEST_SETTINGS

# the tests start servers of their own and time them: one worker runs them one after another
pytestmark = pytest.mark.xdist_group("scheduled-publishing")

CLI = [sys.executable, "-m", "storycore.contrib.cli"]
STORIES = 200
#: ``publish_at`` is the first whole second at least this long after the stories are being
#: made: about when the servers, started after them, listen.
LEAD_SECONDS = 3.0
#: The test's service writes the stories this long before their ``publish_at``.
WRITTEN_BEFORE = timedelta(hours=1)
STARTUP_SECONDS = 30
STOP_SECONDS = 10
#: The ceiling of the wait for the last story, after ``publish_at`` (or now, if later): each
#: wait ends as soon as no story is left.
FINISH_SECONDS = 300.0
POLL_SECONDS = 0.02
#: Later than any ``publish_at``: what ``due`` is asked at to find every story still scheduled.
END_OF_TIME = "9999-12-31T23:59:59.999Z"
USERNAME = "writer"


def _environment() -> dict[str, str]:
    """This environment without any ``STORYCORE_*`` of the developer's."""
    return {k: v for k, v in os.environ.items() if not k.startswith("STORYCORE_")}


class Server:
    """One ``storycore --db URL serve --port 0 --workers 1`` process (the one that publishes),
    started at once; ``wait_listening`` waits until it serves, its scheduler started."""

    def __init__(self, url: str, errors: Path) -> None:
        self.errors = errors
        command = [*CLI, "--db", url, "serve", "--port", "0", "--workers", "1"]
        with errors.open("wb") as stderr:
            self.process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=stderr, env=_environment()
            )

    def wait_listening(self) -> None:
        """Return once the server has said ``listening on ...``."""
        assert self.process.stdout is not None
        out, printed = self.process.stdout.fileno(), b""
        deadline = time.monotonic() + STARTUP_SECONDS
        while b"\n" not in printed:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([out], [], [], left)[0]:
                raise AssertionError(f"serve did not say it listens: {self.errors.read_text()}")
            chunk = os.read(out, 4096)
            if not chunk:
                raise AssertionError(f"serve exited: {self.errors.read_text()}")
            printed += chunk
        assert printed.startswith(b"listening on http://127.0.0.1:"), printed

    def stop(self) -> None:
        """SIGTERM and wait (SIGKILL if it does not stop in time)."""
        stop(self.process, STOP_SECONDS)

    def complaints(self) -> list[str]:
        """What the server wrote of a failure: tracebacks, and the scheduler's errors."""
        said = self.errors.read_text()
        return [line for line in said.splitlines() if re.search(r"Traceback|ERROR|could not", line)]


@contextmanager
def serving(url: str, folder: Path, count: int) -> Iterator[list[Server]]:
    """``count`` servers on ``url``, started side by side; stopped after the block."""
    with ExitStack() as stack:
        servers = []
        for n in range(count):
            server = Server(url, folder / f"serve-{n}.err")
            stack.callback(server.stop)
            servers.append(server)
        for server in servers:
            server.wait_listening()
        yield servers


def prepare(url: str) -> None:
    """The store with its author, made before any server opens it."""
    with Service(open_store(url), TEST_SETTINGS) as service:
        service.accounts.create_user(USERNAME, "writer-password")


@dataclass(frozen=True)
class Scheduled:
    """Stories scheduled for one moment: their versions once scheduled, by id."""

    publish_at: datetime
    versions: dict[str, int]


def schedule(url: str, count: int, publish_at: datetime) -> Scheduled:
    """``count`` stories of ``USERNAME``, made through a service of this process on ``url``,
    each scheduled to be published at ``publish_at``, written ``WRITTEN_BEFORE`` it."""
    clock = ManualClock(start=publish_at - WRITTEN_BEFORE)
    with Service(open_store(url), TEST_SETTINGS, clock=clock) as service:
        writer = service.accounts.as_user(USERNAME)
        ids = [
            service.stories.create(
                USERNAME, {"title": f"Scheduled {n}"}, viewer=writer, publish_at=publish_at
            ).id
            for n in range(count)
        ]
        versions = {}
        for story_id in ids:
            stored = service.store.stories.get(story_id)
            assert stored is not None
            versions[story_id] = stored.version
    return Scheduled(publish_at, versions)


def whole_second_ahead(seconds: float) -> datetime:
    """The first whole second at least ``seconds`` from now."""
    moment = datetime.now(UTC) + timedelta(seconds=seconds)
    return datetime.fromtimestamp(math.ceil(moment.timestamp()), UTC)


def scheduled_left(store: Store) -> int:
    """How many stories are still waiting for their time (working, with ``publish_at``)."""
    return len(store.stories.due(END_OF_TIME, STORIES + 1))


def wait_until_none_left(url: str, scheduled: Scheduled) -> None:
    """Watch the store until no story is left to publish, or ``FINISH_SECONDS`` after their
    time (what is left then shows in the outcome)."""
    ends = max(time.time(), scheduled.publish_at.timestamp()) + FINISH_SECONDS
    store = open_store(url)
    try:
        while scheduled_left(store) and time.time() < ends:
            time.sleep(POLL_SECONDS)
    finally:
        store.close()


def published_once(url: str, scheduled: Scheduled, label: str) -> list[timedelta]:
    """Assert that every story of ``scheduled`` was published exactly once (published, its
    version one more, one revision: the story as it was, working); how long after
    ``publish_at`` each was published, printed as the max and median."""
    store = open_store(url)
    try:
        stories = {story_id: store.stories.get(story_id) for story_id in scheduled.versions}
        revisions = {
            story_id: [(h.version, h.status) for h in store.revisions.heads(story_id, 0, 10)]
            for story_id in scheduled.versions
        }
    finally:
        store.close()
    not_once = {
        story_id: None if story is None else (story.status, story.version, story.publish_at)
        for story_id, story in stories.items()
        if story is None
        or (story.status, story.version, story.publish_at)
        != ("published", scheduled.versions[story_id] + 1, None)
    }
    assert not_once == {}, f"{len(not_once)} stories not published exactly once"
    wrong_revisions = {
        story_id: found
        for story_id, found in revisions.items()
        if found != [(scheduled.versions[story_id], "working")]
    }
    assert wrong_revisions == {}, f"{len(wrong_revisions)} stories without one revision each"
    delays = sorted(
        datetime.fromisoformat(story.published) - scheduled.publish_at
        for story in stories.values()
        if story is not None and story.published is not None
    )
    assert len(delays) == len(scheduled.versions)
    print(
        f"\n{label}: {len(delays)} stories published {delays[0].total_seconds():.3f} s to"
        f" {delays[-1].total_seconds():.3f} s after publish_at, median"
        f" {statistics.median(delay.total_seconds() for delay in delays):.3f} s"
    )
    return delays


def assert_none_early(delays: list[timedelta]) -> None:
    """None published before its ``publish_at``."""
    early = [delay for delay in delays if delay < timedelta(0)]
    assert early == [], f"{len(early)} stories published before their time"


def assert_no_complaints(servers: list[Server]) -> None:
    said = [line for server in servers for line in server.complaints()]
    assert said == [], "\n".join(said)


def publish_due(url: str) -> subprocess.CompletedProcess[str]:
    """``storycore --db URL publish-due``, run to its end."""
    return subprocess.run(
        [*CLI, "--db", url, "publish-due"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=_environment(),
    )


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'stories.db'}"


def postgresql_url() -> str:
    """A new schema on the session's PostgreSQL server."""
    name = f"storycore_sched_{uuid.uuid4().hex[:12]}"
    return _postgresql.store_url().replace("{name}", name)


# -- many processes, each story once -------------------------------------------------------


def test_three_processes_on_one_sqlite_file_publish_each_due_story_once_and_never_early(
    tmp_path: Path,
) -> None:
    url = sqlite_url(tmp_path)
    prepare(url)
    scheduled = schedule(url, STORIES, whole_second_ahead(LEAD_SECONDS))
    with serving(url, tmp_path, 3) as servers:
        wait_until_none_left(url, scheduled)
        assert all(server.process.poll() is None for server in servers), "a server stopped"
    delays = published_once(url, scheduled, "3 processes, SQLite")
    assert_none_early(delays)
    assert_no_complaints(servers)


@pytest.mark.postgresql
def test_two_processes_on_one_postgresql_schema_publish_each_due_story_once_and_never_early(
    tmp_path: Path,
) -> None:
    from storycore.adapters.postgresql import drop_schema

    url = postgresql_url()
    try:
        prepare(url)
        scheduled = schedule(url, STORIES, whole_second_ahead(LEAD_SECONDS))
        with serving(url, tmp_path, 2) as servers:
            wait_until_none_left(url, scheduled)
            assert all(server.process.poll() is None for server in servers), "a server stopped"
        delays = published_once(url, scheduled, "2 processes, PostgreSQL")
        assert_none_early(delays)
        assert_no_complaints(servers)
    finally:
        drop_schema(url)


# -- a process killed mid-way --------------------------------------------------------------


def kill_once_publishing(url: str, scheduled: Scheduled, doomed: list[Server]) -> int:
    """SIGKILL ``doomed`` as soon as the first story shows published; how many were left to
    publish once they were dead (the one story watched, the first due, is what the processes
    publish first: due stories come by ``publish_at``, then by id)."""
    first = min(scheduled.versions)
    ends = max(time.time(), scheduled.publish_at.timestamp()) + FINISH_SECONDS
    store = open_store(url)
    try:
        while (story := store.stories.get(first)) is not None and story.status != "published":
            if time.time() > ends:
                raise AssertionError("no story was published")
            time.sleep(POLL_SECONDS / 20)
        for server in doomed:  # all at once, then waited for
            server.process.send_signal(signal.SIGKILL)
        for server in doomed:
            server.process.wait(timeout=STOP_SECONDS)
        return scheduled_left(store)
    finally:
        store.close()


def test_a_process_killed_while_publishing_leaves_the_rest_to_the_other_each_story_once(
    tmp_path: Path,
) -> None:
    url = sqlite_url(tmp_path)
    prepare(url)
    scheduled = schedule(url, STORIES, whole_second_ahead(LEAD_SECONDS))
    with serving(url, tmp_path, 2) as (doomed, survivor):
        left = kill_once_publishing(url, scheduled, [doomed])
        assert 0 < left < STORIES, "the kill came after the publishing, not in it"
        wait_until_none_left(url, scheduled)
        assert survivor.process.poll() is None, "the other server stopped"
    print(f"\nkilled with {left} of {STORIES} left to publish")
    delays = published_once(url, scheduled, "2 processes, one killed, SQLite")
    assert_none_early(delays)
    assert_no_complaints([survivor])


def test_publish_due_after_every_process_was_killed_publishes_the_rest_each_story_once(
    tmp_path: Path,
) -> None:
    url = sqlite_url(tmp_path)
    prepare(url)
    scheduled = schedule(url, STORIES, whole_second_ahead(LEAD_SECONDS))
    with serving(url, tmp_path, 2) as servers:
        left = kill_once_publishing(url, scheduled, servers)
    assert 0 < left < STORIES, "the kill came after the publishing, not in it"
    done = publish_due(url)
    said = f"published {counted(left, 'due story')}\n"
    assert (done.returncode, done.stdout, done.stderr) == (0, said, "")
    print(f"\nkilled with {left} of {STORIES} left to publish; publish-due published them")
    published_once(url, scheduled, "2 processes killed, then publish-due, SQLite")


# -- storycore publish-due -----------------------------------------------------------------

#: Stories of each kind in the publish-due tests.
FEW = 5
#: How far ahead of the real time the stories to become due are scheduled.
SOON = timedelta(seconds=1.5)
LATER = timedelta(hours=1)


def unchanged(url: str, scheduled: Scheduled) -> dict[str, tuple[object, ...]]:
    """The stories of ``scheduled`` that are not as they were scheduled (working, at their
    version, ``publish_at`` kept, no revision): what each is instead."""
    store = open_store(url)
    try:
        found: dict[str, tuple[object, ...]] = {}
        for story_id, version in scheduled.versions.items():
            story = store.stories.get(story_id)
            assert story is not None
            seen = (story.status, story.version, story.publish_at, store.revisions.count(story_id))
            if seen != ("working", version, format_timestamp(scheduled.publish_at), 0):
                found[story_id] = seen
        return found
    finally:
        store.close()


def wait_until_due(url: str, scheduled: Scheduled) -> None:
    """Watch the store until the stories of ``scheduled`` are due by the real time."""
    ends = time.monotonic() + STARTUP_SECONDS
    store = open_store(url)
    try:
        while time.monotonic() < ends:
            due = store.stories.due(format_timestamp(datetime.now(UTC)), STORIES)
            if {story.id for story in due} >= set(scheduled.versions):
                return
            time.sleep(POLL_SECONDS)
    finally:
        store.close()
    raise AssertionError("the stories did not become due")


def test_publish_due_publishes_exactly_the_due_stories_and_says_how_many(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    prepare(url)
    due = schedule(url, FEW, datetime.now(UTC) + SOON)
    later = schedule(url, FEW, datetime.now(UTC) + LATER)
    wait_until_due(url, due)
    done = publish_due(url)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"published {FEW} due stories\n", "")
    published_once(url, due, "publish-due")
    assert unchanged(url, later) == {}


def test_publish_due_with_nothing_due_publishes_nothing_and_says_0(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    prepare(url)
    later = schedule(url, FEW, datetime.now(UTC) + LATER)
    done = publish_due(url)
    assert (done.returncode, done.stdout, done.stderr) == (0, "published 0 due stories\n", "")
    assert unchanged(url, later) == {}
