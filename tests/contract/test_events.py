"""EventLog and the ``events`` of the reporting writes (docs/webhooks.md): each write stores
the events that report it in the same atomic write, a refused write stores none, and the log
hands them out in write order after an opaque cursor the store made."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from storycore.errors import DuplicateKey, Missing, StaleVersion
from storycore.model.derived import story_words
from storycore.model.events import Event, EventHead, LoggedEvent, LoggedHead
from storycore.model.records import StoryRecord, UserRecord
from storycore.ports import Store
from tests.contract._factories import (
    AWKWARD_DATA,
    add_story,
    add_user,
    at,
    changed,
    make_delivery,
    make_event,
    make_story,
    make_user,
    make_webhook,
    two_stores,
)

WRITERS, WRITES = 4, 15


def _logged(store: Store) -> list[Event]:
    """Every event of the log, in the order it hands them out."""
    return [logged.event for logged in store.events.after(None, 1000)]


def _add(store: Store, story: StoryRecord, events: Sequence[Event] = ()) -> None:
    """Store ``story`` (no elements) with ``events``."""
    store.stories.add_many([(story, [], story_words(story, []))], events=events)


def _logged_events(store: Store, author: UserRecord, count: int) -> list[Event]:
    """``count`` events stored with as many new stories of ``author``, in write order."""
    events = []
    for n in range(count):
        story = make_story(author.id, f"s{n}")
        event = make_event(story.id, "story.created", minutes=n)
        _add(store, story, [event])
        events.append(event)
    return events


# -- each reporting write stores its events ----------------------------------------------------


def test_an_empty_log_hands_out_no_events(store: Store) -> None:
    assert store.events.after(None, 10) == []


def test_add_many_stores_the_events_of_the_story(store: Store, author: UserRecord) -> None:
    story = make_story(author.id, "tale")
    events = [make_event(story.id, "story.created"), make_event(story.id, "story.published")]
    _add(store, story, events)
    assert _logged(store) == events


def test_add_many_stores_each_event_with_the_story_its_subject_names(
    store: Store, author: UserRecord
) -> None:
    first, second = make_story(author.id, "first"), make_story(author.id, "second")
    events = [
        make_event(first.id, "story.created"),
        make_event(first.id, "story.published"),
        make_event(second.id, "story.created"),
    ]
    store.stories.add_many([(s, [], story_words(s, [])) for s in (first, second)], events=events)
    assert _logged(store) == events


def test_replace_stores_its_events(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "tale")
    events = [make_event(story.id, "story.saved"), make_event(story.id, "story.slug_changed")]
    new = changed(story, [], slug="other-tale")
    store.stories.replace(new, expected_version=story.version, events=events)
    assert _logged(store) == events


def test_remove_stores_its_events(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "tale")
    event = make_event(story.id, "story.deleted")
    assert store.stories.remove(story.id, events=[event])
    assert _logged(store) == [event]


def test_users_add_stores_its_events(store: Store) -> None:
    user = make_user("alice")
    event = make_event(user.id, "user.created")
    store.users.add(user, events=[event])
    assert _logged(store) == [event]


def test_users_update_stores_its_events(store: Store) -> None:
    user = add_user(store, "alice")
    event = make_event(user.id, "user.updated")
    store.users.update(user.id, {"name": "Alice Liddell"}, events=[event])
    assert _logged(store) == [event]


def test_identities_add_user_stores_its_events(store: Store) -> None:
    user = make_user("alice")
    event = make_event(user.id, "user.created")
    store.identities.add_user("provider", "42", user, events=[event])
    assert _logged(store) == [event]


def test_a_write_without_events_stores_none(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "tale")
    store.stories.replace(changed(story, []), expected_version=story.version)
    store.stories.remove(story.id)
    assert _logged(store) == []


def test_the_log_hands_out_events_in_write_order(store: Store) -> None:
    user = make_user("alice")
    story = make_story(user.id, "tale")
    written = [
        make_event(user.id, "user.created", minutes=5),
        make_event(story.id, "story.created", minutes=4),
        make_event(story.id, "story.saved", minutes=3),
        make_event(user.id, "user.updated", minutes=2),
        make_event(story.id, "story.deleted", minutes=1),
    ]
    store.users.add(user, events=written[:1])
    _add(store, story, written[1:2])
    store.stories.replace(changed(story, []), expected_version=story.version, events=written[2:3])
    store.users.update(user.id, {"name": "Alice"}, events=written[3:4])
    store.stories.remove(story.id, events=written[4:])
    assert _logged(store) == written


def test_a_logged_event_reads_back_byte_exact(store: Store, author: UserRecord) -> None:
    story = make_story(author.id, "tale")
    event = Event(
        id="evt_0123456789abcdef",
        type="story.published",
        timestamp="2026-03-04T05:06:07.089Z",
        subject=story.id,
        data=AWKWARD_DATA,
    )
    _add(store, story, [event])
    assert _logged(store) == [event]
    assert _logged(store)[0].data.encode() == AWKWARD_DATA.encode()
    assert store.events.get_many([event.id]) == {event.id: event}


def test_a_logged_event_is_an_event(store: Store, author: UserRecord) -> None:
    story = make_story(author.id, "tale")
    _add(store, story, [make_event(story.id)])
    (logged,) = store.events.after(None, 10)
    assert type(logged) is LoggedEvent
    assert type(logged.event) is Event
    assert isinstance(logged.cursor, str)


# -- a refused write stores none of its events -------------------------------------------------


def test_add_many_refused_for_a_taken_slug_stores_none_of_its_events(
    store: Store, author: UserRecord
) -> None:
    add_story(store, author.id, "tale")
    story = make_story(author.id, "tale")
    with pytest.raises(DuplicateKey, match=r"story\.slug"):
        _add(store, story, [make_event(story.id, "story.created")])
    assert _logged(store) == []


def test_add_many_refused_for_a_stored_id_stores_none_of_its_events(
    store: Store, author: UserRecord
) -> None:
    stored = add_story(store, author.id, "tale")
    story = make_story(author.id, "another", story_id=stored.id)
    with pytest.raises(DuplicateKey, match=r"story\.id"):
        _add(store, story, [make_event(story.id, "story.created")])
    assert _logged(store) == []


def test_replace_with_a_stale_version_stores_none_of_its_events(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale")
    with pytest.raises(StaleVersion):
        store.stories.replace(
            changed(story, []), expected_version=story.version + 1, events=[make_event(story.id)]
        )
    assert _logged(store) == []


def test_replace_of_a_missing_story_stores_none_of_its_events(
    store: Store, author: UserRecord
) -> None:
    story = make_story(author.id, "tale")
    with pytest.raises(Missing):
        store.stories.replace(
            changed(story, []), expected_version=story.version, events=[make_event(story.id)]
        )
    assert _logged(store) == []


def test_replace_to_a_taken_slug_stores_none_of_its_events(
    store: Store, author: UserRecord
) -> None:
    add_story(store, author.id, "taken")
    story = add_story(store, author.id, "tale")
    event = make_event(story.id, "story.slug_changed")
    with pytest.raises(DuplicateKey, match=r"story\.slug"):
        store.stories.replace(
            changed(story, [], slug="taken"), expected_version=story.version, events=[event]
        )
    assert _logged(store) == []


def test_remove_of_a_missing_story_stores_none_of_its_events(store: Store) -> None:
    assert not store.stories.remove("nope", events=[make_event("nope", "story.deleted")])
    assert _logged(store) == []


def test_users_add_with_a_taken_username_stores_none_of_its_events(store: Store) -> None:
    add_user(store, "alice")
    user = make_user("ALICE")
    with pytest.raises(DuplicateKey, match=r"user\.username"):
        store.users.add(user, events=[make_event(user.id, "user.created")])
    assert _logged(store) == []


def test_users_update_to_a_taken_username_stores_none_of_its_events(store: Store) -> None:
    add_user(store, "alice")
    user = add_user(store, "bob")
    with pytest.raises(DuplicateKey, match=r"user\.username"):
        store.users.update(
            user.id, {"username": "Alice"}, events=[make_event(user.id, "user.updated")]
        )
    assert _logged(store) == []


def test_users_update_of_a_missing_user_stores_none_of_its_events(store: Store) -> None:
    with pytest.raises(Missing):
        store.users.update("nope", {"name": "Nobody"}, events=[make_event("nope", "user.updated")])
    assert _logged(store) == []


def test_add_user_with_a_linked_identity_stores_none_of_its_events(store: Store) -> None:
    store.identities.add_user("provider", "42", make_user("alice"))
    user = make_user("bob")
    with pytest.raises(DuplicateKey, match="identity"):
        store.identities.add_user("provider", "42", user, events=[make_event(user.id)])
    assert _logged(store) == []


def test_add_user_with_a_taken_username_stores_none_of_its_events(store: Store) -> None:
    add_user(store, "alice")
    user = make_user("Alice")
    with pytest.raises(DuplicateKey, match=r"user\.username"):
        store.identities.add_user("provider", "42", user, events=[make_event(user.id)])
    assert _logged(store) == []


@pytest.mark.parametrize("refused_at", [0, 1])
def test_a_refused_story_of_a_batch_has_no_events_and_no_event_outlives_its_story(
    store: Store, author: UserRecord, refused_at: int
) -> None:
    """Stores differ in what a failure leaves of the batch (``add_many``): every one stores no
    event of the refused story, and no event of a story it did not store."""
    add_story(store, author.id, "taken")
    good = make_story(author.id, "good")
    refused = make_story(author.id, "taken")
    batch = [good, refused] if refused_at else [refused, good]
    events = {story.id: [make_event(story.id, "story.created")] for story in batch}
    with pytest.raises(DuplicateKey, match=r"story\.slug"):
        store.stories.add_many(
            [(story, [], story_words(story, [])) for story in batch],
            events=[event for story in batch for event in events[story.id]],
        )
    kept = events[good.id] if store.stories.get(good.id) is not None else []
    assert _logged(store) == kept


# -- reading the log after a cursor ------------------------------------------------------------


def test_after_hands_out_at_most_limit_events_the_oldest(store: Store, author: UserRecord) -> None:
    events = _logged_events(store, author, 5)
    assert [logged.event for logged in store.events.after(None, 3)] == events[:3]


def test_after_a_cursor_reads_on_after_its_event(store: Store, author: UserRecord) -> None:
    events = _logged_events(store, author, 5)
    first = store.events.after(None, 2)
    then = store.events.after(first[-1].cursor, 2)
    assert [logged.event for logged in then] == events[2:4]


def test_each_cursor_reads_on_after_its_own_event(store: Store, author: UserRecord) -> None:
    events = _logged_events(store, author, 4)
    logged = store.events.after(None, 10)
    for n, handed in enumerate(logged):
        assert [later.event for later in store.events.after(handed.cursor, 10)] == events[n + 1 :]


def test_after_the_last_cursor_is_empty(store: Store, author: UserRecord) -> None:
    _logged_events(store, author, 3)
    last = store.events.after(None, 10)[-1].cursor
    assert store.events.after(last, 10) == []


def test_a_reader_going_on_from_its_cursor_gets_the_events_written_since(
    store: Store, author: UserRecord
) -> None:
    _logged_events(store, author, 2)
    cursor = store.events.after(None, 10)[-1].cursor
    story = make_story(author.id, "later")
    later = [make_event(story.id, "story.created"), make_event(story.id, "story.published")]
    _add(store, story, later)
    assert [logged.event for logged in store.events.after(cursor, 10)] == later


def test_a_limit_of_zero_hands_out_no_events(store: Store, author: UserRecord) -> None:
    _logged_events(store, author, 2)
    assert store.events.after(None, 0) == []


def test_end_of_an_empty_log_is_none(store: Store) -> None:
    assert store.events.end() is None


def test_after_the_end_hands_out_no_event_logged_before(store: Store, author: UserRecord) -> None:
    _logged_events(store, author, 3)
    end = store.events.end()
    assert end is not None
    assert store.events.after(end, 10) == []


def test_after_the_end_hands_out_the_events_logged_later(store: Store, author: UserRecord) -> None:
    _logged_events(store, author, 3)
    end = store.events.end()
    story = make_story(author.id, "later")
    later = [make_event(story.id, "story.created")]
    _add(store, story, later)
    assert [logged.event for logged in store.events.after(end, 10)] == later


def test_the_end_reads_on_like_the_last_cursor_handed_out(store: Store, author: UserRecord) -> None:
    _logged_events(store, author, 2)
    last = store.events.after(None, 10)[-1].cursor
    end = store.events.end()
    story = make_story(author.id, "later")
    _add(store, story, [make_event(story.id, "story.created")])
    assert store.events.after(end, 10) == store.events.after(last, 10)


def test_a_refused_write_leaves_the_end_as_it_was(store: Store, author: UserRecord) -> None:
    _logged_events(store, author, 2)
    end = store.events.end()
    assert not store.stories.remove("nope", events=[make_event("nope", "story.deleted")])
    assert store.events.after(end, 10) == []


@pytest.mark.parametrize("cursor", ["nonsense", "", "-1", "9" * 40, "x:y", "1.5", " 1", "é"])
def test_a_cursor_the_log_did_not_make_is_missing(
    store: Store, author: UserRecord, cursor: str
) -> None:
    _logged_events(store, author, 2)
    with pytest.raises(Missing) as caught:
        store.events.after(cursor, 10)
    assert caught.value.kind == "cursor"


@pytest.mark.parametrize("cursor", ["nonsense", "", "9" * 40])
def test_a_cursor_is_missing_on_an_empty_log_too(store: Store, cursor: str) -> None:
    with pytest.raises(Missing) as caught:
        store.events.after(cursor, 10)
    assert caught.value.kind == "cursor"


def test_cursors_from_after_and_end_are_accepted(store: Store, author: UserRecord) -> None:
    _logged_events(store, author, 2)
    cursors = [logged.cursor for logged in store.events.after(None, 10)]
    end = store.events.end()
    assert end is not None
    for cursor in [*cursors, end]:
        store.events.after(cursor, 10)  # no Missing


# -- the heads of the events after a cursor --------------------------------------------------------


def test_heads_after_are_the_events_after_without_their_data(
    store: Store, author: UserRecord
) -> None:
    _logged_events(store, author, 4)
    cursor = store.events.after(None, 1)[0].cursor
    for start in (None, cursor):
        logged = store.events.after(start, 2)
        assert store.events.heads_after(start, 2) == [
            LoggedHead(item.cursor, EventHead(*item.event[:3])) for item in logged
        ]


def test_heads_after_read_on_from_their_own_cursors(store: Store, author: UserRecord) -> None:
    events = _logged_events(store, author, 3)
    first = store.events.heads_after(None, 2)
    then = store.events.heads_after(first[-1].cursor, 10)
    assert [logged.head.id for logged in [*first, *then]] == [event.id for event in events]


def test_heads_after_of_a_limit_of_zero_or_the_end_are_empty(
    store: Store, author: UserRecord
) -> None:
    _logged_events(store, author, 2)
    assert store.events.heads_after(None, 0) == []
    assert store.events.heads_after(store.events.end(), 10) == []


@pytest.mark.parametrize("cursor", ["nonsense", "", "9" * 40])
def test_heads_after_a_cursor_the_log_did_not_make_is_missing(
    store: Store, author: UserRecord, cursor: str
) -> None:
    _logged_events(store, author, 2)
    with pytest.raises(Missing) as caught:
        store.events.heads_after(cursor, 10)
    assert caught.value.kind == "cursor"


# -- events by id ------------------------------------------------------------------------------


def test_get_many_answers_the_logged_events_by_id(store: Store, author: UserRecord) -> None:
    events = _logged_events(store, author, 3)
    asked = [events[0], events[2]]
    assert store.events.get_many(e.id for e in asked) == {e.id: e for e in asked}


def test_get_many_leaves_out_unknown_ids(store: Store, author: UserRecord) -> None:
    (event,) = _logged_events(store, author, 1)
    assert store.events.get_many([event.id, "evt_unknown", ""]) == {event.id: event}


def test_get_many_of_no_ids_is_empty(store: Store, author: UserRecord) -> None:
    _logged_events(store, author, 2)
    assert store.events.get_many([]) == {}


def test_get_many_does_not_find_the_events_of_a_refused_write(store: Store) -> None:
    event = make_event("nope", "story.deleted")
    store.stories.remove("nope", events=[event])
    assert store.events.get_many([event.id]) == {}


# -- writers and a reader at once --------------------------------------------------------------


def _follow(writers: Sequence[Store], reader: Store) -> tuple[list[list[Event]], list[Event]]:
    """Each of ``writers`` (in a thread of its own) adds ``WRITES`` users, each with an event,
    while a reader on ``reader`` reads on from its last cursor, then to the end once they are
    done: the events each writer wrote, in its order, and those the reader was handed."""
    start, done = threading.Barrier(len(writers) + 1), threading.Event()

    def write(n: int) -> list[Event]:
        written = []
        start.wait()
        for k in range(WRITES):
            user = make_user(f"w{n}u{k}")
            event = make_event(user.id, "user.created", minutes=k)
            writers[n].users.add(user, events=[event])
            written.append(event)
        return written

    def read() -> list[Event]:
        cursor, seen = None, []
        start.wait()
        while True:
            ended = done.is_set()  # before the read: every write ended before it
            handed = reader.events.after(cursor, 7)
            seen += [logged.event for logged in handed]
            if handed:
                cursor = handed[-1].cursor
            elif ended or len(seen) > len(writers) * WRITES:  # a log that repeats, stopped
                return seen

    with ThreadPoolExecutor(len(writers) + 1) as pool:
        reading = pool.submit(read)
        try:
            written = list(pool.map(write, range(len(writers))))
        finally:
            done.set()
        return written, reading.result(timeout=120)


def _misses_none(written: list[list[Event]], seen: list[Event]) -> None:
    """``seen`` holds every written event once, each writer's in the order it wrote them."""
    assert sorted(e.id for e in seen) == sorted(e.id for events in written for e in events)
    for events in written:
        mine = {e.id for e in events}
        assert [e for e in seen if e.id in mine] == events


