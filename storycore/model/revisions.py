"""Revisions: a story as it was before a change replaced it (decisions section 26).

A revision is taken by storage in the write that replaces the story (``StoryRepository.replace``
with a ``RevisionMark``), so a change without its revision never exists. It holds the stored
story as it was (its record and its elements in order) under the version it had, with when and
by whom it was replaced. The counters and the featured mark are not part of a revision: they are
the story's, whatever its content was (``KEPT_BY_REPLACE``).
"""

from __future__ import annotations

from typing import NamedTuple

from .records import Status, StoryRecord

__all__ = ["Revision", "RevisionHead", "RevisionMark"]


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
