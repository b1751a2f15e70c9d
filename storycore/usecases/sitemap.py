"""What a sitemap names (docs/api.md#crawlers): the front page, each author of a public story
search engines may index, and each such story, in one stable order, read a slice at a time.

"Public and indexed" is the core's filter (``StoryQuery`` with ``indexed``), which storage
applies; what storage reads for it is the address and last change of each story and the
latest change of each author (``StoryRepository.addresses``, ``authors``), never whole
records. The order: the front page, the authors by id, then the stories by author and id; a
slice of it (a numbered sitemap) is read by offset in pages of ``READ_SIZE``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from ..model.queries import StoryQuery
from .context import Context

__all__ = ["READ_SIZE", "Sitemap", "SitemapEntry"]

#: The addresses read from storage at once.
READ_SIZE = 5_000


class SitemapEntry(NamedTuple):
    """An address a sitemap names: the front page (no username), an author's page (no slug)
    or a story's, with its last change (none for the front page)."""

    username: str | None = None
    slug: str | None = None
    updated: str | None = None


class Sitemap:
    """The addresses of the site's sitemaps."""

    def __init__(self, context: Context) -> None:
        self._ctx = context

    def size(self) -> int:
        """How many addresses the sitemap names."""
        stories = self._ctx.store.stories
        query = _indexed(0, 0)
        return 1 + stories.count_authors(query) + stories.count(query)

    def entries(
        self, offset: int, limit: int, *, read_size: int = READ_SIZE
    ) -> Iterator[SitemapEntry]:
        """The addresses from ``offset`` on, at most ``limit``, in the sitemap's order; an
        author or story gone between two reads is left out."""
        end = offset + limit
        if offset == 0 and end > 0:
            yield SitemapEntry()
        stories = self._ctx.store.stories
        usernames: dict[str, str] = {}  # read once for the authors and their stories
        authors = stories.count_authors(_indexed(0, 0))
        # the authors are at 1 to ``authors``, the stories after them
        first, last = max(offset - 1, 0), min(end - 1, authors)
        for start in range(first, last, read_size):
            taken = stories.authors(_indexed(start, min(read_size, last - start)))
            names = self._usernames([author.author_id for author in taken], usernames)
            for author in taken:
                if author.author_id in names:
                    yield SitemapEntry(names[author.author_id], None, author.updated)
        first, last = max(offset - 1 - authors, 0), end - 1 - authors
        for start in range(first, last, read_size):
            found = stories.addresses(_indexed(start, min(read_size, last - start)))
            if not found:
                return
            names = self._usernames([address.author_id for address in found], usernames)
            for address in found:
                if address.author_id in names:
                    yield SitemapEntry(names[address.author_id], address.slug, address.updated)

    def _usernames(self, user_ids: Sequence[str], known: dict[str, str]) -> dict[str, str]:
        """``known``, with the usernames of those of ``user_ids`` it lacks added to it."""
        missing = set(user_ids) - known.keys()
        if missing:
            profiles = self._ctx.store.users.profiles(missing)
            known.update((user_id, profile.username) for user_id, profile in profiles.items())
        return known


def _indexed(offset: int, limit: int) -> StoryQuery:
    """The stories a sitemap names: public (the query's audience) and indexed."""
    return StoryQuery(offset=offset, limit=limit, indexed=True)
