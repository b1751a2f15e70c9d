"""The figures storage keeps about stories and authors, each defined once here: a story's
popularity (docs/api.md#stories), the embed pages a story keeps (docs/api.md#limits) and an author's
stats.

Storage keeps them where lists and reads find them at once: popularity in a column that the
popular list sorts on through an index, a story's kept pages as rows, an author's stats as
counters kept by triggers (SQLite, PostgreSQL) or summed by an aggregation (MongoDB). What each
figure is, is stated here only. The core hands storage the values it writes (a record's
popularity, ``story_records``); a store calls ``popularity`` and ``pages_dropped`` where it
counts in place, inside its own transaction, so that concurrent counts lose nothing; and the
contract suite compares each backend's figures with these functions after a sequence of writes
(``tests/contract/test_counted_figures.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .records import AuthorStats, StoryRecord

__all__ = [
    "COMMENT_WEIGHT",
    "LIKE_WEIGHT",
    "author_stats",
    "by_loads",
    "pages_after",
    "pages_dropped",
    "popularity",
]

#: What one like and one comment weigh in a story's popularity; a view weighs 1.
LIKE_WEIGHT = 5
COMMENT_WEIGHT = 10


def popularity(views: int, likes: int = 0, comments: int = 0) -> int:
    """A story's popularity: ``views + 5 * likes + 10 * comments`` (docs/api.md#stories).

    A record carries it as a value the core computes when it sets the counters: 0 for a new
    story, the popularity of the restored counters for an imported one (``story_records``).
    After that the counters grow in place: views are counted in memory and added to the store
    as ``views = views + n`` (``StoryRepository.add_views``), so that processes counting the
    same story never overwrite each other, and the popularity grows beside them by
    ``popularity(n)``, additively too. The formula is linear, so what ``n`` more views add is
    ``popularity(n)`` whatever else the story holds, and a stored popularity that is the
    formula's stays so. Likes and comments change through no operation (they are 0 but where
    an import restored them): views are the only counter added to in place; one that was would
    add ``popularity(likes=n)`` the same way. ``replace`` never writes the popularity, as it
    never writes the counters it follows from.

    Changing the formula changes stored values, which no reindex recomputes (``replace`` keeps
    the counters): it needs a migration of each store.
    """
    return views + LIKE_WEIGHT * likes + COMMENT_WEIGHT * comments


def by_loads(pages: Mapping[str, int]) -> list[tuple[str, int]]:
    """A story's embed pages with their loads, most loads first, then by address: the order
    in which a story keeps them and ``StoryRepository.embeds`` answers them."""
    return sorted(pages.items(), key=lambda page: (-page[1], page[0]))


def pages_dropped(kept: Mapping[str, int], limit: int) -> list[str]:
    """The pages a story drops, of the ``kept`` pages and their loads, when a page it does not
    keep is loaded: every page after the first ``limit - 1`` by loads (``by_loads``), so that
    with the new one it keeps at most ``limit`` (docs/api.md#limits, ``Limits.embed_pages``).

    The new page is always kept: at the limit it takes the place of the least viewed page (the
    greatest address among equals), even of one with more loads than it, so that a page being
    loaded now is never dropped at its every first load. A story over a lowered limit comes
    back under it at its next new page.
    """
    return [href for href, _ in by_loads(kept)[max(limit - 1, 0) :]]


def pages_after(kept: Mapping[str, int], href: str, loads: int, limit: int) -> dict[str, int]:
    """The pages a story keeps, with their loads, after ``loads`` loads of ``href``: added to
    a kept page, or a new page kept in place of those ``pages_dropped`` names."""
    if href in kept:
        return {**kept, href: kept[href] + loads}
    dropped = set(pages_dropped(kept, limit))
    return {**{page: n for page, n in kept.items() if page not in dropped}, href: loads}


def author_stats(
    author_ids: Iterable[str], stories: Iterable[StoryRecord], embed_loads: Mapping[str, int]
) -> dict[str, AuthorStats]:
    """Each asked author's stats over ``stories`` (``StoryRepository.author_stats``): over their
    public stories only (published, not private), how many, their views, their embed loads
    (``embed_loads``: a story's loads of the pages it keeps, absent for none), the newest
    creation time, the newest feature time and the featured story ids, newest feature first
    (then by id, descending). An author without a public story has empty stats.
    """
    result = {author_id: AuthorStats() for author_id in author_ids}
    public = [story for story in stories if story.is_public and story.author_id in result]
    for story in sorted(public, key=lambda s: (s.featured_at or "", s.id), reverse=True):
        stats = result[story.author_id]
        stats.stories += 1
        stats.views += story.views
        stats.embeds += embed_loads.get(story.id, 0)
        stats.last_story = max(stats.last_story or story.created, story.created)
        if story.featured_at is not None:  # newest feature first
            stats.featured = stats.featured or story.featured_at
            stats.featured_stories.append(story.id)
    return result
