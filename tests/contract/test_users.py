"""UserRepository: users, unique usernames regardless of case, and their search tokens."""

from __future__ import annotations

import orjson
import pytest

from storycore.errors import DuplicateKey, Missing
from storycore.model.documents import record_json
from storycore.model.heads import ProfileFields
from storycore.model.records import UserRecord
from storycore.ports import Store, whole_record
from storycore.rules.searchtext import tokens
from tests.contract._factories import add_story, add_user, at, make_user, renamed


def _found(store: Store, query: str) -> list[str]:
    return [story.id for story in store.search.search(tokens(query), 0, 100)]


def test_an_added_user_reads_back_equal(store: Store) -> None:
    user = make_user("alice", name="Alice Liddell").model_copy(
        update={"password_hash": "scrypt$x", "plan": "enterprise", "editor": True,
                "bio": "bio", "last_seen": at(3)}
    )  # fmt: skip
    store.users.add(user)
    assert store.users.get(user.id) == user


def test_get_of_an_unknown_id_is_none(store: Store) -> None:
    add_user(store, "alice")
    assert store.users.get("nope") is None


@pytest.mark.parametrize("taken", ["alice", "ALICE", "Alice"])
def test_a_username_is_unique_regardless_of_case(store: Store, taken: str) -> None:
    add_user(store, "alice")
    with pytest.raises(DuplicateKey) as caught:
        store.users.add(make_user(taken))
    assert caught.value.key == "user.username"


def test_a_refused_user_is_not_stored(store: Store) -> None:
    first = add_user(store, "alice")
    second = make_user("ALICE")
    with pytest.raises(DuplicateKey, match=r"user\.username"):
        store.users.add(second)
    assert store.users.get(second.id) is None
    assert store.users.get_by_username("alice") == first
    assert store.users.find(0, 10) == [first]


@pytest.mark.parametrize("asked", ["alice", "ALICE", "aLiCe"])
def test_get_by_username_ignores_case(store: Store, asked: str) -> None:
    user = add_user(store, "Alice")
    assert store.users.get_by_username(asked) == user


def test_get_by_username_of_an_unknown_name_is_none(store: Store) -> None:
    add_user(store, "alice")
    assert store.users.get_by_username("alic") is None


def test_get_many_answers_the_existing_users_by_id(store: Store) -> None:
    alice = add_user(store, "alice")
    bob = add_user(store, "bob")
    add_user(store, "carol")
    found = store.users.get_many([alice.id, bob.id, alice.id, "unknown"])
    assert found == {alice.id: alice, bob.id: bob}


def test_get_many_takes_any_iterable_of_ids(store: Store) -> None:
    users = [add_user(store, name) for name in ("alice", "bob")]
    assert store.users.get_many(user.id for user in users) == {user.id: user for user in users}


def test_get_many_of_no_ids_is_empty(store: Store) -> None:
    add_user(store, "alice")
    assert store.users.get_many([]) == {}


def test_get_many_stored_answers_the_members_of_get_manys_users(store: Store) -> None:
    alice = add_user(store, "alice", name="Alice")
    bob = add_user(store, "bob")
    store.users.update(bob.id, {"bio": "builds", "last_seen": at(2)})
    records = store.users.get_many([alice.id, bob.id, "unknown"])
    stored = store.users.get_many_stored([alice.id, bob.id, "unknown"])
    assert sorted(stored) == sorted(records)
    # the same members in the same order: an answer made of either is the same JSON
    for user_id, record in records.items():
        expected = orjson.dumps(record.__dict__, default=record_json)
        assert orjson.dumps(stored[user_id], default=record_json) == expected
    assert store.users.get_many_stored([]) == {}


def test_profiles_answer_the_profile_members_of_existing_users_by_id(store: Store) -> None:
    alice = add_user(store, "alice", name="Alice \u00c9t\u00e9")
    bob = add_user(store, "bob")
    found = store.users.profiles([alice.id, bob.id, "unknown"])
    assert found == {alice.id: ProfileFields.of(alice), bob.id: ProfileFields.of(bob)}


def test_profiles_of_no_ids_is_empty(store: Store) -> None:
    add_user(store, "alice")
    assert store.users.profiles([]) == {}


def test_update_of_every_member_stores_the_new_record(store: Store) -> None:
    user = add_user(store, "alice")
    new = renamed(user, "Alice Pleasance").model_copy(update={"bio": "new", "can_feature": True})
    new.settings.notifications.digest = False
    new.cover_photo.url = "https://img.example/cover.png"
    store.users.update(user.id, whole_record(new))
    assert store.users.get(user.id) == new


