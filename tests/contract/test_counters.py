"""StoryRepository counters: add_views (and count_view, one view), embeds and author_stats."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from storycore.model.derived import story_words
from storycore.model.records import AuthorStats, EmbedCount, StoryRecord, UserRecord
from storycore.ports import Store
from tests.contract._factories import add_story, add_user, at, changed, count_view, make_story

THREADS = 4
VIEWS_PER_THREAD = 50


def _stored(store: Store, story: StoryRecord) -> StoryRecord:
    found = store.stories.get(story.id)
    assert found is not None
    return found


# -- add_views -----------------------------------------------------------------------------


def test_add_views_adds_each_storys_counts_and_its_pages_loads(
    store: Store, author: UserRecord
) -> None:
    first = add_story(store, author.id, slug="first", views=3, popularity=3)
    second = add_story(store, author.id, slug="second")
    page = "https://blog.example/post"
    store.stories.add_views(
        {first.id: 5, second.id: 2}, {(second.id, page): 2}, max_embed_pages=100
    )
    store.stories.add_views({second.id: 1}, {(second.id, page): 1}, max_embed_pages=100)
    assert (_stored(store, first).views, _stored(store, first).popularity) == (8, 8)
    assert _stored(store, second).views == 3
    assert store.stories.embeds([second.id]) == {second.id: [EmbedCount(href=page, views=3)]}


def test_add_views_skips_a_story_that_is_gone(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    store.stories.add_views(
        {"gone": 4, story.id: 1}, {("gone", "https://blog.example/x"): 4}, max_embed_pages=100
    )
    assert _stored(store, story).views == 1
    assert store.stories.embeds(["gone"]) == {}


# -- count_view ----------------------------------------------------------------------------


def test_count_view_adds_one_view_and_one_popularity_point(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, views=3, popularity=13, likes=2)
    count_view(store, story.id)
    after = _stored(store, story)
    assert (after.views, after.popularity, after.likes) == (4, 14, 2)


def test_count_view_changes_nothing_else(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    count_view(store, story.id)
    assert _stored(store, story) == story.model_copy(update={"views": 1, "popularity": 1})


def test_count_view_counts_only_that_story(store: Store, author: UserRecord) -> None:
    seen = add_story(store, author.id, "seen")
    unseen = add_story(store, author.id, "unseen")
    count_view(store, seen.id)
    assert _stored(store, unseen).views == 0


def test_count_view_without_a_page_counts_no_embed(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    count_view(store, story.id)
    assert store.stories.embeds([story.id]) == {}


def test_count_view_with_a_page_counts_an_embed_load_of_it(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    for _ in range(3):
        count_view(store, story.id, "https://page.example/a")
    assert store.stories.embeds([story.id]) == {
        story.id: [EmbedCount(href="https://page.example/a", views=3)]
    }


def test_count_view_with_a_page_also_counts_a_view(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    count_view(store, story.id, "https://page.example/a")
    after = _stored(store, story)
    assert (after.views, after.popularity) == (1, 1)


def test_concurrent_views_are_all_counted(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)

    def view(_: int) -> None:
        for _ in range(VIEWS_PER_THREAD):
            count_view(store, story.id, "https://page.example/")

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(view, range(THREADS)))
    total = THREADS * VIEWS_PER_THREAD
    after = _stored(store, story)
    assert (after.views, after.popularity) == (total, total)
    assert store.stories.embeds([story.id])[story.id] == [
        EmbedCount(href="https://page.example/", views=total)
    ]


# -- the bound on pages (docs/api.md#limits) -----------------------------------------------


def test_count_view_keeps_at_most_100_pages_of_a_story_the_most_viewed(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    once = [f"https://once.example/{n:03}" for n in range(100)]
    often = [f"https://often.example/{n:02}" for n in range(50)]
    for href in once:
        count_view(store, story.id, href)
    for href in often:  # 50 more pages, each loaded three times
        for _ in range(3):
            count_view(store, story.id, href)
    assert store.stories.embeds([story.id])[story.id] == [
        *(EmbedCount(href=href, views=3) for href in often),
        *(EmbedCount(href=href, views=1) for href in once[:50]),
    ]
    assert _stored(store, story).views == 250  # every load is still a view


def test_a_new_page_replaces_the_least_viewed_page_last_by_address(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    for href in ["https://a.example/", "https://a.example/", "https://b.example/",
                 "https://c.example/", "https://d.example/"]:  # fmt: skip
        count_view(store, story.id, href, max_embed_pages=3)
    assert store.stories.embeds([story.id])[story.id] == [
        EmbedCount(href="https://a.example/", views=2),
        EmbedCount(href="https://b.example/", views=1),
        EmbedCount(href="https://d.example/", views=1),
    ]


def test_a_new_page_is_kept_even_when_every_kept_page_has_more_views(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    for href in ["https://a.example/", "https://b.example/"] * 2 + ["https://c.example/"]:
        count_view(store, story.id, href, max_embed_pages=2)
    assert store.stories.embeds([story.id])[story.id] == [
        EmbedCount(href="https://a.example/", views=2),
        EmbedCount(href="https://c.example/", views=1),
    ]


def test_a_kept_page_is_counted_at_the_limit_without_dropping_any(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    for href in ["https://a.example/", "https://b.example/", "https://b.example/"]:
        count_view(store, story.id, href, max_embed_pages=2)
    assert store.stories.embeds([story.id])[story.id] == [
        EmbedCount(href="https://b.example/", views=2),
        EmbedCount(href="https://a.example/", views=1),
    ]


def test_a_new_page_brings_a_story_over_a_lowered_limit_back_under_it(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    for n in range(5):
        for _ in range(n + 1):
            count_view(store, story.id, f"https://page.example/{n}")
    count_view(store, story.id, "https://new.example/", max_embed_pages=3)
    assert store.stories.embeds([story.id])[story.id] == [
        EmbedCount(href="https://page.example/4", views=5),
        EmbedCount(href="https://page.example/3", views=4),
        EmbedCount(href="https://new.example/", views=1),
    ]


def test_an_authors_embed_loads_are_those_of_the_pages_kept(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    for href in ["https://a.example/", "https://a.example/", "https://b.example/",
                 "https://c.example/"]:  # fmt: skip
        count_view(store, story.id, href, max_embed_pages=2)
    kept = store.stories.embeds([story.id])[story.id]
    assert store.stories.author_stats([author.id])[author.id].embeds == 3
    assert sum(page.views for page in kept) == 3
    assert _stored(store, story).views == 4


def test_the_page_bound_is_per_story(store: Store, author: UserRecord) -> None:
    one = add_story(store, author.id, "one")
    two = add_story(store, author.id, "two")
    for story in (one, two):
        for href in ["https://a.example/", "https://b.example/"]:
            count_view(store, story.id, href, max_embed_pages=2)
    embeds = store.stories.embeds([one.id, two.id])
    assert [len(embeds[one.id]), len(embeds[two.id])] == [2, 2]


# -- embeds --------------------------------------------------------------------------------


def test_embeds_are_ordered_by_views_then_address(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    for href, views in [("https://c.example/", 1), ("https://b.example/", 2),
                        ("https://d.example/", 2), ("https://a.example/", 1)]:  # fmt: skip
        for _ in range(views):
            count_view(store, story.id, href)
    assert store.stories.embeds([story.id])[story.id] == [
        EmbedCount(href="https://b.example/", views=2),
        EmbedCount(href="https://d.example/", views=2),
        EmbedCount(href="https://a.example/", views=1),
        EmbedCount(href="https://c.example/", views=1),
    ]


def test_embeds_are_kept_per_story(store: Store, author: UserRecord) -> None:
    one = add_story(store, author.id, "one")
    two = add_story(store, author.id, "two")
    count_view(store, one.id, "https://page.example/")
    count_view(store, two.id, "https://page.example/")
    count_view(store, two.id, "https://page.example/")
    assert store.stories.embeds([one.id, two.id]) == {
        one.id: [EmbedCount(href="https://page.example/", views=1)],
        two.id: [EmbedCount(href="https://page.example/", views=2)],
    }


def test_embeds_answer_only_the_asked_stories(store: Store, author: UserRecord) -> None:
    asked = add_story(store, author.id, "asked")
    other = add_story(store, author.id, "other")
    for story in (asked, other):
        count_view(store, story.id, "https://page.example/")
    assert set(store.stories.embeds([asked.id])) == {asked.id}


def test_stories_without_embeds_are_absent_from_embeds(store: Store, author: UserRecord) -> None:
    embedded = add_story(store, author.id, "embedded")
    plain = add_story(store, author.id, "plain")
    count_view(store, embedded.id, "https://page.example/")
    assert set(store.stories.embeds([embedded.id, plain.id, "unknown"])) == {embedded.id}


def test_embeds_take_any_iterable_of_ids(store: Store, author: UserRecord) -> None:
    stories = [add_story(store, author.id, f"s{n}") for n in range(3)]
    for story in stories:
        count_view(store, story.id, "https://page.example/")
    assert set(store.stories.embeds(story.id for story in stories)) == {s.id for s in stories}


def test_embeds_of_no_story_are_empty(store: Store) -> None:
    assert store.stories.embeds([]) == {}


# -- author_stats --------------------------------------------------------------------------


def test_every_asked_author_is_in_author_stats(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    add_story(store, author.id)
    stats = store.stories.author_stats([author.id, other_author.id, "unknown"])
    assert set(stats) == {author.id, other_author.id, "unknown"}
    assert stats[other_author.id] == stats["unknown"] == AuthorStats()


def test_author_stats_take_any_iterable_of_ids(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    stats = store.stories.author_stats(user.id for user in (author, other_author))
    assert set(stats) == {author.id, other_author.id}


def test_author_stats_of_no_author_are_empty(store: Store) -> None:
    assert store.stories.author_stats([]) == {}


def test_author_stats_count_public_stories(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, "one")
    add_story(store, author.id, "two")
    add_story(store, author.id, "private", private=True)
    add_story(store, author.id, "working", status="working")
    assert store.stories.author_stats([author.id])[author.id].stories == 2


def test_author_stats_sum_the_views_of_public_stories(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, "one", views=3)
    counted = add_story(store, author.id, "two", views=4)
    count_view(store, counted.id)
    add_story(store, author.id, "private", private=True, views=100)
    add_story(store, author.id, "working", status="working", views=1000)
    assert store.stories.author_stats([author.id])[author.id].views == 8


def test_author_stats_sum_the_embed_loads_of_public_stories(
    store: Store, author: UserRecord
) -> None:
    one = add_story(store, author.id, "one")
    two = add_story(store, author.id, "two")
    hidden = add_story(store, author.id, "private", private=True)
    for story, href in [(one, "https://a.example/"), (one, "https://b.example/"),
                        (two, "https://a.example/"), (hidden, "https://a.example/")]:  # fmt: skip
        count_view(store, story.id, href)
    assert store.stories.author_stats([author.id])[author.id].embeds == 3


def test_author_stats_last_story_is_the_newest_public_creation(
    store: Store, author: UserRecord
) -> None:
    add_story(store, author.id, "old", created=at(1))
    add_story(store, author.id, "new", created=at(3))
    add_story(store, author.id, "private", created=at(5), private=True)
    add_story(store, author.id, "working", created=at(6), status="working")
    assert store.stories.author_stats([author.id])[author.id].last_story == at(3)


def test_author_stats_featured_is_the_newest_feature_time(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, "old", featured_at=at(2))
    newer = add_story(store, author.id, "new")
    add_story(store, author.id, "plain")
    store.stories.set_featured(newer.id, at(7))
    assert store.stories.author_stats([author.id])[author.id].featured == at(7)


def test_author_stats_list_featured_stories_newest_feature_first(
    store: Store, author: UserRecord
) -> None:
    first = add_story(store, author.id, "first", story_id="c", featured_at=at(1))
    add_story(store, author.id, "plain", story_id="b")
    last = add_story(store, author.id, "last", story_id="a", featured_at=at(3))
    middle = add_story(store, author.id, "middle", story_id="d")
    store.stories.set_featured(middle.id, at(2))
    stats = store.stories.author_stats([author.id])[author.id]
    assert stats.featured_stories == [last.id, middle.id, first.id]


def test_author_stats_list_only_public_featured_stories(store: Store, author: UserRecord) -> None:
    shown = add_story(store, author.id, "shown", featured_at=at(1))
    add_story(store, author.id, "private", featured_at=at(2), private=True)
    add_story(store, author.id, "working", featured_at=at(3), status="working")
    assert store.stories.author_stats([author.id])[author.id].featured_stories == [shown.id]


def test_author_stats_keep_authors_apart(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    add_story(store, author.id, "mine", views=2, created=at(1), featured_at=at(4))
    theirs = add_story(store, other_author.id, "theirs", views=5, created=at(2))
    count_view(store, theirs.id, "https://page.example/")
    third = add_user(store, "carol")
    stats = store.stories.author_stats([author.id, other_author.id, third.id])
    assert stats[other_author.id] == AuthorStats(
        stories=1, views=6, embeds=1, last_story=at(2), featured=None, featured_stories=[]
    )
    assert stats[third.id] == AuthorStats()


# -- author_stats through a story's life (kept as counters where the store keeps them) ------


def _public_figures(store: Store, author_id: str) -> tuple[int, int, int]:
    stats = store.stories.author_stats([author_id])[author_id]
    return stats.stories, stats.views, stats.embeds


def test_author_stats_count_a_story_with_its_views_once_it_becomes_public(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, status="working", published=None, views=5)
    count_view(store, story.id, "https://page.example/")
    assert _public_figures(store, author.id) == (0, 0, 0)
    store.stories.replace(
        changed(story, [], status="published", published=at(2)), expected_version=story.version
    )
    assert _public_figures(store, author.id) == (1, 6, 1)


def test_author_stats_drop_a_story_that_stops_being_public(
    store: Store, author: UserRecord
) -> None:
    add_story(store, author.id, "kept", views=2)
    story = add_story(store, author.id, "hidden", views=5)
    count_view(store, story.id, "https://page.example/")
    store.stories.replace(changed(story, [], private=True), expected_version=story.version)
    assert _public_figures(store, author.id) == (1, 2, 0)


def test_author_stats_keep_a_public_story_replaced_as_it_was(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, views=5)
    count_view(store, story.id, "https://page.example/")
    store.stories.replace(changed(story, [], title="Renamed"), expected_version=story.version)
    assert _public_figures(store, author.id) == (1, 6, 1)


def test_author_stats_drop_a_removed_story_with_its_views_and_embed_loads(
    store: Store, author: UserRecord
) -> None:
    add_story(store, author.id, "kept", views=2)
    story = add_story(store, author.id, "removed", views=5)
    count_view(store, story.id, "https://page.example/")
    store.stories.remove(story.id)
    assert _public_figures(store, author.id) == (1, 2, 0)


def test_author_stats_count_the_public_stories_loaded_together(
    store: Store, author: UserRecord
) -> None:
    loaded = [
        make_story(author.id, "one", views=3),
        make_story(author.id, "two", views=4),
        make_story(author.id, "hidden", views=100, private=True),
    ]
    store.stories.add_many((story, [], story_words(story, [])) for story in loaded)
    assert _public_figures(store, author.id) == (2, 7, 0)
