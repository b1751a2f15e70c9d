"""What only the SQLite store has of events and webhooks (docs/webhooks.md; the contract
suite checks what every backend does): events in the transaction of the write they report,
a log in commit order across stores on one file, and claims that lease each delivery to one
store, walking the partial index of pending deliveries."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from storycore.adapters.sqlite import SQLiteStore
from storycore.errors import DuplicateKey, Missing
from storycore.model.derived import story_words
from storycore.model.events import Event
from storycore.model.webhooks import Delivery
from storycore.rules.ids import new_event_id
from tests.contract._factories import add_story, add_user, at, changed, make_story, make_user

pytestmark = pytest.mark.sqlite


@pytest.fixture
def path(tmp_path: Path) -> str:
    return str(tmp_path / "stories.db")


@pytest.fixture
def store(path: str) -> Iterator[SQLiteStore]:
    """A store in a file, as a user meets it."""
    store = SQLiteStore(path)
    yield store
    store.close()


def _event(subject: str, kind: str = "story.saved") -> Event:
    return Event(new_event_id(), kind, at(1), subject, '{"n":1}')


def _logged(store: SQLiteStore) -> list[tuple[object, ...]]:
    """The rows of the log, as stored."""
    return store.connection.rows("SELECT id, subject FROM events ORDER BY seq")


def _taken_slug(store: SQLiteStore) -> None:
    author = add_user(store, "alice")
    add_story(store, author.id, "taken")
    story = add_story(store, author.id, "tale")
    new = changed(story, [], slug="taken")
    store.stories.replace(
        new, expected_version=1, words=story_words(new, []), events=[_event(story.id)]
    )


def _taken_slug_in_a_load(store: SQLiteStore) -> None:
    author = add_user(store, "alice")
    first, second = make_story(author.id, "tale"), make_story(author.id, "tale")
    store.stories.add_many(
        [(first, [], []), (second, [], [])], events=[_event(first.id), _event(second.id)]
    )


def _taken_username(store: SQLiteStore) -> None:
    add_user(store, "alice")
    user = make_user("Alice")
    store.users.add(user, events=[_event(user.id, "user.created")])


def _renamed_to_a_taken_username(store: SQLiteStore) -> None:
    add_user(store, "alice")
    bob = add_user(store, "bob")
    store.users.update(bob.id, {"username": "ALICE"}, events=[_event(bob.id, "user.updated")])


def _linked_identity(store: SQLiteStore) -> None:
    store.identities.add_user("github", "7", make_user("alice"))
    user = make_user("bob")
    store.identities.add_user("github", "7", user, events=[_event(user.id, "user.created")])


@pytest.mark.parametrize(
    "refused",
    [
        _taken_slug,
        _taken_slug_in_a_load,
        _taken_username,
        _renamed_to_a_taken_username,
        _linked_identity,
    ],
)
def test_a_refused_write_stores_none_of_its_events(
    store: SQLiteStore, refused: Callable[[SQLiteStore], None]
) -> None:
    with pytest.raises(DuplicateKey):  # refused after its events could be written: rolled back
        refused(store)
    assert _logged(store) == []
    assert store.events.end() is None


def test_a_write_without_events_runs_no_statement_on_the_log(store: SQLiteStore) -> None:
    author = add_user(store, "alice")
    statements: list[str] = []
    store.connection.conn.set_trace_callback(statements.append)
    story = add_story(store, author.id, "tale")
    store.stories.replace(changed(story, []), expected_version=1)
    store.stories.remove(story.id)
    store.users.update(author.id, {"name": "Alice"})
    assert statements
    assert [statement for statement in statements if "events" in statement] == []


def test_events_survive_a_process_killed_right_after_their_write(path: str) -> None:
    user = make_user("alice")
    event = _event(user.id, "user.created")
    script = textwrap.dedent(
        f"""
        import os, signal
        from storycore.adapters.sqlite import SQLiteStore
        from storycore.model.events import Event
        from storycore.model.records import UserRecord
        store = SQLiteStore({path!r})
        user = UserRecord.model_validate_json({user.model_dump_json()!r})
        store.users.add(user, events=[Event(*{tuple(event)!r})])
        os.kill(os.getpid(), signal.SIGKILL)  # no close, no checkpoint
        """
    )
    killed = subprocess.run(
        [sys.executable, "-c", script], check=False, capture_output=True, timeout=60
    )
    assert killed.returncode == -9, killed.stderr
    store = SQLiteStore(path)
    try:
        assert store.users.get(user.id) == user
        assert [logged.event for logged in store.events.after(None, 10)] == [event]
    finally:
        store.close()


def test_a_cursor_of_more_digits_than_any_event_has_is_missing(store: SQLiteStore) -> None:
    with pytest.raises(Missing) as raised:  # not a driver's overflow of its integers
        store.events.after("9" * 19, 10)
    assert raised.value.kind == "cursor"


def test_readers_on_two_stores_of_one_file_read_the_log_in_commit_order(path: str) -> None:
    stores = [SQLiteStore(path) for _ in range(3)]
    writers, reader = stores[:2], stores[2]
    try:
        users = [
            add_user(store, name) for store, name in zip(writers, ("alice", "bob"), strict=True)
        ]
        written: list[list[str]] = [[], []]

        def write(n: int) -> None:
            for _ in range(60):
                event = _event(users[n].id, "user.updated")
                writers[n].users.update(users[n].id, {"name": event.id}, events=[event])
                written[n].append(event.id)

        threads = [threading.Thread(target=write, args=(n,)) for n in (0, 1)]
        for thread in threads:
            thread.start()
        read: list[str] = []  # as a reader going on from its last cursor, while they write
        cursor: str | None = None

        def read_on() -> bool:
            nonlocal cursor
            found = reader.events.after(cursor, 7)
            read.extend(logged.event.id for logged in found)
            cursor = found[-1].cursor if found else cursor
            return bool(found)

        while any(thread.is_alive() for thread in threads):
            read_on()
        for thread in threads:
            thread.join()
        while read_on():
            pass
        whole = [logged.event.id for logged in writers[0].events.after(None, 1000)]
        assert read == whole == [logged.event.id for logged in writers[1].events.after(None, 1000)]
        assert sorted(whole) == sorted(written[0] + written[1])
        for ids in written:  # each writer's events in the order it committed them
            assert [event_id for event_id in whole if event_id in ids] == ids
    finally:
        for store in stores:
            store.close()


def _due(count: int, webhook: str = "wh", *, at_minute: int = 1) -> list[Delivery]:
    return [
        Delivery(webhook, f"evt_{n:04d}", "story.saved", at(0), next_attempt=at(at_minute))
        for n in range(count)
    ]


def test_two_stores_claiming_the_same_due_deliveries_never_both_get_one(path: str) -> None:
    stores = [SQLiteStore(path) for _ in range(2)]
    try:
        stores[0].deliveries.add_many(_due(200))
        start = threading.Barrier(2)
        claimed: list[list[str]] = [[], []]

        def claim(n: int) -> None:
            start.wait()
            while found := stores[n].deliveries.claim(at(5), at(10), f"owner-{n}", 3):
                claimed[n] += [delivery.event_id for delivery in found]

        threads = [threading.Thread(target=claim, args=(n,)) for n in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not set(claimed[0]) & set(claimed[1])
        assert sorted(claimed[0] + claimed[1]) == [d.event_id for d in _due(200)]
    finally:
        for store in stores:
            store.close()


def _claim_statement(store: SQLiteStore) -> str:
    statements: list[str] = []
    store.connection.conn.set_trace_callback(statements.append)
    try:
        store.deliveries.claim(at(5), at(10), "owner", 10)
    finally:
        store.connection.conn.set_trace_callback(None)
    [claim] = [s for s in statements if "leased_by" in s]
    return claim


def test_the_claim_walks_the_partial_index_of_pending_deliveries(store: SQLiteStore) -> None:
    store.deliveries.add_many(_due(3))
    claim = _claim_statement(store)
    plan = [row[-1] for row in store.connection.conn.execute(f"EXPLAIN QUERY PLAN {claim}")]
    assert "SEARCH deliveries USING INDEX deliveries_due (next_attempt<?)" in plan
    # the one scan allowed is of the claim's own parameter: the webhooks it passes over
    scans = [step for step in plan if step.startswith("SCAN") and "json_each" not in step]
    assert not scans
    assert not [step for step in plan if "TEMP B-TREE" in step]


def _instructions(store: SQLiteStore) -> int:
    """How many virtual machine instructions SQLite runs for a claim when none is due."""
    counted = [0]

    def count() -> int:
        counted[0] += 1
        return 0

    store.connection.conn.set_progress_handler(count, 1)
    try:
        assert store.deliveries.claim(at(5), at(10), "owner", 10) == []
    finally:
        store.connection.conn.set_progress_handler(None, 1)
    return counted[0]


def test_a_claim_when_none_is_due_reads_as_much_beside_10000_finished_deliveries() -> None:
    store = SQLiteStore(None)  # every statement on the one connection, which is counted
    try:
        store.deliveries.add_many(_due(1, at_minute=60))
        one = _instructions(store)
        finished = [d._replace(state="delivered", next_attempt=None) for d in _due(10000, "a")]
        failed = [d._replace(state="failed", next_attempt=None) for d in _due(10000, "b")]
        store.deliveries.add_many([*finished, *failed, *_due(10000, "c", at_minute=60)])
        assert _instructions(store) == one
    finally:
        store.close()
