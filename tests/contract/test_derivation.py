"""Store.derivation: the store remembers the derivation version the core recorded, and only that."""

from __future__ import annotations

from storycore.model.records import UserRecord
from storycore.ports import Store
from tests.contract._factories import add_story


def test_a_new_store_knows_no_derivation(store: Store) -> None:
    assert store.derivation() is None


def test_a_recorded_derivation_reads_back(store: Store) -> None:
    store.set_derivation(3)
    assert store.derivation() == 3


def test_a_recorded_derivation_replaces_the_one_before_it(store: Store) -> None:
    store.set_derivation(3)
    store.set_derivation(5)
    store.set_derivation(4)
    assert store.derivation() == 4


def test_writing_records_leaves_the_derivation_unrecorded(store: Store, author: UserRecord) -> None:
    add_story(store, author.id)
    assert store.derivation() is None


def test_writing_records_leaves_a_recorded_derivation_as_it_is(
    store: Store, author: UserRecord
) -> None:
    store.set_derivation(2)
    add_story(store, author.id)
    assert store.derivation() == 2
