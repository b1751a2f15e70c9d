"""Events, webhooks and deliveries on PostgreSQL beyond the contract: the migration of a schema
the previous version made, the log's commit order across open transactions (two connections at
once, which the contract cannot hold), refused writes leaving no event row, cursors the columns
cannot hold, claims from two stores at once, and the plans of the log and of a claim.

The contract suite checks what every backend does (``-m postgresql`` runs it here); this file
what only the PostgreSQL adapter has. The server is the session's (``tests/_postgresql.py``).
"""

from __future__ import annotations

import itertools
import json
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from storycore.adapters import open_store
from storycore.adapters.postgresql import PostgreSQLStore, drop_schema
from storycore.adapters.postgresql._events import AFTER
from storycore.adapters.postgresql._schema import MIGRATIONS
from storycore.adapters.postgresql._webhooks import CLAIM
from storycore.errors import DuplicateKey, Missing
from storycore.model.derived import story_words
from storycore.model.events import Event, LoggedEvent
from storycore.model.records import StoryRecord
from storycore.model.webhooks import Delivery, WebhookRecord
from storycore.ports import Store
from tests import _postgresql
from tests.adapters.test_postgresql_store import rewind
from tests.contract._factories import add_story, add_user, at, changed, make_story, make_user

pytestmark = pytest.mark.postgresql

_NUMBER = itertools.count()


@pytest.fixture
def schema() -> str:
    return f"storycore_events_{uuid.uuid4().hex[:12]}"


@pytest.fixture
def url(schema: str) -> Iterator[str]:
    """The storage URL of a fresh schema on the session's server, dropped after the test."""
    parts = urlsplit(_postgresql.server_uri(socket=True))
    made = urlunsplit(parts._replace(query=f"{parts.query}&schema={schema}".lstrip("&")))
    yield made
    drop_schema(made)


@pytest.fixture
def store(url: str) -> Iterator[PostgreSQLStore]:
    opened = open_store(url)
    assert isinstance(opened, PostgreSQLStore)
    yield opened
    opened.close()


def _server(schema: str) -> psycopg.Connection[Any]:
    conn = psycopg.connect(_postgresql.server_uri(socket=True), autocommit=True)
    conn.execute(f'SET search_path = "{schema}"')
    return conn


def _event(subject: str, kind: str = "user.created") -> Event:
    return Event(f"evt_{next(_NUMBER):016x}", kind, at(1), subject, '{"n": 1}')


def _log_directly(conn: psycopg.Connection[Any], event: Event) -> None:
    """Write ``event`` as a write of the store does, on ``conn`` (in its transaction)."""
    conn.execute(
        "INSERT INTO events (id, type, timestamp, subject, data) VALUES (%s, %s, %s, %s, %s)",
        event,
    )


def _stored_events(schema: str) -> int:
    """How many event rows the schema holds, whatever the log would hand out."""
    with _server(schema) as conn:
        found = conn.execute("SELECT count(*) FROM events").fetchone()
    assert found is not None
    return int(found[0])


def _add(store: Store, story: StoryRecord, events: list[Event]) -> None:
    store.stories.add_many([(story, [], story_words(story, []))], events=events)


