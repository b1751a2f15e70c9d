"""What a store counts equals what the core defines (``storycore.model.counters``): after a
sequence of writes through the ports, each backend's popularity and popular order, the embed
pages it kept and its author stats are those the core's functions give for the same writes.

A store keeps these figures its own way, for speed (a sorted column, pruned rows, counters kept
by triggers or an aggregation): these tests hold every way to the one definition.
"""

from __future__ import annotations

from collections.abc import Iterable

from storycore.model.counters import author_stats, by_loads, pages_after, popularity
from storycore.model.queries import StoryQuery
from storycore.model.records import AuthorStats, EmbedCount, StoryRecord, UserRecord
from storycore.ports import Store
from tests.contract._factories import add_story, add_user, at, changed

Loads = dict[tuple[str, str], int]
Pages = dict[str, dict[str, int]]  # per story, the loads of each page kept


def _stored(store: Store, story_id: str) -> StoryRecord:
    found = store.stories.get(story_id)
    assert found is not None
    return found


def _counted(
    store: Store, expected: Pages, views: dict[str, int], loads: Loads, limit: int
) -> None:
    """``add_views`` of ``views`` and ``loads``, and what the core says the pages become."""
    for (story_id, href), n in loads.items():
        expected[story_id] = pages_after(expected.get(story_id, {}), href, n, limit)
    store.stories.add_views(dict(views), dict(loads), max_embed_pages=limit)


def _counted_story(
    store: Store, author_id: str, slug: str, views: int, likes: int, comments: int
) -> StoryRecord:
    """A public story stored with these counters and the popularity the core gives them."""
    return add_story(
        store,
        author_id,
        slug,
        story_id=slug,
        views=views,
        likes=likes,
        comments=comments,
        popularity=popularity(views, likes, comments),
    )


def test_popularity_and_the_popular_order_are_the_cores_after_views_are_counted(
    store: Store, author: UserRecord
) -> None:
    counters = {"a": (9, 0, 0), "b": (1, 2, 0), "c": (0, 0, 1), "d": (3, 1, 1), "e": (0, 0, 0)}
    for slug, (views, likes, comments) in counters.items():
        _counted_story(store, author.id, slug, views, likes, comments)
    store.stories.add_views({"b": 4, "c": 6, "e": 12}, {}, max_embed_pages=100)
    store.stories.add_views({"c": 1, "a": 2}, {}, max_embed_pages=100)
    stored = [_stored(store, slug) for slug in counters]
    assert [s.popularity for s in stored] == [
        popularity(s.views, s.likes, s.comments) for s in stored
    ]
    order = sorted(stored, key=lambda s: (popularity(s.views, s.likes, s.comments), s.id))
    popular = store.stories.find(StoryQuery(offset=0, limit=10, sort="popularity"))
    assert [head.id for head in popular] == [s.id for s in reversed(order)]


def _embeds(expected: Pages) -> dict[str, list[EmbedCount]]:
    return {
        story_id: [EmbedCount(href=href, views=n) for href, n in by_loads(pages)]
        for story_id, pages in expected.items()
        if pages
    }


def test_the_embed_pages_kept_are_the_cores_after_a_sequence_of_loads(
    store: Store, author: UserRecord
) -> None:
    one, two = (add_story(store, author.id, slug).id for slug in ("one", "two"))
    expected: Pages = {}
    page = "https://p.example/{}".format
    batches: list[Loads] = [
        {(one, page("a")): 3, (one, page("b")): 1, (two, page("a")): 1},
        {(one, page("c")): 1, (one, page("d")): 2, (one, page("b")): 4},
        {(one, page("e")): 1, (two, page("b")): 2, (two, page("c")): 2, (one, page("a")): 1},
        {(one, page("f")): 5, (one, page("g")): 1, (one, page("h")): 1},
    ]
    for loads in batches:
        views = {story_id: 1 for story_id, _ in loads}
        _counted(store, expected, views, loads, limit=3)
    assert store.stories.embeds([one, two]) == _embeds(expected)


def test_a_lowered_limit_keeps_the_pages_the_core_keeps(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id).id
    expected: Pages = {}
    loads = {(story, f"https://p.example/{n}"): n + 1 for n in range(6)}
    _counted(store, expected, {story: 21}, loads, limit=10)
    _counted(store, expected, {story: 1}, {(story, "https://new.example/"): 1}, limit=4)
    assert store.stories.embeds([story]) == _embeds(expected)


def _definition(store: Store, author_ids: Iterable[str]) -> dict[str, AuthorStats]:
    """The core's author stats over the stories and kept pages the store holds now."""
    stories = [story for story, _ in store.stories.iter_all()]
    embeds = store.stories.embeds(story.id for story in stories)
    loads = {story_id: sum(page.views for page in pages) for story_id, pages in embeds.items()}
    return author_stats(author_ids, stories, loads)


def test_author_stats_are_the_cores_after_a_sequence_of_writes(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    idle = add_user(store, "carol")
    ids = [author.id, other_author.id, idle.id]
    one = add_story(store, author.id, "one", views=3, created=at(1))
    two = add_story(store, author.id, "two", created=at(4), featured_at=at(2))
    hidden = add_story(store, author.id, "hidden", views=9, private=True, created=at(6))
    draft = add_story(store, author.id, "draft", status="working", published=None, views=4)
    gone = add_story(store, author.id, "gone", views=7, created=at(8))
    his = add_story(store, other_author.id, "his", views=5, created=at(2), featured_at=at(1))
    later = add_story(store, other_author.id, "later", status="working", published=None)
    expected: Pages = {}
    views = {one.id: 2, two.id: 1, hidden.id: 1, draft.id: 1, gone.id: 2, his.id: 3}
    loads = {(one.id, "https://a.example/"): 2, (one.id, "https://b.example/"): 1,
             (hidden.id, "https://a.example/"): 1, (gone.id, "https://a.example/"): 2,
             (his.id, "https://a.example/"): 4, (his.id, "https://b.example/"): 1,
             (his.id, "https://c.example/"): 1}  # fmt: skip
    _counted(store, expected, views, loads, limit=2)
    store.stories.replace(changed(hidden, [], private=False), expected_version=hidden.version)
    store.stories.replace(changed(two, [], status="working"), expected_version=two.version)
    store.stories.replace(
        changed(later, [], status="published", published=at(9)), expected_version=later.version
    )
    store.stories.set_featured(one.id, at(5))
    store.stories.set_featured(his.id, None)
    store.stories.remove(gone.id)
    _counted(
        store,
        expected,
        {hidden.id: 2, later.id: 1},
        {(hidden.id, "https://b.example/"): 2, (later.id, "https://a.example/"): 1},
        limit=2,
    )
    assert store.stories.author_stats(ids) == _definition(store, ids)
