"""StoryRepository.find: visibility, filters, the total order of every sort key, paging."""

from __future__ import annotations

from typing import Any

import pytest

from storycore.model.queries import SORT_KEYS, Audience, SortField, StoryQuery
from storycore.model.records import Status, UserRecord
from storycore.ports import Store
from tests.contract._factories import add_story, at, changed, count_view, heads, make_element

SORTS: list[SortField] = [*SORT_KEYS.values(), "featured_at"]


def _ids(store: Store, **query: Any) -> list[str]:
    """The ids ``find`` answers, on one page of up to 100."""
    return [story.id for story in store.stories.find(StoryQuery(offset=0, limit=100, **query))]


def _sorted_by(field: SortField, rank: int) -> dict[str, Any]:
    """Story members that give ``field`` its ``rank``-th smallest value."""
    if field in ("views", "popularity"):
        return {field: rank}
    if field == "title_key":
        return {"title": f"Title {'abcdefgh'[rank]}"}
    return {field: at(rank)}


def test_find_answers_the_heads_of_the_stories_it_finds(store: Store, author: UserRecord) -> None:
    stories = [
        add_story(store, author.id, "plain", created=at(4)),
        add_story(
            store,
            author.id,
            "described",
            description="D \u00e9",
            thumbnail="https://a.example/t.png",
            created=at(3),
        ),
        add_story(
            store,
            author.id,
            "covered",
            cover="https://a.example/c.png",
            title='"Quoted"',
            created=at(2),
        ),
        add_story(store, author.id, "private", private=True, created=at(1)),
    ]
    found = store.stories.find(StoryQuery(offset=0, limit=100, sort="created", audience="owner"))
    assert found == heads(stories)
    assert all(type(head.private) is bool for head in found)


# -- visibility ----------------------------------------------------------------------------


@pytest.fixture
def visibilities(store: Store, author: UserRecord) -> dict[str, str]:
    """One story of each visibility, by name: their ids."""
    return {
        "public": add_story(store, author.id, "public").id,
        "private": add_story(store, author.id, "private", private=True).id,
        "working": add_story(store, author.id, "working", status="working").id,
        "working-private": add_story(
            store, author.id, "working-private", status="working", private=True
        ).id,
    }


def test_the_default_query_holds_public_stories_only(
    store: Store, visibilities: dict[str, str]
) -> None:
    assert _ids(store) == [visibilities["public"]]


@pytest.mark.parametrize(
    ("audience", "status", "expected"),
    [
        ("public", None, {"public"}),
        ("owner", None, {"public", "private", "working", "working-private"}),
        ("owner", "published", {"public", "private"}),
        ("owner", "working", {"working", "working-private"}),
    ],
)
def test_the_audience_and_status_choose_the_visible_stories(
    store: Store,
    visibilities: dict[str, str],
    audience: Audience,
    status: Status | None,
    expected: set[str],
) -> None:
    found = _ids(store, audience=audience, status=status)
    assert sorted(found) == sorted(visibilities[name] for name in expected)


