"""Events on MongoDB: what its lack of transactions asks of them.

The contract suite checks what every backend answers; this file checks how the MongoDB adapter
gets there (``storycore.adapters.mongodb._outbox`` and ``_relay``): a remove or a relay that
dies at any of its writes, a relay whose lease ran out, a link refused after its user was
stored, tombstones that no read sees, the order of events across batches, and writes that cost
what they cost before events. Each runs on mongomock and, when STORYCORE_TEST_MONGODB_URI names
one, on a server.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, closing
from dataclasses import dataclass, field, fields
from typing import Any
from unittest.mock import patch
from urllib.parse import urlsplit, urlunsplit

import pytest

from storycore.adapters import mongodb, open_store
from storycore.adapters.mongodb import MongoStore, drop_database
from storycore.adapters.mongodb import _relay as relay_module
from storycore.adapters.mongodb._client import connect
from storycore.adapters.mongodb._outbox import DELETED, PENDING
from storycore.adapters.mongodb._relay import RELAY_AT, Relay
from storycore.adapters.mongodb._schema import Collections
from storycore.errors import DuplicateKey, Missing
from storycore.model.derived import story_words
from storycore.model.events import Event
from storycore.model.queries import StoryQuery
from storycore.model.records import AuthorStats, StoryRecord, UserRecord
from storycore.model.revisions import RevisionMark
from storycore.model.webhooks import Delivery, WebhookRecord
from storycore.ports import Store, StoryRead
from storycore.rules.ids import new_event_id
from tests.contract._factories import (
    add_story,
    add_user,
    at,
    changed,
    make_element,
    make_story,
    make_user,
)

pytestmark = pytest.mark.mongodb

SERVER = os.environ.get("STORYCORE_TEST_MONGODB_URI", "")
_WRITES = frozenset(
    {
        "insert_one",
        "insert_many",
        "update_one",
        "update_many",
        "replace_one",
        "delete_one",
        "delete_many",
        "find_one_and_delete",
        "find_one_and_update",
    }
)
_PAGE = "https://site.example/page"


@pytest.fixture(params=["mongomock", "server"])
def databases(request: pytest.FixtureRequest) -> Iterator[Callable[[], str]]:
    """Makes fresh databases' URLs, on mongomock or on the server; drops them after the test."""
    if request.param == "server" and not SERVER:
        pytest.skip("set STORYCORE_TEST_MONGODB_URI to run on a real MongoDB")
    made: list[str] = []

    def make() -> str:
        name = f"storycore_evt_{uuid.uuid4().hex[:16]}"
        if request.param == "server":
            made.append(urlunsplit(urlsplit(SERVER)._replace(path=f"/{name}")))
        else:
            made.append(f"mongomock://{name}")
        return made[-1]

    yield make
    for url in made:
        drop_database(url)


@pytest.fixture
def url(databases: Callable[[], str]) -> str:
    return databases()


@pytest.fixture
def stores() -> Iterator[ExitStack]:
    """Closes the stores a test opened, after it."""
    with ExitStack() as opened:
        yield opened


@pytest.fixture
def opened(url: str, stores: ExitStack) -> Callable[[], Store]:
    """Opens stores on ``url``, as processes do one after another."""
    return lambda: stores.enter_context(closing(open_store(url)))


@pytest.fixture
def store(opened: Callable[[], Store]) -> Store:
    return opened()


@pytest.fixture
def raw(url: str) -> Iterator[Collections]:
    """The collections themselves, for what no read of the adapter shows."""
    collections, close = connect(url)
    yield collections
    close()


@pytest.fixture
def author(store: Store) -> UserRecord:
    return add_user(store, "alice")


class _Crash(BaseException):
    """The process dies: no handler of the adapter runs after it."""


