"""What a sitemap reads (docs/api.md#crawlers): ``StoryRepository.addresses``, ``authors`` and
``count_authors`` over a list query's filters, and the ``indexed`` filter of every list."""

from __future__ import annotations

import pytest

from storycore.model.heads import AuthorLatest, StoryAddress
from storycore.model.queries import StoryQuery
from storycore.model.records import StoryRecord, UserRecord
from storycore.ports import Store
from tests.contract._factories import add_story, at

#: The sitemap's query: public stories that search engines may index.
INDEXED = StoryQuery(offset=0, limit=100, indexed=True)


def _address(story: StoryRecord) -> StoryAddress:
    return StoryAddress(story.author_id, story.slug, story.updated)


def _in_order(stories: list[StoryRecord]) -> list[StoryAddress]:
    return [_address(s) for s in sorted(stories, key=lambda s: (s.author_id, s.id))]


@pytest.fixture
def listed(store: Store, author: UserRecord, other_author: UserRecord) -> list[StoryRecord]:
    """Public, indexed stories of both authors, and stories no sitemap names beside them."""
    add_story(store, author.id, "hidden", not_indexed=True, updated=at(50))
    add_story(store, author.id, "private", private=True, updated=at(51))
    add_story(store, author.id, "working", status="working", updated=at(52))
    return [
        add_story(store, author.id, "one", updated=at(3)),
        add_story(store, author.id, "two", updated=at(7)),
        add_story(store, other_author.id, "three", updated=at(5)),
    ]


def test_addresses_name_the_matching_stories_by_author_then_id(
    store: Store, listed: list[StoryRecord]
) -> None:
    assert store.stories.addresses(INDEXED) == _in_order(listed)


def test_addresses_without_the_indexed_filter_hold_not_indexed_stories(
    store: Store, listed: list[StoryRecord], author: UserRecord
) -> None:
    found = store.stories.addresses(StoryQuery(offset=0, limit=100))
    assert {a.slug for a in found} == {"one", "two", "three", "hidden"}


def test_addresses_are_sliced_by_offset_and_limit(store: Store, listed: list[StoryRecord]) -> None:
    pages = [
        store.stories.addresses(StoryQuery(offset=offset, limit=2, indexed=True))
        for offset in (0, 2, 4)
    ]
    assert pages == [_in_order(listed)[:2], _in_order(listed)[2:], []]


def test_the_indexed_filter_holds_for_find_and_count(
    store: Store, listed: list[StoryRecord]
) -> None:
    assert {head.slug for head in store.stories.find(INDEXED)} == {"one", "two", "three"}
    assert store.stories.count(INDEXED) == 3


def test_authors_name_each_author_of_a_matching_story_with_its_latest_change(
    store: Store, listed: list[StoryRecord], author: UserRecord, other_author: UserRecord
) -> None:
    expected = sorted([AuthorLatest(author.id, at(7)), AuthorLatest(other_author.id, at(5))])
    assert store.stories.authors(INDEXED) == expected
    assert store.stories.count_authors(INDEXED) == 2


def test_authors_are_sliced_by_offset_and_limit(store: Store, listed: list[StoryRecord]) -> None:
    everyone = store.stories.authors(INDEXED)
    pages = [
        store.stories.authors(StoryQuery(offset=offset, limit=1, indexed=True))
        for offset in (0, 1, 2)
    ]
    assert pages == [everyone[:1], everyone[1:], []]


def test_no_story_no_author(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, "hidden", not_indexed=True)
    assert (store.stories.addresses(INDEXED), store.stories.authors(INDEXED)) == ([], [])
    assert store.stories.count_authors(INDEXED) == 0
