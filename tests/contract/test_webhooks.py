"""WebhookRepository (docs/webhooks.md): the endpoints editors registered, their cursor into
the event log, moved only from the value a process read, and their deliveries, which go with
them."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from storycore.errors import DuplicateKey, Missing
from storycore.ports import Store
from tests.contract._factories import at, make_delivery, make_event, make_user, make_webhook

THREADS = 8


def _cursors(store: Store, count: int) -> list[str]:
    """The cursors of ``count`` new events in the log (each with a new user), in order."""
    for n in range(count):
        user = make_user(f"user{n}")
        store.users.add(user, events=[make_event(user.id, "user.created", minutes=n)])
    return [logged.cursor for logged in store.events.after(None, 1000)][-count:]


def _ids(store: Store, offset: int = 0, limit: int = 100) -> list[str]:
    return [webhook.id for webhook in store.webhooks.find(offset, limit)]


# -- add and get -------------------------------------------------------------------------------


def test_an_added_webhook_reads_back_equal(store: Store) -> None:
    (cursor,) = _cursors(store, 1)
    webhook = make_webhook(
        "https://hooks.example/in?a=1&b=%C3%A9#top",
        events=("story.published", "user.created"),
        cursor=cursor,
        failing_since=at(3),
        disabled=at(4),
    )
    store.webhooks.add(webhook)
    assert store.webhooks.get(webhook.id) == webhook


def test_a_webhook_with_no_cursor_nor_failures_reads_back_equal(store: Store) -> None:
    webhook = make_webhook()
    store.webhooks.add(webhook)
    found = store.webhooks.get(webhook.id)
    assert found == webhook
    assert found is not None
    assert (found.cursor, found.failing_since, found.disabled) == (None, None, None)


@pytest.mark.parametrize("private", [True, False])
def test_a_webhooks_private_reads_back_as_stored(store: Store, private: bool) -> None:
    webhook = make_webhook(private=private)
    store.webhooks.add(webhook)
    found = store.webhooks.get(webhook.id)
    assert found is not None
    assert found.private is private
    assert store.webhooks.find(0, 10)[0].private is private


def test_a_webhook_is_not_private_unless_registered_so(store: Store) -> None:
    store.webhooks.add(make_webhook())
    assert store.webhooks.find(0, 10)[0].private is False


def test_a_webhooks_events_read_back_as_a_tuple_in_their_order(store: Store) -> None:
    webhook = make_webhook(events=("user.updated", "story.created", "story.deleted"))
    store.webhooks.add(webhook)
    found = store.webhooks.get(webhook.id)
    assert found is not None
    assert found.events == ("user.updated", "story.created", "story.deleted")
    assert type(found.events) is tuple


def test_a_webhooks_url_and_secret_read_back_byte_exact(store: Store) -> None:
    webhook = make_webhook("https://hooks.example/é/\u2028?q=\"x\"&r='y'", secret="s€cr\\et\n")
    store.webhooks.add(webhook)
    found = store.webhooks.get(webhook.id)
    assert found is not None
    assert (found.url, found.secret) == (webhook.url, webhook.secret)


def test_get_of_an_unknown_webhook_is_none(store: Store) -> None:
    store.webhooks.add(make_webhook())
    assert store.webhooks.get("nope") is None


def test_a_stored_webhook_id_is_refused_as_a_duplicate_webhook_id(store: Store) -> None:
    store.webhooks.add(make_webhook(webhook_id="hook"))
    with pytest.raises(DuplicateKey) as caught:
        store.webhooks.add(make_webhook("https://other.example/", webhook_id="hook"))
    assert caught.value.key == "webhook.id"


def test_a_refused_webhook_leaves_the_stored_one_as_it_was(store: Store) -> None:
    first = make_webhook(webhook_id="hook")
    store.webhooks.add(first)
    with pytest.raises(DuplicateKey):
        store.webhooks.add(make_webhook("https://other.example/", webhook_id="hook"))
    assert store.webhooks.find(0, 10) == [first]


# -- find --------------------------------------------------------------------------------------


def test_find_answers_webhooks_oldest_first(store: Store) -> None:
    for webhook_id, minutes in [("b", 5), ("c", 1), ("a", 9)]:
        store.webhooks.add(make_webhook(webhook_id=webhook_id, minutes=minutes))
    assert _ids(store) == ["c", "b", "a"]


def test_webhooks_created_at_the_same_moment_come_by_id(store: Store) -> None:
    for webhook_id in ["m", "c", "x", "a"]:
        store.webhooks.add(make_webhook(webhook_id=webhook_id, minutes=2))
    assert _ids(store) == ["a", "c", "m", "x"]


def test_find_slices_by_offset_and_limit(store: Store) -> None:
    for n in range(5):
        store.webhooks.add(make_webhook(webhook_id=f"h{n}", minutes=n))
    assert _ids(store, 1, 3) == ["h1", "h2", "h3"]
    assert _ids(store, 4, 3) == ["h4"]
    assert _ids(store, 5, 3) == []


def test_find_answers_the_stored_records(store: Store) -> None:
    webhook = make_webhook(events=("story.saved",), failing_since=at(2))
    store.webhooks.add(webhook)
    assert store.webhooks.find(0, 10) == [webhook]


def test_find_of_no_webhooks_is_empty(store: Store) -> None:
    assert store.webhooks.find(0, 10) == []


# -- update ------------------------------------------------------------------------------------


def test_update_sets_the_named_members_only(store: Store) -> None:
    (cursor,) = _cursors(store, 1)
    webhook = make_webhook(events=("story.saved",), cursor=cursor, disabled=at(3))
    store.webhooks.add(webhook)
    store.webhooks.update(webhook.id, {"failing_since": at(7), "events": ("user.created",)})
    expected = webhook.model_copy(update={"failing_since": at(7), "events": ("user.created",)})
    assert store.webhooks.get(webhook.id) == expected


def test_update_sets_a_member_back_to_none(store: Store) -> None:
    webhook = make_webhook(failing_since=at(1), disabled=at(2))
    store.webhooks.add(webhook)
    store.webhooks.update(webhook.id, {"failing_since": None, "disabled": None})
    assert store.webhooks.get(webhook.id) == webhook.model_copy(
        update={"failing_since": None, "disabled": None}
    )


def test_update_of_one_webhook_leaves_the_others(store: Store) -> None:
    first, second = make_webhook(webhook_id="a"), make_webhook(webhook_id="b")
    store.webhooks.add(first)
    store.webhooks.add(second)
    store.webhooks.update("a", {"disabled": at(5)})
    assert store.webhooks.get("b") == second


def test_update_of_an_unknown_webhook_is_missing_webhook(store: Store) -> None:
    with pytest.raises(Missing) as caught:
        store.webhooks.update("nope", {"disabled": at(1)})
    assert caught.value.kind == "webhook"
    assert store.webhooks.get("nope") is None


# -- advance -----------------------------------------------------------------------------------


def test_advance_from_no_cursor_sets_the_first(store: Store) -> None:
    webhook = make_webhook()
    store.webhooks.add(webhook)
    (cursor,) = _cursors(store, 1)
    assert store.webhooks.advance(webhook.id, None, cursor)
    found = store.webhooks.get(webhook.id)
    assert found is not None
    assert found.cursor == cursor


def test_advance_from_the_stored_cursor_moves_it(store: Store) -> None:
    first, second = _cursors(store, 2)
    webhook = make_webhook(cursor=first)
    store.webhooks.add(webhook)
    assert store.webhooks.advance(webhook.id, first, second)
    assert store.webhooks.get(webhook.id) == webhook.model_copy(update={"cursor": second})


def test_advance_from_another_cursor_fails_and_keeps_the_stored_one(store: Store) -> None:
    first, second, third = _cursors(store, 3)
    webhook = make_webhook(cursor=second)
    store.webhooks.add(webhook)
    assert not store.webhooks.advance(webhook.id, first, third)
    assert store.webhooks.get(webhook.id) == webhook


def test_advance_expecting_no_cursor_fails_once_one_is_stored(store: Store) -> None:
    first, second = _cursors(store, 2)
    webhook = make_webhook(cursor=first)
    store.webhooks.add(webhook)
    assert not store.webhooks.advance(webhook.id, None, second)
    assert store.webhooks.get(webhook.id) == webhook


def test_advance_expecting_a_cursor_fails_while_none_is_stored(store: Store) -> None:
    first, second = _cursors(store, 2)
    webhook = make_webhook()
    store.webhooks.add(webhook)
    assert not store.webhooks.advance(webhook.id, first, second)
    assert store.webhooks.get(webhook.id) == webhook


def test_the_second_advance_from_one_cursor_fails(store: Store) -> None:
    first, second, third = _cursors(store, 3)
    webhook = make_webhook(cursor=first)
    store.webhooks.add(webhook)
    assert store.webhooks.advance(webhook.id, first, second)
    assert not store.webhooks.advance(webhook.id, first, third)
    found = store.webhooks.get(webhook.id)
    assert found is not None
    assert found.cursor == second


def test_advance_of_an_unknown_webhook_fails(store: Store) -> None:
    (cursor,) = _cursors(store, 1)
    assert not store.webhooks.advance("nope", None, cursor)
    assert store.webhooks.get("nope") is None


def test_advance_moves_only_that_webhooks_cursor(store: Store) -> None:
    (cursor,) = _cursors(store, 1)
    first, second = make_webhook(webhook_id="a"), make_webhook(webhook_id="b")
    store.webhooks.add(first)
    store.webhooks.add(second)
    assert store.webhooks.advance("a", None, cursor)
    assert store.webhooks.get("b") == second


def test_of_concurrent_advances_from_one_cursor_one_succeeds(store: Store) -> None:
    cursors = _cursors(store, THREADS)
    webhook = make_webhook()
    store.webhooks.add(webhook)

    def advance(cursor: str) -> bool:
        return store.webhooks.advance(webhook.id, None, cursor)

    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(advance, cursors))
    assert results.count(True) == 1
    found = store.webhooks.get(webhook.id)
    assert found is not None
    assert found.cursor == cursors[results.index(True)]


# -- remove ------------------------------------------------------------------------------------


def test_remove_removes_the_webhook(store: Store) -> None:
    webhook = make_webhook()
    store.webhooks.add(webhook)
    assert store.webhooks.remove(webhook.id)
    assert store.webhooks.get(webhook.id) is None
    assert store.webhooks.find(0, 10) == []


def test_remove_removes_the_webhooks_deliveries(store: Store) -> None:
    webhook = make_webhook()
    store.webhooks.add(webhook)
    delivery = make_delivery(webhook.id)
    store.deliveries.add_many([delivery, make_delivery(webhook.id)])
    store.webhooks.remove(webhook.id)
    assert store.deliveries.get(webhook.id, delivery.event_id) is None
    assert store.deliveries.count(webhook.id) == 0
    assert store.deliveries.claim(at(10), at(20), "owner", 10) == []


def test_remove_keeps_another_webhooks_deliveries(store: Store) -> None:
    gone, kept = make_webhook(webhook_id="gone"), make_webhook(webhook_id="kept")
    store.webhooks.add(gone)
    store.webhooks.add(kept)
    delivery = make_delivery("kept")
    store.deliveries.add_many([make_delivery("gone", delivery.event_id), delivery])
    store.webhooks.remove("gone")
    assert store.webhooks.get("kept") == kept
    assert store.deliveries.of_webhook("kept", 0, 10) == [delivery]


def test_remove_of_an_unknown_webhook_is_false(store: Store) -> None:
    webhook = make_webhook()
    store.webhooks.add(webhook)
    assert not store.webhooks.remove("nope")
    assert store.webhooks.find(0, 10) == [webhook]


def test_a_removed_webhook_is_removed_once(store: Store) -> None:
    webhook = make_webhook()
    store.webhooks.add(webhook)
    assert store.webhooks.remove(webhook.id)
    assert not store.webhooks.remove(webhook.id)