@dataclass
class _Watch:
    """What a watched store asked its collections: every call by (collection, method), and
    the writes. ``die_at``: the write (counted from 1) that crashes instead of running;
    ``die_on``: the (collection, method) whose first call crashes instead of running;
    ``before``: what runs once just before the first call of a (collection, method)."""

    calls: list[tuple[str, str]] = field(default_factory=list)
    writes: int = 0
    die_at: int = 0
    die_on: tuple[str, str] | None = None
    before: dict[tuple[str, str], Callable[[], object]] = field(default_factory=dict)


class _Watched:
    """A collection whose calls ``watch`` sees."""

    def __init__(self, collection: Any, name: str, watch: _Watch) -> None:
        self._collection, self._name, self._watch = collection, name, watch

    def __getattr__(self, method: str) -> Any:
        member = getattr(self._collection, method)
        if not callable(member):
            return member

        def call(*args: Any, **kwargs: Any) -> Any:
            watch, called = self._watch, (self._name, method)
            if hook := watch.before.pop(called, None):
                hook()
            watch.calls.append(called)
            if method in _WRITES:
                watch.writes += 1
                if watch.writes == watch.die_at:
                    raise _Crash
            if called == watch.die_on:
                raise _Crash
            return member(*args, **kwargs)

        return call


def _watching(collections: Collections, watch: _Watch) -> Collections:
    """``collections``, each seen by ``watch``."""
    seen: dict[str, Any] = {
        f.name: _Watched(getattr(collections, f.name), f.name, watch) for f in fields(Collections)
    }
    return Collections(**seen)


@pytest.fixture
def watched(url: str, stores: ExitStack) -> Callable[[_Watch], MongoStore]:
    """Opens a store on ``url`` whose every collection ``watch`` sees."""

    def open_watched(watch: _Watch) -> MongoStore:
        collections, close = connect(url)
        with patch.object(mongodb, "connect", lambda _: (_watching(collections, watch), close)):
            return stores.enter_context(closing(MongoStore(url)))

    return open_watched


def _event(subject: str, type: str = "story.saved") -> Event:
    return Event(new_event_id(), type, at(0), subject, f'{{"subject":"{subject}"}}')


def _logged(store: Store) -> list[Event]:
    """Every event of the log, in its order (the relay run first)."""
    return [logged.event for logged in store.events.after(None, 1000)]


def _lease_runs_out(raw: Collections) -> None:
    """Time passes beyond the relay's lease (its holder died)."""
    raw.meta.update_one({"_id": "relay"}, {"$set": {"leased_until": 0.0}})


def _story_with_parts(store: Store, author: UserRecord, slug: str) -> StoryRecord:
    """A story with every document that goes with it: elements, a revision, an alias (the
    slug it left) and an embed count."""
    elements = [make_element("first")]
    story = add_story(store, author.id, slug, elements=elements)
    new = changed(story, elements, slug=f"{slug}-moved")
    mark = RevisionMark(at(1), author.id, 5)
    words = story_words(new, elements)
    store.stories.replace(
        new, expected_version=story.version, elements=elements, words=words, revision=mark
    )
    store.stories.add_views({story.id: 1}, {(story.id, _PAGE): 1}, max_embed_pages=10)
    stored = store.stories.get(story.id)
    assert stored is not None
    return stored


def _remains(raw: Collections, story_id: str) -> dict[str, int]:
    """The documents of the story left in each collection (tombstones included)."""
    counts = {"stories": raw.stories.count_documents({"_id": story_id})}
    for name in ("elements", "revisions", "aliases", "embeds"):
        counts[name] = getattr(raw, name).count_documents({"story_id": story_id})
    return {name: count for name, count in counts.items() if count}


def _dies(self: Relay, *, wait: bool) -> None:
    raise _Crash


# -- a process that dies -------------------------------------------------------------------


