"""The figures storage keeps, as the core defines them: popularity (docs/api.md#stories), the
embed pages a story keeps (docs/api.md#limits) and an author's stats."""

from __future__ import annotations

from typing import Any

from storycore.model.counters import author_stats, pages_after, pages_dropped, popularity
from storycore.model.records import AuthorStats, StoryRecord

NOW = "2026-11-22T10:15:30.123Z"


def _at(minute: int) -> str:
    return f"2026-11-22T10:{minute:02}:00.000Z"


def _story(story_id: str, author_id: str = "u1", **members: Any) -> StoryRecord:
    base: dict[str, Any] = {
        "id": story_id,
        "author_id": author_id,
        "title": "T",
        "slug": story_id,
        "status": "published",
        "created": NOW,
        "updated": NOW,
        "published": NOW,
    }
    return StoryRecord(**{**base, **members})


# -- popularity ----------------------------------------------------------------------------------


def test_popularity_is_views_plus_five_likes_plus_ten_comments() -> None:
    assert popularity(views=7, likes=2, comments=3) == 7 + 10 + 30


def test_a_story_nobody_read_has_no_popularity() -> None:
    assert popularity(views=0) == 0


def test_the_popularity_views_add_is_the_popularity_of_those_views() -> None:
    before = popularity(views=4, likes=1, comments=2)
    assert popularity(views=4 + 3, likes=1, comments=2) == before + popularity(views=3)


# -- the embed pages a story keeps ---------------------------------------------------------------


def test_a_story_under_the_limit_drops_no_page_for_a_new_one() -> None:
    assert pages_dropped({"https://a.example/": 3}, limit=3) == []


def test_a_new_page_at_the_limit_drops_the_least_viewed_the_greatest_address_among_equals() -> None:
    kept = {"https://a.example/": 2, "https://b.example/": 1, "https://c.example/": 1}
    assert pages_dropped(kept, limit=3) == ["https://c.example/"]


def test_a_story_over_a_lowered_limit_drops_every_page_beyond_it() -> None:
    kept = {f"https://p.example/{n}": n + 1 for n in range(5)}
    assert pages_dropped(kept, limit=3) == ["https://p.example/2", "https://p.example/1",
                                            "https://p.example/0"]  # fmt: skip


def test_loads_of_a_kept_page_are_added_to_it_dropping_none() -> None:
    kept = {"https://a.example/": 1, "https://b.example/": 1}
    assert pages_after(kept, "https://b.example/", 2, limit=2) == {
        "https://a.example/": 1,
        "https://b.example/": 3,
    }


def test_a_new_page_is_kept_even_when_every_kept_page_has_more_loads() -> None:
    kept = {"https://a.example/": 5, "https://b.example/": 4}
    assert pages_after(kept, "https://c.example/", 1, limit=2) == {
        "https://a.example/": 5,
        "https://c.example/": 1,
    }


def test_pages_after_leaves_the_pages_it_is_given_as_they_are() -> None:
    kept = {"https://a.example/": 5}
    pages_after(kept, "https://c.example/", 1, limit=1)
    assert kept == {"https://a.example/": 5}


# -- author stats --------------------------------------------------------------------------------


def test_author_stats_hold_every_asked_author() -> None:
    stats = author_stats(["u1", "u2"], [_story("s1")], {})
    assert stats["u2"] == AuthorStats()
    assert set(stats) == {"u1", "u2"}


def test_author_stats_count_public_stories_their_views_and_kept_embed_loads() -> None:
    stories = [
        _story("s1", views=3),
        _story("s2", views=4),
        _story("hidden", views=100, private=True),
        _story("draft", views=1000, status="working", published=None),
    ]
    loads = {"s1": 2, "hidden": 50, "draft": 70}
    stats = author_stats(["u1"], stories, loads)["u1"]
    assert (stats.stories, stats.views, stats.embeds) == (2, 7, 2)


def test_author_stats_last_story_is_the_newest_public_creation() -> None:
    stories = [
        _story("old", created=_at(1)),
        _story("new", created=_at(3)),
        _story("hidden", created=_at(5), private=True),
    ]
    assert author_stats(["u1"], stories, {})["u1"].last_story == _at(3)


def test_author_stats_list_public_featured_stories_newest_feature_first_then_by_id() -> None:
    stories = [
        _story("a", featured_at=_at(1)),
        _story("b", featured_at=_at(3)),
        _story("c", featured_at=_at(3)),
        _story("d"),
        _story("e", featured_at=_at(9), private=True),
    ]
    stats = author_stats(["u1"], stories, {})["u1"]
    assert (stats.featured, stats.featured_stories) == (_at(3), ["c", "b", "a"])


def test_author_stats_keep_authors_apart() -> None:
    stories = [_story("s1", "u1", views=2), _story("s2", "u2", views=5)]
    stats = author_stats(["u1", "u2"], stories, {"s2": 1})
    assert (stats["u1"].views, stats["u2"].views, stats["u2"].embeds) == (2, 5, 1)
