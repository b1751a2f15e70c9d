"""Element generations on MongoDB: each write of a story's elements is a new generation.

An element is one document of ``elements`` (``story_id``, ``rev``: its generation, ``position``,
``element``: the element as stored). A story shows one generation (its ``elements_rev``) and a
revision the one its story showed (``_revisions``), so a generation is written whole before
anything refers to it and deleted only once nothing does.
"""

from __future__ import annotations

from collections.abc import Sequence

from pymongo import ASCENDING
from pymongo.collection import Collection

from storycore.rules.ids import new_id

from ._documents import Document

__all__ = ["read_generation", "write_generation"]


def write_generation(
    elements: Collection[Document], story_id: str, stored: Sequence[Document]
) -> str:
    """Store ``stored`` (elements as stored, in story order) as a new generation of the story's
    elements; its ``rev``."""
    rev = new_id()
    if stored:
        elements.insert_many(
            [
                {"story_id": story_id, "rev": rev, "position": at, "element": element}
                for at, element in enumerate(stored)
            ]
        )
    return rev


def read_generation(
    elements: Collection[Document], story_id: str, rev: str, offset: int, count: int
) -> list[Document]:
    """The elements (as stored) of generation ``rev`` from ``offset``, at most ``count``, in story
    order: fewer than asked when the generation was deleted meanwhile."""
    if count <= 0:
        return []
    page = elements.find(
        {"story_id": story_id, "rev": rev, "position": {"$gte": offset, "$lt": offset + count}},
        {"element": 1, "_id": 0},
        sort=[("position", ASCENDING)],
    )
    return [entry["element"] for entry in page]