def test_a_process_dying_between_the_tombstone_and_the_relay_leaves_the_next_relay_to_log_it(
    raw: Collections, store: Store, author: UserRecord, opened: Callable[[], Store]
) -> None:
    story = _story_with_parts(store, author, "tale")
    event = _event(story.id, "story.deleted")
    with patch.object(Relay, "run", _dies), pytest.raises(_Crash):
        store.stories.remove(story.id, events=[event])
    assert store.stories.get(story.id) is None
    assert set(_remains(raw, story.id)) == {"stories", "elements", "revisions", "aliases", "embeds"}
    after = opened()  # the next process, which reads the log
    assert _logged(after) == [event]
    assert _remains(raw, story.id) == {}
    assert _logged(after) == [event]


def test_a_relay_dying_between_logging_an_event_and_pulling_it_logs_it_once(
    raw: Collections,
    store: Store,
    opened: Callable[[], Store],
    watched: Callable[[_Watch], MongoStore],
) -> None:
    user = make_user("alice")
    events = [_event(user.id, "user.created"), _event(user.id, "user.updated")]
    store.users.add(user, events=events)
    with pytest.raises(_Crash):
        watched(_Watch(die_on=("users", "update_one"))).events.after(None, 10)
    assert raw.events.count_documents({}) == 2  # logged, and still in the outbox
    _lease_runs_out(raw)
    after = opened()
    assert _logged(after) == events
    assert [logged.cursor for logged in after.events.after(None, 10)] == ["1", "2"]
    assert raw.users.count_documents(PENDING) == 0


def test_a_remove_that_dies_at_any_of_its_writes_logs_its_event_once_and_leaves_nothing(
    raw: Collections,
    store: Store,
    author: UserRecord,
    opened: Callable[[], Store],
    watched: Callable[[_Watch], MongoStore],
) -> None:
    counted = _Watch()
    story = _story_with_parts(store, author, "counted")
    watched(counted).stories.remove(story.id, events=[_event(story.id, "story.deleted")])
    # the tombstone, the lease, the numbers, the event, its pull, the story's documents (4 and
    # the tombstone), the lease's end
    assert counted.writes >= 11
    for die_at in range(1, counted.writes + 1):
        story = _story_with_parts(store, author, f"tale-{die_at}")
        event = _event(story.id, "story.deleted")
        with pytest.raises(_Crash):
            watched(_Watch(die_at=die_at)).stories.remove(story.id, events=[event])
        _lease_runs_out(raw)

        after = opened()  # the next process
        logged = [found for found in _logged(after) if found.subject == story.id]
        if die_at == 1:  # died writing the tombstone: nothing changed, it is removed again
            assert after.stories.get(story.id) == story
            assert logged == []
            assert after.stories.remove(story.id, events=[event])
            logged = [found for found in _logged(after) if found.subject == story.id]
        assert after.stories.get(story.id) is None
        assert logged == [event]
        assert _remains(raw, story.id) == {}


def _written(store: Store) -> list[Event]:
    """Writes of users and stories, each with its events; the events in write order."""
    user = make_user("alice")
    story = make_story(user.id, "tale")
    other = make_story(user.id, "other")
    written = [
        _event(user.id, "user.created"),
        _event(story.id, "story.created"),
        _event(story.id, "story.published"),
        _event(other.id, "story.created"),  # stored with the story after ``story``
        _event(story.id, "story.saved"),
        _event(user.id, "user.updated"),
        _event(other.id, "story.saved"),
    ]
    store.users.add(user, events=written[:1])
    store.stories.add_many(
        [(s, [], story_words(s, [])) for s in (story, other)], events=written[1:4]
    )
    store.stories.replace(changed(story, []), expected_version=story.version, events=written[4:5])
    store.users.update(user.id, {"name": "Alice"}, events=written[5:6])
    store.stories.replace(changed(other, []), expected_version=other.version, events=written[6:])
    return written