def test_update_of_an_unknown_user_with_every_member_raises_missing(store: Store) -> None:
    user = make_user("alice")
    with pytest.raises(Missing):
        store.users.update(user.id, whole_record(user))
    assert store.users.get(user.id) is None


def test_get_by_username_follows_an_updated_username(store: Store) -> None:
    user = add_user(store, "alice")
    store.users.update(user.id, {"username": "Alicia"})
    assert store.users.get_by_username("alicia") == user.model_copy(update={"username": "Alicia"})
    assert store.users.get_by_username("alice") is None


def test_an_updated_username_frees_the_old_one(store: Store) -> None:
    user = add_user(store, "alice")
    store.users.update(user.id, {"username": "alicia"})
    newcomer = add_user(store, "Alice")
    assert store.users.get_by_username("alice") == newcomer


def test_an_update_may_keep_the_users_own_username_in_another_case(store: Store) -> None:
    user = add_user(store, "alice")
    store.users.update(user.id, {"username": "ALICE"})
    assert store.users.get_by_username("alice") == user.model_copy(update={"username": "ALICE"})


@pytest.mark.parametrize("taken", ["bob", "BOB"])
def test_an_update_to_another_users_username_raises_duplicate_username(
    store: Store, taken: str
) -> None:
    alice, bob = add_user(store, "alice"), add_user(store, "bob")
    with pytest.raises(DuplicateKey) as caught:
        store.users.update(alice.id, {"username": taken, "bio": "lost"})
    assert caught.value.key == "user.username"
    assert store.users.get(alice.id) == alice
    assert store.users.get_by_username("alice") == alice
    assert store.users.get_by_username("bob") == bob


def test_stories_match_the_authors_new_tokens_after_a_whole_update(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, title="Harbour")
    store.users.update(author.id, whole_record(renamed(author, "Alice Pleasance")))
    assert _found(store, "harbour pleasance") == [story.id]


def test_stories_no_longer_match_the_authors_old_tokens_after_a_whole_update(
    store: Store, author: UserRecord
) -> None:
    add_story(store, author.id, title="Harbour")
    store.users.update(author.id, whole_record(renamed(author, "Alice Pleasance")))
    assert _found(store, "liddell") == []


def test_updating_a_user_leaves_other_authors_stories(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    theirs = add_story(store, other_author.id, title="Harbour")
    store.users.update(author.id, whole_record(renamed(author, "Harbour Master")))
    assert _found(store, "builder") == [theirs.id]
    assert _found(store, "master") == []


def test_update_sets_the_named_members_and_keeps_the_others(store: Store) -> None:
    user = add_user(store, "alice", name="Alice")
    store.users.update(user.id, {"bio": "sailor", "last_seen": at(5)})
    assert store.users.get(user.id) == user.model_copy(update={"bio": "sailor", "last_seen": at(5)})


def test_updates_of_different_members_both_stay(store: Store) -> None:
    user = add_user(store, "alice")
    store.users.update(user.id, {"last_seen": at(5)})
    store.users.update(user.id, {"bio": "sailor"})
    stored = store.users.get(user.id)
    assert stored is not None
    assert (stored.last_seen, stored.bio) == (at(5), "sailor")


def test_update_of_an_unknown_user_raises_missing(store: Store) -> None:
    with pytest.raises(Missing):
        store.users.update("nope", {"bio": "x"})
    assert store.users.get("nope") is None


def test_stories_match_the_authors_new_tokens_after_update(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, title="Harbour")
    new = renamed(author, "Alice Pleasance")
    store.users.update(author.id, {"name": new.name, "search_tokens": new.search_tokens})
    assert _found(store, "harbour pleasance") == [story.id]
    assert _found(store, "liddell") == []


def test_find_orders_users_by_username_regardless_of_case(store: Store) -> None:
    for name in ("bob", "Dave", "alice", "Carol"):
        add_user(store, name)
    assert [user.username for user in store.users.find(0, 10)] == [
        "alice",
        "bob",
        "Carol",
        "Dave",
    ]


def test_find_is_sliced_by_offset_and_limit(store: Store) -> None:
    for name in ("bob", "Dave", "alice", "Carol", "erin"):
        add_user(store, name)
    assert [user.username for user in store.users.find(1, 2)] == ["bob", "Carol"]
    assert [user.username for user in store.users.find(4, 2)] == ["erin"]
    assert store.users.find(5, 2) == []


def test_found_users_are_the_stored_records(store: Store) -> None:
    user = add_user(store, "alice", name="Alice")
    assert store.users.find(0, 10) == [user]