class _Reader:
    """A reader of the log that goes on from the last cursor it was given, as a host
    application or a delivering process does."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.cursor: str | None = None
        self.events: list[Event] = []

    def read(self) -> list[LoggedEvent]:
        handed = self.store.events.after(self.cursor, 100)
        if handed:
            self.cursor = handed[-1].cursor
        self.events.extend(logged.event for logged in handed)
        return handed


# -- migration -----------------------------------------------------------------------------


def test_a_schema_of_the_previous_version_opens_and_gains_the_event_and_webhook_tables(
    url: str, schema: str
) -> None:
    store = open_store(url)
    story = add_story(store, add_user(store, "alice").id, "tale")
    store.close()
    rewind(schema, to=4)  # as the version before events left it
    store = open_store(url)
    try:
        assert store.stories.get(story.id) == story
        assert store.events.after(None, 10) == []
        event = _event(story.id, "story.deleted")
        assert store.stories.remove(story.id, events=[event])
        assert [logged.event for logged in store.events.after(None, 10)] == [event]
        hook = WebhookRecord(
            id="hook",
            url="https://h.example/",
            events=("*",),
            secret="s",
            created=at(1),
            created_by="editor",
        )
        store.webhooks.add(hook)
        assert store.webhooks.get("hook") == hook
        assert store.deliveries.add_many([Delivery("hook", event.id, event.type, at(1))]) == 1
    finally:
        store.close()
    with _server(schema) as conn:
        assert conn.execute("SELECT max(version) FROM schema_version").fetchone() == (
            len(MIGRATIONS),
        )


def test_a_schema_of_version_5_migrates_with_its_webhooks_not_private(
    url: str, schema: str
) -> None:
    open_store(url).close()
    rewind(schema, to=5)
    with _server(schema) as conn:
        conn.execute(
            "INSERT INTO webhooks (id, url, events, secret, created, created_by)"
            " VALUES ('hook', 'https://h.example/', ARRAY['*'], 's', %s, 'ed')",
            (at(1),),
        )
    store = open_store(url)
    try:
        found = store.webhooks.get("hook")
        assert found is not None
        assert found.private is False
    finally:
        store.close()


# -- commit order --------------------------------------------------------------------------


def test_an_event_waits_for_every_write_that_began_before_it_to_end(
    store: PostgreSQLStore, schema: str
) -> None:
    early, bob = _event("someone"), make_user("bob")
    late = _event(bob.id)
    with _server(schema) as other, other.transaction():
        _log_directly(other, early)  # a write under way, its event numbered first
        store.users.add(bob, events=[late])  # a later write, committed
        assert store.events.after(None, 10) == []
        assert store.events.end() is None
    assert [logged.event for logged in store.events.after(None, 10)] == [early, late]


def test_a_read_waits_for_an_older_write_that_ends_soon_and_hands_out_both(
    store: PostgreSQLStore, schema: str
) -> None:
    early, bob = _event("someone"), make_user("bob")
    late = _event(bob.id)
    with _server(schema) as other:
        other.execute("BEGIN")
        _log_directly(other, early)  # a write under way, as another process's
        store.users.add(bob, events=[late])  # committed while it is open
        ending = threading.Timer(0.2, other.execute, ("COMMIT",))
        ending.start()
        try:
            handed = store.events.after(None, 10)
        finally:
            ending.join()
    assert [logged.event for logged in handed] == [early, late]


def test_a_reader_going_on_from_its_cursor_misses_no_event_committed_after_a_later_one(
    store: PostgreSQLStore, schema: str
) -> None:
    reader = _Reader(store)
    first, bob = _event("first"), make_user("bob")
    early, late = _event("someone"), _event(bob.id)
    with _server(schema) as conn:
        _log_directly(conn, first)
    reader.read()
    with _server(schema) as other, other.transaction():
        _log_directly(other, early)  # begun first, committed last
        store.users.add(bob, events=[late])
        reader.read()
    reader.read()
    assert sorted(event.id for event in reader.events) == sorted(
        event.id for event in (first, early, late)
    )


def test_the_end_taken_while_an_earlier_write_is_open_reads_on_to_its_event(
    store: PostgreSQLStore, schema: str
) -> None:
    first, bob = _event("first"), make_user("bob")
    early, late = _event("someone"), _event(bob.id)
    with _server(schema) as conn:
        _log_directly(conn, first)
    with _server(schema) as other, other.transaction():
        _log_directly(other, early)
        store.users.add(bob, events=[late])
        end = store.events.end()
    assert [logged.event for logged in store.events.after(end, 10)] == [early, late]


def test_the_log_orders_transactions_by_number_not_by_its_text(
    store: PostgreSQLStore, schema: str
) -> None:
    nine, ten = _event("nine"), _event("ten")
    with _server(schema) as conn:  # ended transactions 9 and 10 ("10" < "9" as text)
        for event, xid in ((ten, "10"), (nine, "9")):
            conn.execute(
                "INSERT INTO events (id, type, timestamp, subject, data, xid)"
                " VALUES (%s, %s, %s, %s, %s, %s::xid8)",
                (*event, xid),
            )
    handed = store.events.after(None, 10)
    assert [logged.event for logged in handed] == [nine, ten]
    assert store.events.after(handed[0].cursor, 10)[0].event == ten
    assert store.events.end() == handed[-1].cursor


@pytest.mark.parametrize(
    "cursor",
    [
        f"{2**64}-1",  # beyond xid8
        f"1-{2**63}",  # beyond bigint
        "01-1",
        "1-01",
        "1--1",
        "1-1-1",
        "\u0661-\u0661",  # Arabic-Indic digits: str.isdigit says yes
    ],
)
def test_a_cursor_the_columns_cannot_hold_is_missing_not_a_driver_error(
    store: PostgreSQLStore, cursor: str
) -> None:
    _add(store, make_story(add_user(store, "alice").id, "tale"), [])
    with pytest.raises(Missing) as caught:
        store.events.after(cursor, 10)
    assert caught.value.kind == "cursor"


# -- refused writes ------------------------------------------------------------------------


def test_a_refused_story_leaves_no_event_row(store: PostgreSQLStore, schema: str) -> None:
    author = add_user(store, "alice")
    add_story(store, author.id, "tale")
    again = make_story(author.id, "tale")
    with pytest.raises(DuplicateKey):
        _add(store, again, [_event(again.id, "story.created")])
    assert _stored_events(schema) == 0


def test_a_replacement_refused_by_the_database_leaves_no_event_row(
    store: PostgreSQLStore, schema: str
) -> None:
    author = add_user(store, "alice")
    story, other = add_story(store, author.id, "tale"), add_story(store, author.id, "other")
    with pytest.raises(DuplicateKey):  # the UPDATE that carries the events is refused
        store.stories.replace(
            changed(story, [], slug=other.slug),
            expected_version=story.version,
            events=[_event(story.id, "story.slug_changed")],
        )
    assert _stored_events(schema) == 0


def test_a_user_update_refused_by_the_database_leaves_no_event_row(
    store: PostgreSQLStore, schema: str
) -> None:
    alice, bob = add_user(store, "alice"), add_user(store, "bob")
    with pytest.raises(DuplicateKey):
        store.users.update(alice.id, {"username": bob.username}, events=[_event(alice.id)])
    assert _stored_events(schema) == 0


def test_a_removal_of_no_story_leaves_no_event_row(store: PostgreSQLStore, schema: str) -> None:
    assert not store.stories.remove("gone", events=[_event("gone", "story.deleted")])
    assert _stored_events(schema) == 0


def test_writes_without_events_never_touch_the_events_table(
    store: PostgreSQLStore, schema: str
) -> None:
    author = add_user(store, "alice")
    story = add_story(store, author.id, "tale")
    with _server(schema) as conn, conn.transaction():
        conn.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE")  # any writer would wait
        _add(store, make_story(author.id, "other"), [])
        store.stories.replace(changed(story, []), expected_version=story.version)
        assert store.stories.remove(story.id)
        store.users.add(make_user("bob"))
        store.users.update(author.id, {"name": "Alice"})
        store.identities.add_user("idp", "7", make_user("carol"))


# -- claims --------------------------------------------------------------------------------


def test_claims_through_two_stores_at_once_never_lease_a_delivery_twice(
    store: PostgreSQLStore, url: str
) -> None:
    due = [
        Delivery(f"hook-{n % 3}", f"evt_{n:04d}", "story.saved", at(0), next_attempt=at(0))
        for n in range(300)
    ]
    store.deliveries.add_many(due)
    other = open_store(url)  # a second pool, as a second process has
    claimers = 6
    start = threading.Barrier(claimers)

    def claim(number: int) -> list[tuple[str, str]]:
        through = (store, other)[number % 2]
        start.wait()
        taken: list[tuple[str, str]] = []
        while found := through.deliveries.claim(at(1), at(10), f"owner-{number}", 7):
            taken.extend((d.webhook_id, d.event_id) for d in found)
        return taken

    try:
        with ThreadPoolExecutor(claimers) as pool:
            taken = [key for keys in pool.map(claim, range(claimers)) for key in keys]
        left = store.deliveries.claim(at(1), at(10), "sweeper", len(due))  # passed over, free
    finally:
        other.close()
    keys = [*taken, *((d.webhook_id, d.event_id) for d in left)]
    assert len(keys) == len(set(keys))
    assert set(keys) == {(d.webhook_id, d.event_id) for d in due}


# -- plans ---------------------------------------------------------------------------------


def _plan(schema: str, statement: str, params: Any) -> dict[str, Any]:
    """The plan of ``statement`` (run, and rolled back), after the tables were analyzed."""
    with _server(schema) as conn:
        conn.execute("ANALYZE events, deliveries")
        with conn.transaction(force_rollback=True):
            found = conn.execute(
                f"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) {statement}", params
            ).fetchone()
    assert found is not None
    said = json.loads(found[0]) if isinstance(found[0], str) else found[0]
    plan: dict[str, Any] = said[0]["Plan"]
    return plan


def _indexes(plan: dict[str, Any]) -> list[str]:
    """The indexes the plan's nodes scan, in order."""
    nodes = [plan]
    found = []
    while nodes:
        node = nodes.pop(0)
        found += [node["Index Name"]] if "Index Name" in node else []
        nodes.extend(node.get("Plans", ()))
    return found


