"""A story's elements on MongoDB: generations of element documents, one shown at a time.

Elements live in their own collection, one document per element, not inside the story: a
story may hold 1,000 elements of up to 20,000 characters each, over MongoDB's 16 MB document
limit, and every list and counter update would otherwise carry them all.

Each write of a story's elements inserts a new *generation* (a fresh ``rev``) beside the one
the story shows; the story is then switched to it in one update of the story document
(``elements_rev``, ``element_total``), and only then is the superseded generation deleted.
Whatever the story points at is complete before it points there; a crash leaves at most an
unreferenced generation, which no read reaches and which goes when the story is removed.

A read takes the story's generation, then one index range of it. When a concurrent write
switched the story and deleted that generation in between, the page comes back short of what
``element_total`` promised, and the read starts again from the story.
"""

from __future__ import annotations

from collections.abc import Sequence

from pymongo import ASCENDING
from pymongo.collection import Collection

from storycore.ids import new_id
from storycore.records import Element

from ._mongo_documents import Document, element_entry, entry_element

__all__ = ["ElementGenerations"]

_READ_ATTEMPTS = 5


class ElementGenerations:
    """The element generations of every story."""

    def __init__(self, elements: Collection[Document], stories: Collection[Document]) -> None:
        self._elements = elements
        self._stories = stories

    def write(self, story_id: str, elements: Sequence[Element]) -> str:
        """Store ``elements`` as a new generation of the story's elements; its ``rev``."""
        rev = new_id()
        if elements:
            self._elements.insert_many(
                [
                    element_entry(story_id, rev, position, element)
                    for position, element in enumerate(elements)
                ]
            )
        return rev

    def discard(self, story_id: str, rev: str) -> None:
        """Delete a generation that the story does not show (it was never switched to)."""
        self._elements.delete_many({"story_id": story_id, "rev": rev})

    def remove_all(self, story_id: str) -> None:
        """Delete every generation of a removed story."""
        self._elements.delete_many({"story_id": story_id})

    def page(self, story_id: str, offset: int, limit: int) -> list[Element]:
        """A slice of the elements the story shows, in story order."""
        found: list[Element] = []
        for _ in range(_READ_ATTEMPTS):
            story = self._stories.find_one(
                {"_id": story_id}, {"elements_rev": 1, "element_total": 1}
            )
            if story is None:
                return []
            expected = max(0, min(limit, story["element_total"] - offset))
            if expected == 0:
                return []
            documents = self._elements.find(
                {
                    "story_id": story_id,
                    "rev": story["elements_rev"],
                    "position": {"$gte": offset, "$lt": offset + expected},
                },
                {"element": 1, "_id": 0},
                sort=[("position", ASCENDING)],
            )
            found = [entry_element(document) for document in documents]
            if len(found) == expected:
                break
        return found
