"""PostgreSQL under load, faults and moves: concurrent writers through the service
lose nothing and break no key, from threads and from two processes; a server stopped in a
write burst keeps every acknowledged write, answers ``Unavailable`` (503 with Retry-After)
while it is down, and the same store recovers by itself once it is back; and a store moved
from SQLite to PostgreSQL and back exports the same bytes.

The server is the session's (``tests/_postgresql.py``); the fault tests need its own cluster,
which they stop and start, and are skipped under ``STORYCORE_TEST_POSTGRESQL_URI``.
"""

from __future__ import annotations

import multiprocessing
import re
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

from storycore import Service, Unavailable
from storycore.adapters import open_store
from storycore.adapters.postgresql import drop_schema
from storycore.contrib.cli import main
from storycore.http import HttpApp, HttpRequest
from storycore.model.records import StoryRecord
from tests import _postgresql
from tests.contract._factories import add_user, changed, make_story
from tests.reliability import _workers

# the process pool starts once, on one worker
pytestmark = [
    pytest.mark.postgresql,
    pytest.mark.xdist_group("postgresql-reliability"),
    pytest.mark.long,
]

CALLS = 32  # concurrent calls of each test
PROCESSES = 2
#: After start(): the ceiling of the wait for the store to answer again (it ends as soon as
#: the store does; how soon is printed, not bounded: a busy machine is slower at it).
RECOVERY_SECONDS = 120.0
DOWN_SECONDS = 0.5  # how long the server stays down besides the calls made meanwhile
WRITERS = 4  # threads of a write burst: as many as a store's connections


@pytest.fixture
def url() -> Iterator[str]:
    """A fresh schema on the session's server, with alice and her published story ``target``
    at version 1; dropped after the test."""
    url = _postgresql.store_url().replace("{name}", f"storycore_rel_{uuid.uuid4().hex[:12]}")
    with Service(open_store(url), _workers.SETTINGS) as service:
        service.accounts.create_user("alice", "alice-password")
        alice = service.accounts.as_user("alice")
        service.stories.create(
            "alice", {"title": "Target", "slug": "target"}, viewer=alice, publish=True
        )
    yield url
    drop_schema(url)


