"""Revisions: a story as it was before a change replaced it (docs/api.md#revisions).

A revision is taken by storage in the write that replaces the story (``StoryRepository.replace``
with a ``RevisionMark``), so a change without its revision never exists. It holds the stored
story as it was (its record and its elements in order) under the version it had, with when and
by whom it was replaced. The counters and the featured mark are not part of a revision: they are
the story's, whatever its content was (``KEPT_BY_REPLACE``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .records import Status, StoryRecord, element_of, trusted_element, trusted_story

__all__ = [
    "STORY_OWN",
    "Revision",
    "RevisionHead",
    "RevisionMark",
    "revision_document",
    "revision_from",
    "revision_record",
]

#: The members that are the story's whatever its content was: its counters and featured mark.
#: A revision holds them at their defaults; a replacement keeps them as stored
#: (``storycore.ports.KEPT_BY_REPLACE``).
STORY_OWN = frozenset(
    {"views", "likes", "comments", "element_comments", "popularity", "featured_at"}
)


class RevisionMark(NamedTuple):
    """What a replacement records with the revision it keeps: when the story was replaced
    (``replaced``), by whom (``by``, a user id) and how many revisions the story keeps at most
    (``keep``, ``Settings.limits.revisions``), the oldest going first; 0 keeps none.
    """

    replaced: str
    by: str
    keep: int


class RevisionHead(NamedTuple):
    """What a list of a story's revisions shows of one (newest first)."""

    version: int
    replaced: str
    by: str
    title: str
    status: Status
    elements: int


class Revision(NamedTuple):
    """One revision whole: the story as it was at ``version`` (its ``record``, with the
    members ``KEPT_BY_REPLACE`` but ``author_id`` at their defaults) and its element documents
    (``element_document``) in story order.
    """

    story_id: str
    version: int
    replaced: str
    by: str
    record: StoryRecord
    elements: tuple[str, ...]

    @property
    def head(self) -> RevisionHead:
        """What a list shows of this revision."""
        record = self.record
        return RevisionHead(
            self.version, self.replaced, self.by, record.title, record.status, len(self.elements)
        )


def revision_record(story: StoryRecord) -> StoryRecord:
    """``story``'s record as a revision holds it: ``STORY_OWN`` at their defaults."""
    fields = StoryRecord.model_fields
    return story.model_copy(update={name: fields[name].get_default() for name in STORY_OWN})


def revision_document(revision: Revision) -> dict[str, Any]:
    """A revision as an export carries it beside its story: when and by whom it was replaced,
    the story as it was (its version in ``record``) and its elements, each as the element shape
    (so an export is the same bytes whichever store it was read from)."""
    return {
        "replaced": revision.replaced,
        "by": revision.by,
        "record": _in_field_order(revision.record.model_dump(mode="json")),
        "elements": [
            element_of(document).model_dump(mode="json") for document in revision.elements
        ],
    }


def _in_field_order(record: dict[str, Any]) -> dict[str, Any]:
    """A dumped record's members in the model's order, however a store rebuilt it (a record
    rebuilt without validation keeps the order of the data it was given)."""
    return {name: record[name] for name in StoryRecord.model_fields if name in record}


def revision_from(document: dict[str, Any]) -> Revision:
    """The revision of a checked ``revision_document``, trusted as it was checked."""
    record = trusted_story(document["record"])
    elements = tuple(trusted_element(e).model_dump_json() for e in document["elements"])
    return Revision(
        record.id, record.version, document["replaced"], document["by"], record, elements
    )