def test_a_reader_following_concurrent_writers_misses_no_event(store: Store) -> None:
    written, seen = _follow([store] * WRITERS, store)
    _misses_none(written, seen)


@pytest.fixture
def shared(storycore_store_url: str, tmp_path: Path) -> Iterator[tuple[Store, Store]]:
    """Two stores on one storage (``two_stores``)."""
    with two_stores(storycore_store_url, tmp_path) as stores:
        yield stores


def test_a_reader_misses_no_event_of_writers_on_another_connection(
    shared: tuple[Store, Store],
) -> None:
    first, second = shared
    written, seen = _follow([first, second] * (WRITERS // 2), second)
    _misses_none(written, seen)
    assert [logged.event for logged in first.events.after(None, 1000)] == seen


# -- pruning: events do not live for ever (docs/webhooks.md#how-long-events-are-kept) ---------


def _log_users(store: Store, *minutes: int) -> list[Event]:
    """A new user logged at each of ``minutes``, in order: their events."""
    events = []
    for minute in minutes:
        user = make_user(f"pruned{minute}")
        event = make_event(user.id, "user.created", minutes=minute)
        store.users.add(user, events=[event])
        events.append(event)
    return events


def test_prune_deletes_the_events_before_the_time_that_no_pending_delivery_holds(
    store: Store,
) -> None:
    old, older, kept, newest = _log_users(store, 1, 2, 10, 11)
    assert store.events.prune(at(10)) == 2
    assert _logged(store) == [kept, newest]
    assert store.events.get_many([old.id, older.id]) == {}


def test_prune_keeps_an_old_event_with_a_pending_delivery(store: Store) -> None:
    held, delivered, failed, _ = _log_users(store, 1, 2, 3, 20)
    hook = make_webhook()
    store.webhooks.add(hook)
    store.deliveries.add_many(
        [
            make_delivery(hook.id, held.id),
            make_delivery(hook.id, delivered.id, state="delivered", due=None),
            make_delivery(hook.id, failed.id, state="failed", due=None),
        ]
    )
    assert store.events.prune(at(10)) == 2
    assert [e.id for e in _logged(store)] == [held.id, _logged(store)[-1].id]
    assert store.events.get_many([held.id]) == {held.id: held}


def test_prune_keeps_the_newest_event_and_every_cursor_reads_on(store: Store) -> None:
    _, newest = _log_users(store, 1, 2)
    before = store.events.after(None, 10)
    assert store.events.prune(at(60)) == 1
    assert _logged(store) == [newest]
    assert store.events.end() == before[-1].cursor
    (later,) = _log_users(store, 61)
    assert [e.event for e in store.events.after(before[0].cursor, 10)] == [newest, later]
    assert [e.event for e in store.events.after(before[1].cursor, 10)] == [later]


def test_prune_on_an_empty_log_deletes_nothing(store: Store) -> None:
    assert store.events.prune(at(60)) == 0
    assert store.events.end() is None