@pytest.fixture(scope="module")
def processes() -> Iterator[ProcessPoolExecutor]:
    """Two spawned processes whose ``at_once`` calls start together (a shared barrier)."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        PROCESSES,
        mp_context=context,
        initializer=_workers.share_barrier,
        initargs=(context.Barrier(PROCESSES),),
    ) as pool:
        yield pool


def _from_processes(pool: ProcessPoolExecutor, url: str, action: str, *args: object) -> list[str]:
    """``CALLS`` calls of ``action``, half from each process, each process opening the store."""
    each = CALLS // PROCESSES
    futures = [pool.submit(_workers.at_once, url, action, each, *args) for _ in range(PROCESSES)]
    return [outcome for future in futures for outcome in future.result(timeout=120)]


def _outcomes(request: pytest.FixtureRequest, url: str, action: str, *args: object) -> list[str]:
    if request.param == "processes":
        return _from_processes(request.getfixturevalue("processes"), url, action, *args)
    return _workers.at_once(url, action, CALLS, *args)


@pytest.fixture(params=["threads", "processes"])
def callers(request: pytest.FixtureRequest) -> pytest.FixtureRequest:
    """Where the concurrent calls come from: threads of this process, or two processes."""
    return request


def _stored_slugs(url: str) -> list[str]:
    with Service(open_store(url), _workers.SETTINGS) as service:
        alice = service.accounts.as_user("alice")
        listed = service.catalog.user("alice", viewer=alice, per_page=100)
    return [story.slug for story in listed.items]


# -- concurrency ---------------------------------------------------------------------------


def test_concurrent_saves_at_one_version_let_exactly_one_win(
    url: str, callers: pytest.FixtureRequest
) -> None:
    outcomes = _outcomes(callers, url, "save", "target", 1)
    assert Counter(outcomes) == {"target": 1, "VersionConflict": CALLS - 1}
    with Service(open_store(url), _workers.SETTINGS) as service:
        alice = service.accounts.as_user("alice")
        stored = service.stories.open("alice", "target", viewer=alice, count_view=False)
    assert (stored.version, stored.detail.description) == (2, "mine")


def test_concurrent_creates_at_one_slug_let_exactly_one_take_it(
    url: str, callers: pytest.FixtureRequest
) -> None:
    outcomes = _outcomes(callers, url, "create_at", "shared")
    assert Counter(outcomes) == {"shared": 1, "SlugTaken": CALLS - 1}
    assert sorted(_stored_slugs(url)) == ["shared", "target"]


def test_concurrent_creates_of_one_title_get_distinct_slugs(
    url: str, callers: pytest.FixtureRequest
) -> None:
    slugs = _outcomes(callers, url, "create_titled", "Same title")
    assert all(re.fullmatch(r"same-title(-[0-9]+)?", slug) for slug in slugs), Counter(slugs)
    assert len(set(slugs)) == CALLS
    assert sorted(_stored_slugs(url)) == sorted([*slugs, "target"])


def test_concurrent_profile_updates_and_authentications_lose_nothing(url: str) -> None:
    fields = ("name", "bio", "location", "website")
    rounds = 5
    with Service(open_store(url), _workers.SETTINGS) as service:
        service.accounts.create_user("carol", "carol-password")
        api_key = service.accounts.create_app("reader").api_key
        carol = service.accounts.as_user("carol")
        start = threading.Barrier(CALLS)

        def value(field: str, n: int) -> str:
            return f"https://carol.example/{n}" if field == "website" else f"{field} {n}"

        def update(field: str) -> list[str]:
            start.wait(timeout=60)
            for n in range(rounds):
                service.accounts.update("carol", {field: value(field, n)}, viewer=carol)
            return []

        def authenticate(_: int) -> list[str]:
            start.wait(timeout=60)
            return [
                service.accounts.authenticate(api_key, "carol", "carol-password").token
                for _ in range(rounds)
            ]

        writers = [*(f for f in fields for _ in range(2)), *range(CALLS - 2 * len(fields))]
        with ThreadPoolExecutor(CALLS) as pool:
            futures = [
                pool.submit(update, w) if isinstance(w, str) else pool.submit(authenticate, w)
                for w in writers
            ]
            tokens = [token for future in futures for token in future.result(timeout=120)]
        profile = service.accounts.get("carol")
        proved = [service.accounts.viewer(api_key, "carol", token).user for token in tokens]
        stored = service.store.users.get_by_username("carol")
    assert {field: getattr(profile, field) for field in fields} == {
        field: value(field, rounds - 1) for field in fields
    }
    assert len(tokens) == (CALLS - 2 * len(fields)) * rounds
    assert all(user is not None and user.username == "carol" for user in proved)
    assert stored is not None
    assert stored.last_seen is not None


def test_view_flushes_and_publication_changes_at_once_keep_the_author_counters(url: str) -> None:
    """Author stats are counters a trigger adds to. Writers each count views of their own two
    stories, one by alice and one by bob, half of them alice's first and half bob's, while
    other writers hide and show the same stories: nothing deadlocks (it did when a flush took
    each author's counters as it reached their story), no view is lost, and the counters are
    those of the stories."""
    rounds = 15
    store = open_store(url)
    try:
        alice = store.users.get_by_username("alice")
        assert alice is not None
        bob = add_user(store, "bob")
        authors = [(alice.id, bob.id) if w % 2 else (bob.id, alice.id) for w in range(WRITERS)]
        owned = [
            [make_story(author, f"w{w}-{n}", story_id=f"w{w}-{n}") for n, author in enumerate(two)]
            for w, two in enumerate(authors)
        ]  # a flush takes its stories in id order: the first author's, then the other's
        ids = [story for two in owned for story in two]
        store.stories.add_many((story, [], ["counted"]) for story in ids)
        start = threading.Barrier(WRITERS + len(ids))

        def flush(writer: int) -> None:
            start.wait(timeout=60)
            for _ in range(rounds):
                views = {story.id: 1 for story in owned[writer]}
                pages = {(story.id, "https://p.example/"): 1 for story in owned[writer]}
                store.stories.add_views(views, pages, max_embed_pages=2)

        def toggle(story: StoryRecord) -> None:
            start.wait(timeout=60)
            for _ in range(rounds):
                record = store.stories.get(story.id)
                assert record is not None
                hidden = changed(record, [], private=not record.private)
                store.stories.replace(hidden, expected_version=record.version)

        with ThreadPoolExecutor(WRITERS + len(ids)) as pool:
            futures = [pool.submit(flush, w) for w in range(WRITERS)]
            futures += [pool.submit(toggle, story) for story in ids]
            for future in futures:
                future.result(timeout=120)
        records = [r for r in map(store.stories.get, [s.id for s in ids]) if r is not None]
        pages = store.stories.embeds(record.id for record in records)
        stats = store.stories.author_stats([alice.id, bob.id])
    finally:
        store.close()
    assert sum(record.views for record in records) == rounds * len(ids)
    for author_id in (alice.id, bob.id):
        public = [r for r in records if r.is_public and r.author_id == author_id]
        assert (stats[author_id].views, stats[author_id].embeds) == (
            sum(record.views for record in public),
            sum(page.views for record in public for page in pages.get(record.id, [])),
        )
        assert stats[author_id].stories == len(public) + (author_id == alice.id)  # her target


# -- faults ------------------------------------------------------------------------------


@pytest.fixture
def cluster() -> Iterator[_postgresql.Cluster]:
    """The session's own cluster, running again after the test whatever happened."""
    made = _postgresql.cluster()
    if made is None:
        pytest.skip(f"the server is {_postgresql.ENV}'s: it cannot be stopped here")
    try:
        yield made
    finally:
        made.start()


class Burst:
    """Stories added one after another from ``WRITERS`` threads until ``stop``: the ids of
    those whose ``add`` returned, and the errors of the others. Each write is one statement
    through the store's port, so the server goes while writes are in flight, and every write
    made while it is down meets it (a create through the service would stop at its first
    read)."""

    def __init__(self, service: Service) -> None:
        self._stories = service.store.stories
        user = service.store.users.get_by_username("alice")
        assert user is not None
        self._author = user.id
        self.acknowledged: list[str] = []
        self.errors: list[Exception] = []
        self._stopping = threading.Event()
        self._threads = [
            threading.Thread(target=self._write, args=(writer,)) for writer in range(WRITERS)
        ]
        for thread in self._threads:
            thread.start()

    def _write(self, writer: int) -> None:
        for n in range(100_000):  # bounded: stopped long before
            if self._stopping.is_set():
                return
            story = make_story(self._author, f"burst-{writer}-{n}")
            try:
                self._stories.add_many([(story, [], ["burst"])])
            except Exception as exc:  # noqa: BLE001 - collected and asserted by the test
                self.errors.append(exc)
            else:
                self.acknowledged.append(story.id)

    def wait_for(self, count: int, seconds: float = 10) -> None:
        """Until ``count`` writes were acknowledged in all (at most ``seconds``)."""
        deadline = time.monotonic() + seconds
        while len(self.acknowledged) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(self.acknowledged) >= count, self.errors[-1:]

    def stop(self) -> None:
        self._stopping.set()
        for thread in self._threads:
            thread.join(timeout=30)


def _read_target_over_http(service: Service) -> tuple[int, dict[str, str], bytes]:
    answer = HttpApp(service).handle(HttpRequest("GET", "/v1/stories/alice/target"))
    return answer.status, dict(answer.headers), answer.body


def test_a_server_stopped_in_a_write_burst_keeps_every_acknowledged_write_and_recovers(
    url: str, cluster: _postgresql.Cluster
) -> None:
    with Service(open_store(url), _workers.SETTINGS) as service:
        burst = Burst(service)
        try:
            burst.wait_for(20)
            cluster.stop()  # fast shutdown: the sessions are cut mid-burst
            with ThreadPoolExecutor(2) as pool:  # each waits for a connection in vain
                reading: Future[object] = pool.submit(service.stories.read, "alice", "target")
                over_http = pool.submit(_read_target_over_http, service)
                time.sleep(DOWN_SECONDS)
                with pytest.raises(Unavailable):
                    reading.result(timeout=30)
                status, headers, body = over_http.result(timeout=30)
            acknowledged_before = len(burst.acknowledged)
            cluster.start()
            back = time.monotonic()
            burst.wait_for(acknowledged_before + 20, RECOVERY_SECONDS)
            recovered = time.monotonic() - back
        finally:
            burst.stop()
            cluster.start()
        stored = [service.store.stories.get(story_id) for story_id in burst.acknowledged]
        assert service.stories.read("alice", "target").title == "Target"
    assert [story.id for story in stored if story is not None] == burst.acknowledged
    assert burst.errors, "no write met the stopped server"
    assert {type(exc) for exc in burst.errors} == {Unavailable}
    assert (status, headers.get("Retry-After")) == (503, "1")
    assert b'"type":"unavailable"' in body.replace(b" ", b"")
    assert b"Traceback" not in body
    print(f"\nthe store answered writes again {recovered:.2f} s after the server started")


# -- moving stores -------------------------------------------------------------------------


def _cli(*args: str, stdin: bytes | None = None) -> bytes:
    """Run the real command line; its standard output (it must succeed)."""
    done = subprocess.run(
        [sys.executable, "-m", "storycore.contrib.cli", *args],
        input=stdin,
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def _revise(db: str, username: str, slug: str) -> None:
    """Give a story revisions (docs/api.md#revisions): saves, a slug change, a restore."""
    with Service(open_store(db)) as service:
        author = service.accounts.as_user(username)
        detail = service.stories.save(username, slug, {"title": "Fog, first draft"}, viewer=author)
        service.stories.save(username, slug, {"elements": []}, viewer=author)
        service.stories.change_slug(username, slug, "fog", viewer=author)
        service.revisions.restore(username, "fog", detail.version, viewer=author, version=4)


def test_a_store_moved_to_postgresql_and_back_exports_the_same_bytes(
    url: str, tmp_path: Path
) -> None:
    source, back = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    drop_schema(url)  # an empty store: the fixture's alice would clash with the demo's ids
    assert main(["--db", source, "demo"]) == 0  # the data set; the moves run the command line
    _revise(source, "alice", "a-morning-in-the-harbour-fog-of-porto")
    exported = _cli("--db", source, "export")
    assert exported.count(b'"revisions":') == 1
    moved = tmp_path / "moved.jsonl"
    moved.write_bytes(exported)
    _cli("--db", url, "import", str(moved))
    from_postgresql = _cli("--db", url, "export")
    moved.write_bytes(from_postgresql)
    _cli("--db", back, "import", str(moved))
    assert exported.count(b"\n") > 20
    assert from_postgresql == exported
    assert _cli("--db", back, "export") == exported


def test_an_export_piped_into_an_import_on_postgresql_gives_the_same_export(
    url: str, tmp_path: Path
) -> None:
    source = f"sqlite:///{tmp_path / 'a.db'}"
    drop_schema(url)
    assert main(["--db", source, "demo"]) == 0
    command = [sys.executable, "-m", "storycore.contrib.cli"]
    with subprocess.Popen([*command, "--db", source, "export"], stdout=subprocess.PIPE) as export:
        imported = subprocess.run(
            [*command, "--db", url, "import", "-"],
            stdin=export.stdout,
            capture_output=True,
            check=False,
            timeout=120,
        )
    assert (export.returncode, imported.returncode) == (0, 0), imported.stderr.decode()
    assert _cli("--db", url, "export") == _cli("--db", source, "export")
