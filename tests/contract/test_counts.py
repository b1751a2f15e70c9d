"""The ``count`` of a list, a search and the users: how many items every page of the same
query holds (docs/decisions.md, ``total=true``), whatever its offset, limit or order."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from storycore.model.queries import Audience, SortField, StoryQuery
from storycore.model.records import UserRecord
from storycore.ports import Store
from storycore.rules.searchtext import tokens
from tests.contract._factories import add_story, add_user, at, make_element


def _count_and_ids(store: Store, **query: Any) -> tuple[int, list[str]]:
    """The count of a query and the ids of all its stories, read on pages of two."""
    ids: list[str] = []
    while page := store.stories.find(StoryQuery(offset=len(ids), limit=2, **query)):
        ids += [head.id for head in page]
    counted = store.stories.count(StoryQuery(offset=3, limit=1, **query))
    return counted, ids


@pytest.fixture
def shelf(store: Store, author: UserRecord, other_author: UserRecord) -> None:
    """Stories of every visibility, tag, topic and feature."""
    href = "https://x.example/post/1"
    add_story(store, author.id, "a", hashtags=["python"], topics=["Science"], created=at(1))
    add_story(store, author.id, "b", hashtags=["python"], featured_at=at(2), created=at(2))
    add_story(store, author.id, "c", private=True, hashtags=["python"], created=at(3))
    add_story(store, author.id, "d", status="working", topics=["Science"], created=at(4))
    add_story(
        store, author.id, "e", elements=[make_element(kind="link", permalink=href)], created=at(5)
    )
    add_story(store, other_author.id, "a", hashtags=["python"], topics=["science"])


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"tag": "python"},
        {"topic": "science"},
        {"featured": True},
        {"containing_element": "https://x.example/post/1"},
        {"audience": "owner"},
        {"audience": "owner", "status": "working"},
        {"audience": "owner", "tag": "python"},
        {"author_id": "author"},
        {"tag": "nothing"},
    ],
    ids=repr,
)
def test_a_list_counts_the_stories_its_pages_hold(
    store: Store, author: UserRecord, shelf: None, query: dict[str, Any]
) -> None:
    if query.get("author_id") == "author" or query.get("audience") == "owner":
        query = {**query, "author_id": author.id}
    counted, ids = _count_and_ids(store, **query)
    assert counted == len(ids)


@pytest.mark.parametrize("audience", ["public", "owner"])
def test_a_count_follows_sort_and_order_in_nothing(
    store: Store, author: UserRecord, shelf: None, audience: Audience
) -> None:
    base = StoryQuery(offset=0, limit=1, audience=audience, author_id=author.id)
    sorts: tuple[SortField, ...] = ("published", "created", "title_key", "views")
    counts = {
        store.stories.count(replace(base, sort=sort, descending=descending))
        for sort in sorts
        for descending in (True, False)
    }
    assert len(counts) == 1


def test_a_search_counts_the_public_stories_every_page_holds(
    store: Store, author: UserRecord
) -> None:
    for number in range(5):
        add_story(store, author.id, f"fox-{number}", title="Red fox", published=at(number))
    add_story(store, author.id, "hidden", title="Red fox", private=True)
    add_story(store, author.id, "panda", title="Red panda")
    assert store.search.count(tokens("red fox")) == 5
    assert store.search.count(tokens("red")) == 6
    assert store.search.count(tokens("wolf")) == 0


def test_a_search_for_no_word_counts_nothing(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, title="Red fox")
    assert store.search.count([]) == 0


def test_the_users_are_counted(store: Store) -> None:
    before = store.users.count()
    for name in ("bob", "Dave", "alice"):
        add_user(store, name)
    assert store.users.count() == before + 3