def test_the_log_is_read_along_its_index_from_the_cursor(
    store: PostgreSQLStore, schema: str
) -> None:
    with _server(schema) as conn:
        conn.execute(
            "INSERT INTO events (id, type, timestamp, subject, data) SELECT 'evt_' || g,"
            " 'story.saved', 't', 's', '{}' FROM generate_series(1, 5000) g"
        )
    cursor = store.events.after(None, 2500)[-1].cursor
    xid, n = cursor.split("-")
    plan = _plan(schema, AFTER, (xid, int(n), 100))
    assert _indexes(plan) == ["events_order"]
    assert plan["Actual Rows"] == 100
    assert plan["Shared Hit Blocks"] + plan.get("Shared Read Blocks", 0) <= 10


def test_a_claim_walks_the_partial_index_of_pending_deliveries(
    store: PostgreSQLStore, schema: str
) -> None:
    done = [
        Delivery("hook", f"evt_{n:05d}", "story.saved", at(0), state="delivered")
        for n in range(5000)
    ]
    pending = [
        Delivery("hook", f"evt_p{n}", "story.saved", at(0), next_attempt=at(n)) for n in range(20)
    ]
    store.deliveries.add_many([*done, *pending])
    params = {"now": at(4), "until": at(100), "owner": "me", "limit": 100, "skip": ["other"]}
    plan = _plan(schema, CLAIM, params)
    assert "deliveries_due" in _indexes(plan)
    assert plan["Plans"][0]["Actual Rows"] == 5  # those due at ``now``, read from the index