def test_a_relay_that_dies_at_any_of_its_writes_leaves_every_event_to_be_logged_once_in_order(
    databases: Callable[[], str], stores: ExitStack
) -> None:
    def relay_dying_at(die_at: int) -> tuple[int, list[Event], list[Event]]:
        """The writes the relay made, the events written, and those the next reader reads."""
        url = databases()
        store = stores.enter_context(closing(open_store(url)))
        written = _written(store)
        watch, (collections, close) = _Watch(die_at=die_at), connect(url)
        try:
            Relay(_watching(collections, watch)).run(wait=False)
        except _Crash:
            _lease_runs_out(collections)
        close()
        return watch.writes, written, _logged(stores.enter_context(closing(open_store(url))))

    writes, written, logged = relay_dying_at(0)
    assert logged == written
    assert writes >= 6  # the lease, the numbers, 7 events, the pulls, the lease's end
    for die_at in range(1, writes + 1):
        _, written, logged = relay_dying_at(die_at)
        assert logged == written


def test_a_relay_whose_lease_ran_out_and_was_taken_logs_nothing(
    raw: Collections, store: Store
) -> None:
    written = _written(store)
    late = Relay(raw)
    with late.holding(wait=False) as paused:
        assert paused is not None
        _lease_runs_out(raw)  # it paused for longer than its lease
        with Relay(raw).holding(wait=False) as taken:
            assert taken is not None
            assert not late.round(paused)
            assert raw.events.count_documents({}) == 0
    assert _logged(store) == written