def test_a_story_replaced_as_working_leaves_the_public_list(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    store.stories.replace(changed(story, [], status="working"), expected_version=story.version)
    assert _ids(store) == []


def test_a_story_replaced_as_private_leaves_the_public_list(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    store.stories.replace(changed(story, [], private=True), expected_version=story.version)
    assert _ids(store) == []


def test_a_story_replaced_as_published_joins_the_public_list(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, status="working")
    published = changed(story, [], status="published", published=at(5))
    store.stories.replace(published, expected_version=story.version)
    assert _ids(store) == [story.id]


# -- filters -------------------------------------------------------------------------------


def test_author_id_keeps_the_authors_stories(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    mine = add_story(store, author.id, "mine")
    add_story(store, other_author.id, "theirs")
    assert _ids(store, author_id=author.id) == [mine.id]


def test_slug_keeps_the_stories_at_that_slug(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    mine = add_story(store, author.id, "tale", story_id="a")
    theirs = add_story(store, other_author.id, "tale", story_id="b")
    add_story(store, author.id, "other")
    assert _ids(store, slug="tale") == [theirs.id, mine.id]


def test_slug_does_not_follow_aliases(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "old")
    store.stories.replace(changed(story, [], slug="new"), expected_version=story.version)
    assert _ids(store, slug="old") == []


def test_tag_keeps_the_stories_with_that_tag(store: Store, author: UserRecord) -> None:
    given = add_story(store, author.id, "given", hashtags=["python"], created=at(2))
    written = add_story(
        store, author.id, "written", elements=[make_element("about #Python")], created=at(1)
    )
    add_story(store, author.id, "other", hashtags=["rust"])
    assert _ids(store, tag="python") == [given.id, written.id]


def test_topic_keeps_the_stories_of_that_topic(store: Store, author: UserRecord) -> None:
    science = add_story(store, author.id, "science", topics=["Science", "Space"])
    add_story(store, author.id, "sport", topics=["Sport"])
    assert _ids(store, topic="science") == [science.id]


def test_containing_element_keeps_the_stories_holding_that_element(
    store: Store, author: UserRecord
) -> None:
    href = "https://x.example/post/1"
    holder = add_story(
        store,
        author.id,
        "holder",
        elements=[make_element("a"), make_element("b", kind="quote", permalink=href)],
    )
    add_story(store, author.id, "other", elements=[make_element(kind="link", permalink=href + "0")])
    assert _ids(store, containing_element=href) == [holder.id]


def test_featured_keeps_featured_stories(store: Store, author: UserRecord) -> None:
    given = add_story(store, author.id, "given", featured_at=at(1))
    marked = add_story(store, author.id, "marked")
    add_story(store, author.id, "plain")
    store.stories.set_featured(marked.id, at(2))
    assert _ids(store, featured=True, sort="featured_at") == [marked.id, given.id]


def test_an_unfeatured_story_leaves_the_featured_list(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, featured_at=at(1))
    store.stories.set_featured(story.id, None)
    assert _ids(store, featured=True) == []


def test_filters_keep_only_visible_stories(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, "private", hashtags=["python"], private=True)
    add_story(store, author.id, "working", hashtags=["python"], status="working")
    assert _ids(store, tag="python", author_id=author.id) == []


def test_filters_combine(store: Store, author: UserRecord, other_author: UserRecord) -> None:
    both = add_story(store, author.id, "both", hashtags=["python"], topics=["Science"])
    add_story(store, author.id, "tag-only", hashtags=["python"])
    add_story(store, author.id, "topic-only", topics=["Science"])
    add_story(store, other_author.id, "both", hashtags=["python"], topics=["Science"])
    assert _ids(store, author_id=author.id, tag="python", topic="science") == [both.id]


def test_filters_follow_a_replace(store: Store, author: UserRecord) -> None:
    old_href, new_href = "https://x.example/old", "https://x.example/new"
    elements = [make_element(kind="link", permalink=old_href)]
    story = add_story(store, author.id, hashtags=["old"], topics=["Past"], elements=elements)
    new_elements = [make_element(kind="link", permalink=new_href)]
    new = changed(story, new_elements, hashtags=["new"], topics=["Future"])
    store.stories.replace(new, expected_version=story.version, elements=new_elements)
    assert _ids(store, tag="old") == _ids(store, topic="past") == []
    assert _ids(store, containing_element=old_href) == []
    assert _ids(store, tag="new") == _ids(store, topic="future") == [story.id]
    assert _ids(store, containing_element=new_href) == [story.id]


def test_find_on_an_empty_store_is_empty(store: Store) -> None:
    assert _ids(store, audience="owner") == []


# -- order ---------------------------------------------------------------------------------

# (id, rank): ids are not in the order of ranks, and "a" and "d" tie.
_RANKED = [("a", 2), ("b", 3), ("c", 1), ("d", 2)]


@pytest.mark.parametrize("field", SORTS)
def test_descending_order_is_by_the_sort_key_then_id_descending(
    store: Store, author: UserRecord, field: SortField
) -> None:
    for story_id, rank in _RANKED:
        add_story(store, author.id, f"s-{story_id}", story_id=story_id, **_sorted_by(field, rank))
    assert _ids(store, sort=field, descending=True) == ["b", "d", "a", "c"]


@pytest.mark.parametrize("field", SORTS)
def test_ascending_order_is_by_the_sort_key_then_id_ascending(
    store: Store, author: UserRecord, field: SortField
) -> None:
    for story_id, rank in _RANKED:
        add_story(store, author.id, f"s-{story_id}", story_id=story_id, **_sorted_by(field, rank))
    assert _ids(store, sort=field, descending=False) == ["c", "a", "d", "b"]


def test_title_order_ignores_case_and_accents(store: Store, author: UserRecord) -> None:
    for story_id, title in [("a", "cherry"), ("b", "Banana"), ("c", "Ápple")]:
        add_story(store, author.id, f"s-{story_id}", story_id=story_id, title=title)
    assert _ids(store, sort="title_key", descending=False) == ["c", "b", "a"]


# (id, rank or None): "b" and "d" have no value.
_WITH_NULLS = [("a", 1), ("b", None), ("c", 2), ("d", None)]


def _add_with_nulls(store: Store, author_id: str, field: SortField) -> None:
    for story_id, rank in _WITH_NULLS:
        members: dict[str, Any] = _sorted_by(field, rank) if rank is not None else {field: None}
        status = "published" if field != "published" or rank is not None else "working"
        add_story(store, author_id, f"s-{story_id}", story_id=story_id, status=status, **members)


@pytest.mark.parametrize("field", ["published", "featured_at"])
def test_stories_without_a_sort_value_come_last_when_descending(
    store: Store, author: UserRecord, field: SortField
) -> None:
    _add_with_nulls(store, author.id, field)
    found = _ids(store, sort=field, descending=True, audience="owner")
    assert found == ["c", "a", "d", "b"]


@pytest.mark.parametrize("field", ["published", "featured_at"])
def test_stories_without_a_sort_value_come_first_when_ascending(
    store: Store, author: UserRecord, field: SortField
) -> None:
    _add_with_nulls(store, author.id, field)
    found = _ids(store, sort=field, descending=False, audience="owner")
    assert found == ["b", "d", "a", "c"]


def test_views_order_follows_counted_views(store: Store, author: UserRecord) -> None:
    quiet = add_story(store, author.id, "quiet", story_id="b")
    loud = add_story(store, author.id, "loud", story_id="a")
    count_view(store, loud.id)
    for field in ("views", "popularity"):
        assert _ids(store, sort=field) == [loud.id, quiet.id]


# -- paging --------------------------------------------------------------------------------


@pytest.mark.parametrize("descending", [True, False])
def test_pages_walk_every_story_exactly_once(
    store: Store, author: UserRecord, descending: bool
) -> None:
    views = [3, 1, 3, 2, 3, 1, 2, 3]
    for n, count in enumerate(views):
        add_story(store, author.id, f"s{n}", story_id=f"id{(n * 5) % 8}", views=count)
    whole = _ids(store, sort="views", descending=descending)
    pages = [
        store.stories.find(StoryQuery(offset=offset, limit=3, sort="views", descending=descending))
        for offset in range(0, 12, 3)
    ]
    walked = [story.id for page in pages for story in page]
    assert [len(page) for page in pages] == [3, 3, 2, 0]
    assert walked == whole
    assert sorted(walked) == sorted(f"id{n}" for n in range(8))


def test_limit_caps_the_answer(store: Store, author: UserRecord) -> None:
    for n in range(4):
        add_story(store, author.id, f"s{n}", created=at(n))
    found = store.stories.find(StoryQuery(offset=1, limit=2, sort="created"))
    assert [story.slug for story in found] == ["s2", "s1"]


def test_found_heads_are_those_of_the_stored_records(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, elements=[make_element("x")], views=4, featured_at=at(1))
    assert store.stories.find(StoryQuery(offset=0, limit=10)) == heads([story])
