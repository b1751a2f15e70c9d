"""Search on MongoDB: each story's ``search`` array, a multikey index, and ``$all``.

A story's ``search`` holds its own search words (kept apart in ``search_tokens``, as the core
derived them) and its author's (``author_tokens``, copied in), so "every word, each in the story
or in its author" is one ``$all`` over one array, the same on mongomock and a real server.

The author's tokens are copied with the version they have on the user (``tokens_version``).
Every write of a story's ``search`` is a single-document update that either reads the author's
tokens from the document itself or is conditional on their version, and a copy of newer tokens
never gives way to a copy of older ones; so concurrent writes of a user and of their stories
end with every story holding the user's latest tokens, whichever order they land in.
"""

from __future__ import annotations

from collections.abc import Sequence

from pymongo import DESCENDING
from pymongo.collection import Collection

from storycore.ports import SearchIndex
from storycore.records import StoryRecord

from ._mongo_documents import STORY, Document, story_record

__all__ = ["MongoSearch", "copy_author_tokens", "search_array"]


def search_array(story_tokens: Sequence[str], author_tokens: Sequence[str]) -> list[str]:
    """The ``search`` array of a story with these tokens by an author with those."""
    return list(dict.fromkeys([*story_tokens, *author_tokens]))


def copy_author_tokens(
    stories: Collection[Document],
    author_id: str,
    tokens: Sequence[str],
    version: int,
    *,
    story_id: str | None = None,
) -> None:
    """Give the author's stories (or one of them) version ``version`` of the author's tokens,
    where they hold an older one; each story in one atomic update that keeps its own tokens.
    """
    selector: Document = {"author_id": author_id, "author_tokens_version": {"$lt": version}}
    if story_id is not None:
        selector["_id"] = story_id
    given = {"$literal": list(tokens)}
    stories.update_many(
        selector,
        [
            {
                "$set": {
                    "author_tokens": given,
                    "author_tokens_version": {"$literal": version},
                    "search": {"$setUnion": ["$search_tokens", given]},
                }
            }
        ],
    )


class MongoSearch(SearchIndex):
    """Public stories holding every word, newest publication first."""

    def __init__(self, stories: Collection[Document]) -> None:
        self._stories = stories

    def search(self, words: Sequence[str], offset: int, limit: int) -> list[StoryRecord]:
        if not words or limit <= 0:
            return []
        found = self._stories.find(
            {"public": True, "search": {"$all": list(words)}},
            STORY,
            sort=[("published", DESCENDING), ("_id", DESCENDING)],
            skip=offset,
            limit=limit,
        )
        return [story_record(document) for document in found]