def test_a_reader_that_finds_the_relay_held_past_its_wait_reads_what_is_logged(
    raw: Collections, store: Store, author: UserRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = make_story(author.id, "first")
    store.stories.add_many([(first, [], [])], events=[_event(first.id, "story.created")])
    logged = _logged(store)
    later = make_story(author.id, "later")
    store.stories.add_many([(later, [], [])], events=[_event(later.id, "story.created")])
    monkeypatch.setattr(relay_module, "_WAIT", 0.0)
    with Relay(raw).holding(wait=False) as held:  # a process that died holding it
        assert held is not None
        assert _logged(store) == logged
    assert len(_logged(store)) == 2


# -- a user whose link is refused ----------------------------------------------------------


def _linked_meanwhile(raw: Collections) -> None:
    raw.identities.insert_one({"provider": "github", "external_id": "42", "user_id": "other"})


def test_a_user_whose_link_is_refused_goes_with_its_events(
    raw: Collections, store: Store, watched: Callable[[_Watch], MongoStore]
) -> None:
    user = make_user("alice")
    race = _Watch(before={("identities", "insert_one"): lambda: _linked_meanwhile(raw)})
    with pytest.raises(DuplicateKey, match="identity"):
        watched(race).identities.add_user("github", "42", user, events=[_event(user.id)])
    assert store.users.get(user.id) is None
    assert _logged(store) == []


def _relay_done(raw: Collections) -> None:
    Relay(raw).run(wait=False)


def _relay_died_before_pulling(raw: Collections) -> None:
    with pytest.raises(_Crash):
        Relay(_watching(raw, _Watch(die_on=("users", "update_one")))).run(wait=False)
    _lease_runs_out(raw)


@pytest.mark.parametrize(
    "relay", [_relay_done, _relay_died_before_pulling], ids=["relayed", "died before pulling"]
)
def test_a_user_whose_events_were_logged_before_its_link_was_refused_stays_with_them(
    raw: Collections,
    store: Store,
    watched: Callable[[_Watch], MongoStore],
    relay: Callable[[Collections], None],
) -> None:
    user = make_user("alice")
    event = _event(user.id, "user.created")

    def relayed_and_linked() -> None:
        relay(raw)
        _linked_meanwhile(raw)

    race = _Watch(before={("identities", "insert_one"): relayed_and_linked})
    with pytest.raises(DuplicateKey, match="identity"):
        watched(race).identities.add_user("github", "42", user, events=[event])
    assert store.users.get(user.id) == user  # unlinked, as a crash would leave it
    assert _logged(store) == [event]


# -- tombstones ----------------------------------------------------------------------------


def test_a_tombstone_is_invisible_to_every_read(
    raw: Collections, store: Store, author: UserRecord
) -> None:
    story = _story_with_parts(store, author, "tale")
    store.stories.set_featured(story.id, at(2))
    scheduled = add_story(
        store, author.id, "soon", status="working", published=None, publish_at=at(5)
    )
    words = story_words(story, [make_element("first")])
    with patch.object(Relay, "run", _dies):
        for gone in (story, scheduled):
            with pytest.raises(_Crash):
                store.stories.remove(gone.id, events=[_event(gone.id, "story.deleted")])
    assert raw.stories.count_documents(DELETED) == 2

    stories = store.stories
    assert stories.get(story.id) is None
    assert stories.get_by_slug(author.id, story.slug) is None
    assert stories.get_by_slug(author.id, "tale") is None  # the slug it left
    assert stories.taken_slugs(author.id, [story.slug, "soon"]) == set()
    for query in (
        StoryQuery(0, 10),
        StoryQuery(0, 10, audience="owner", author_id=author.id),
        StoryQuery(0, 10, audience="owner", status="working"),
        StoryQuery(0, 10, featured=True),
        StoryQuery(0, 10, sort="views"),
        StoryQuery(0, 10, author_id=author.id, slug=story.slug),
    ):
        assert stories.find(query) == []
        assert stories.count(query) == 0
    assert store.search.search(words, 0, 10) == []
    assert store.search.count(words) == 0
    assert stories.due(at(99), 10) == []
    assert stories.author_stats([author.id]) == {author.id: AuthorStats()}
    assert list(stories.iter_all()) == []
    assert stories.element_documents(story.id, 0, 10) == []
    assert stories.embeds([story.id]) == {}
    assert store.read_story("alice", story.slug, 0, 10) == StoryRead(author, None, [])
    assert store.revisions.heads(story.id, 0, 10) == []
    assert store.revisions.count(story.id) == 0
    assert store.revisions.get(story.id, story.version - 1) is None
    assert store.revisions.of_story(story.id) == []


def test_a_tombstone_takes_no_write_but_the_relays(
    raw: Collections, store: Store, author: UserRecord
) -> None:
    story = _story_with_parts(store, author, "tale")
    with patch.object(Relay, "run", _dies), pytest.raises(_Crash):
        store.stories.remove(story.id, events=[_event(story.id, "story.deleted")])
    before = raw.stories.find_one({"_id": story.id})

    store.stories.add_views(
        {story.id: 3}, {(story.id, "https://other.example/"): 1}, max_embed_pages=10
    )
    store.stories.set_featured(story.id, at(9))
    with pytest.raises(Missing):
        store.stories.replace(changed(story, []), expected_version=story.version)
    assert not store.stories.remove(story.id, events=[_event(story.id, "story.deleted")])
    assert raw.stories.find_one({"_id": story.id}) == before
    assert raw.embeds.count_documents({"story_id": story.id}) == 1
    # its slug is free for a new story, which takes it
    assert add_story(store, author.id, story.slug).slug == story.slug
    assert len([event for event in _logged(store) if event.subject == story.id]) == 1
    assert _remains(raw, story.id) == {}


def test_removing_a_story_whose_events_are_not_logged_logs_them_first(
    raw: Collections, store: Store, author: UserRecord
) -> None:
    story = make_story(author.id, "tale")
    created = _event(story.id, "story.created")
    store.stories.add_many([(story, [], [])], events=[created])
    assert store.stories.remove(story.id)  # no events of its own
    assert _logged(store) == [created]
    assert _remains(raw, story.id) == {}


# -- what events cost ------------------------------------------------------------------------


_Write = Callable[[Store, Sequence[Event]], str]  # a write with events; the id of its document


def _add_story(store: Store, events: Sequence[Event]) -> str:
    user = store.users.get_by_username("alice")
    assert user is not None
    story = make_story(user.id, f"s-{uuid.uuid4().hex[:8]}", elements=[make_element("x")])
    store.stories.add_many([(story, [make_element("x")], ["x"])], events=events)
    return story.id


def _replace(store: Store, events: Sequence[Event]) -> str:
    story_id = _add_story(store, [])
    story = store.stories.get(story_id)
    assert story is not None
    store.stories.replace(changed(story, []), expected_version=story.version, events=events)
    return story_id


def _add_user(store: Store, events: Sequence[Event]) -> str:
    user = make_user(f"u{uuid.uuid4().hex[:8]}")
    store.users.add(user, events=events)
    return user.id


def _update_user(store: Store, events: Sequence[Event]) -> str:
    user_id = _add_user(store, [])
    store.users.update(user_id, {"name": "Someone Else"}, events=events)
    return user_id


def _add_linked_user(store: Store, events: Sequence[Event]) -> str:
    user = make_user(f"u{uuid.uuid4().hex[:8]}")
    store.identities.add_user("github", user.id, user, events=events)
    return user.id


@pytest.mark.parametrize(
    "write",
    [_add_story, _replace, _add_user, _update_user, _add_linked_user],
    ids=["add story", "replace", "add user", "update user", "add linked user"],
)
def test_a_write_with_events_makes_the_calls_of_one_without_and_one_without_writes_no_outbox(
    raw: Collections,
    author: UserRecord,
    watched: Callable[[_Watch], MongoStore],
    write: _Write,
) -> None:
    without, carrying = _Watch(), _Watch()
    written = write(watched(without), [])
    write(watched(carrying), [_event("subject"), _event("subject")])
    assert carrying.calls == without.calls
    collection = raw.users if write in (_add_user, _update_user, _add_linked_user) else raw.stories
    assert "outbox" not in (collection.find_one({"_id": written}) or {"outbox": None})


def test_a_remove_without_events_makes_the_calls_it_made_before_events(
    store: Store, author: UserRecord, watched: Callable[[_Watch], MongoStore]
) -> None:
    story = add_story(store, author.id, "tale")
    watch = _Watch()
    assert watched(watch).stories.remove(story.id)
    assert watch.calls == [
        ("stories", "delete_one"),
        *((name, "delete_many") for name in ("aliases", "revisions", "elements", "embeds")),
    ]


def test_reading_the_log_with_no_event_pending_takes_no_lease_and_writes_nothing(
    store: Store, author: UserRecord, watched: Callable[[_Watch], MongoStore]
) -> None:
    story = make_story(author.id, "tale")
    store.stories.add_many([(story, [], [])], events=[_event(story.id, "story.created")])
    _logged(store)
    watch = _Watch()
    assert len(watched(watch).events.after(None, 10)) == 1
    assert watch.writes == 0
    assert watch.calls == [("stories", "find_one"), ("users", "find_one"), ("events", "find")]


def test_a_story_saved_often_with_nobody_reading_the_log_keeps_a_short_outbox(
    raw: Collections, store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale")
    events = []
    for n in range(3 * RELAY_AT):
        events.append(_event(story.id, "story.saved"))
        new = changed(story, [], title=f"Save {n}")
        store.stories.replace(new, expected_version=story.version, events=events[-1:])
        story = new
        outbox = (raw.stories.find_one({"_id": story.id}) or {}).get("outbox", [])
        assert len(outbox) <= RELAY_AT + 1
    assert _logged(store) == events


# -- the order of events -------------------------------------------------------------------


def test_events_of_many_documents_come_in_write_order_across_the_relays_batches(
    store: Store, author: UserRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(relay_module, "_BATCH", 2)
    stories = [add_story(store, author.id, f"tale-{n}") for n in range(5)]
    users = [add_user(store, f"user{n}") for n in range(3)]
    written = []
    for n in range(4):  # each document gets an event in each turn, in an order of its own
        for story in stories[n % 2 :: 1 + n % 2][::-1] if n % 2 else stories:
            event = _event(story.id)
            new = changed(story, [], title=f"{story.title} {n}")
            store.stories.replace(new, expected_version=story.version, events=[event])
            stories[stories.index(story)] = new
            written.append(event)
        for user in users[::-1] if n % 2 else users:
            event = _event(user.id, "user.updated")
            store.users.update(user.id, {"name": f"name {n}"}, events=[event])
            written.append(event)
    assert _logged(store) == written


def test_an_event_pushed_after_a_later_stamped_one_comes_after_it(
    raw: Collections, store: Store, author: UserRecord, watched: Callable[[_Watch], MongoStore]
) -> None:
    """Two updates of one user race: the one stamped first lands second, after a story's event
    stamped in between; the log follows the order the writes landed in."""
    first, second = _event(author.id, "user.updated"), _event(author.id, "user.updated")
    story = make_story(author.id, "tale")
    between = _event(story.id, "story.created")

    def others_write_first() -> None:
        store.stories.add_many([(story, [], [])], events=[between])
        store.users.update(author.id, {"name": "Second"}, events=[second])

    race = _Watch(before={("users", "find_one_and_update"): others_write_first})
    watched(race).users.update(author.id, {"name": "First"}, events=[first])
    outbox = (raw.users.find_one({"_id": author.id}) or {})["outbox"]
    assert [entry["id"] for entry in outbox] == [second.id, first.id]
    assert outbox[0]["at"] > outbox[1]["at"]
    assert _logged(store) == [between, second, first]


def test_a_cursor_with_a_leading_zero_is_not_one_the_log_made(store: Store) -> None:
    user = make_user("alice")
    store.users.add(user, events=[_event(user.id, "user.created")])
    assert [logged.cursor for logged in store.events.after(None, 10)] == ["1"]
    with pytest.raises(Missing) as caught:
        store.events.after("01", 10)
    assert caught.value.kind == "cursor"


# -- webhooks ------------------------------------------------------------------------------


def test_removing_a_webhook_again_removes_the_deliveries_a_crash_left(
    store: Store, watched: Callable[[_Watch], MongoStore]
) -> None:
    webhook = WebhookRecord(
        id="hook",
        url="https://hooks.example/",
        events=("*",),
        secret="sealed",
        created=at(0),
        created_by="ed",
    )
    store.webhooks.add(webhook)
    delivery = Delivery("hook", new_event_id(), "story.saved", at(0), next_attempt=at(0))
    store.deliveries.add_many([delivery])
    with pytest.raises(_Crash):
        watched(_Watch(die_on=("deliveries", "delete_many"))).webhooks.remove("hook")
    assert store.webhooks.get("hook") is None
    assert store.deliveries.count("hook") == 1  # what the crash left
    assert not store.webhooks.remove("hook")
    assert store.deliveries.count("hook") == 0


# -- the indexes (on a server) ---------------------------------------------------------------


def test_the_relay_finds_no_pending_event_with_one_index_lookup_per_collection(
    url: str, raw: Collections, store: Store, author: UserRecord
) -> None:
    if not url.startswith("mongodb"):
        pytest.skip("mongomock has no query planner to ask")
    import pymongo

    for n in range(2_000):
        add_story(store, author.id, f"tale-{n}")
    _logged(store)
    client: pymongo.MongoClient[dict[str, Any]] = pymongo.MongoClient(url)
    with client:
        database = client.get_default_database()
        for collection, selector in (("stories", {"$or": [PENDING, DELETED]}), ("users", PENDING)):
            plan = database[collection].find(selector, {"_id": 1}).limit(1).explain()
            assert "COLLSCAN" not in str(plan["queryPlanner"]["winningPlan"])
            assert plan["executionStats"]["totalDocsExamined"] == 0
