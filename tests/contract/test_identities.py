"""IdentityRepository: a provider identity linked to the user made for it."""

from __future__ import annotations

import pytest

from storycore.errors import DuplicateKey
from storycore.ports import Store
from tests.contract._factories import add_user, make_user


def test_add_user_stores_the_user(store: Store) -> None:
    user = make_user("alice", name="Alice")
    store.identities.add_user("provider", "42", user)
    assert store.users.get(user.id) == user


def test_add_user_links_the_identity_to_the_user(store: Store) -> None:
    user = make_user("alice")
    store.identities.add_user("provider", "42", user)
    assert store.identities.get("provider", "42") == user.id


def test_get_of_an_unlinked_identity_is_none(store: Store) -> None:
    store.identities.add_user("provider", "42", make_user("alice"))
    assert store.identities.get("provider", "43") is None
    assert store.identities.get("other", "42") is None


def test_one_external_id_at_two_providers_is_two_identities(store: Store) -> None:
    first, second = make_user("alice"), make_user("bob")
    store.identities.add_user("one", "42", first)
    store.identities.add_user("two", "42", second)
    assert store.identities.get("one", "42") == first.id
    assert store.identities.get("two", "42") == second.id


def test_add_user_with_a_taken_username_raises_duplicate_username(store: Store) -> None:
    add_user(store, "alice")
    with pytest.raises(DuplicateKey) as caught:
        store.identities.add_user("provider", "42", make_user("Alice"))
    assert caught.value.key == "user.username"


def test_add_user_refused_for_its_username_stores_nothing(store: Store) -> None:
    add_user(store, "alice")
    user = make_user("Alice")
    with pytest.raises(DuplicateKey, match=r"user\.username"):
        store.identities.add_user("provider", "42", user)
    assert store.users.get(user.id) is None
    assert store.identities.get("provider", "42") is None


def test_add_user_for_a_linked_identity_raises_duplicate_identity(store: Store) -> None:
    store.identities.add_user("provider", "42", make_user("alice"))
    with pytest.raises(DuplicateKey, match="identity"):
        store.identities.add_user("provider", "42", make_user("bob"))


def test_add_user_refused_for_a_linked_identity_stores_nothing(store: Store) -> None:
    first = make_user("alice")
    store.identities.add_user("provider", "42", first)
    second = make_user("bob")
    with pytest.raises(DuplicateKey, match="identity"):
        store.identities.add_user("provider", "42", second)
    assert store.users.get(second.id) is None
    assert store.users.get_by_username("bob") is None
    assert store.identities.get("provider", "42") == first.id
