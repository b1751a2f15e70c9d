"""Revisions on MongoDB: a story as it was before each replacement (docs/api.md#revisions).

No transaction joins a revision to its change, so the story document itself says which
revisions exist: its ``revisions`` field lists them, oldest first, as entries
``{version, id, elements}`` (the revision document's ``_id``, and the element generation the
revision shows). A revision document (collection ``revisions``: ``story_id``, ``version``,
``replaced``, ``by``, ``title``, ``status``, ``element_total``, ``elements_rev``, ``record``)
that no entry names exists for no read. ``StoryRepository.replace`` with a ``RevisionMark``
whose ``keep`` is above 0 goes:

1. write the new elements, if any, as a new generation (as without revisions);
2. read the story whole: its record as stored, what the update is conditional on, its entries;
3. write the revision document under a fresh id: the record as read (the counters and
   ``featured_at`` left out), the mark, and the generation the story shows, which the revision
   keeps instead of a copy of its elements;
4. when the story lists ``COLLECT_AT`` or more unnamed documents and generations (below),
   delete them;
5. the story's one update, conditional on the story as read (its version, ..., and its entries),
   which sets the new members and elements, the entries with the new one (over one at its
   version) cut to the newest ``keep``, and the list of what nothing names any more: the
   revision documents of the entries cut off and the generations neither the story nor an
   entry names (``unnamed_revisions``, ``unnamed_elements``), with what it listed unless 4
   deleted that.

A change and the entry of its revision are one single-document write (5), so neither is ever
without the other. A crash before it leaves a revision document no entry names, unseen like an
unshown generation; a refused replacement (``StaleVersion``, ``Missing``, ``DuplicateKey``)
deletes the document it wrote. Two replacements of one version each write a document of their
own, and only the winner's is named: keyed by (story, version), the loser's document could
replace the winner's, with the loser's ``replaced`` and ``by``. The update matched the story as
read, so what it leaves unnamed is known exactly, and is never named again (ids are fresh).
Listing it rather than deleting it after the update saves two round trips on most saves (a
save of new elements keeping a revision makes as many as one without), and a crash loses
nothing: what is listed is deleted before the update that stops listing it, and deleting again
does nothing. A save without a mark (or with ``keep`` 0) writes as before revisions, deleting
what the story lists first and the generation it replaces, when no entry names it, after its
update.

Reads start from the story's entries, then fetch what those name; a document or generation
that a replacement cut off meanwhile comes back missing or short, and the read starts again
from the story. ``remove`` deletes the story first (or makes it a tombstone, which no read
sees), then its revision documents and its elements. An import (``add_many``) writes a
generation and a document, then adds the entry in one update conditional on the story having
none at that version; a replacement that read the entries before then matches nothing and
reads again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from storycore.errors import DuplicateKey, Missing
from storycore.model.records import element_document, element_of, trusted_element, trusted_story
from storycore.model.revisions import Revision, RevisionHead, RevisionMark
from storycore.ports import KEPT_BY_REPLACE, RevisionRepository
from storycore.rules.ids import new_id

from ._documents import STORY, Document
from ._elements import read_generation, write_generation
from ._outbox import live
from ._schema import Collections

__all__ = [
    "COLLECT_AT",
    "READ_WHOLE",
    "MongoRevisions",
    "Unnamed",
    "collect_unnamed",
    "entries_after",
    "entry_of",
    "revision_document",
]

_ATTEMPTS = 5  # reads started again when a replacement cut off what they were reading
#: How many unnamed documents and generations a story lists before a save deletes them.
COLLECT_AT = 10
# What a replacement that keeps a revision reads of its story: the record and the rest.
READ_WHOLE = {
    **STORY.fields,
    **dict.fromkeys(
        (
            "elements_rev",
            "element_total",
            "author_tokens",
            "author_tokens_version",
            "revisions",
            "unnamed_revisions",
            "unnamed_elements",
        ),
        1,
    ),
}
# The members a revision leaves at their defaults: the story's own, whatever its content.
_NOT_KEPT = KEPT_BY_REPLACE - {"author_id"}
_HEAD = dict.fromkeys(("version", "replaced", "by", "title", "status", "element_total"), 1)


def revision_document(revision_id: str, found: Document, mark: RevisionMark) -> Document:
    """The revision of the story ``found`` (read through ``READ_WHOLE``), replaced as ``mark``
    says: its record without the members it does not keep, and the generation it shows."""
    record = {name: found[name] for name in STORY.fields if name in found}
    for name in _NOT_KEPT:
        record.pop(name, None)
    return {
        "_id": revision_id,
        "story_id": found["_id"],
        "version": found["version"],
        "replaced": mark.replaced,
        "by": mark.by,
        "title": found["title"],
        "status": found["status"],
        "element_total": found["element_total"],
        "elements_rev": found["elements_rev"],
        "record": {"id": found["_id"], **record},
    }


def entry_of(revision: Document) -> Document:
    """The entry that names ``revision`` in its story's ``revisions``."""
    version, elements = revision["version"], revision["elements_rev"]
    return {"version": version, "id": revision["_id"], "elements": elements}


def entries_after(before: Sequence[Document], entry: Document, keep: int) -> list[Document]:
    """A story's entries once ``entry`` joins ``before`` (over one at its version), the newest
    ``keep`` of them."""
    joined = [*(kept for kept in before if kept["version"] != entry["version"]), entry]
    return sorted(joined, key=lambda kept: int(kept["version"]))[-keep:]


@dataclass(frozen=True, slots=True)
class Unnamed:
    """Revision documents and element generations of one story that nothing names any more
    (by their ids), as its document lists them (``unnamed_revisions``, ``unnamed_elements``)
    until a save deletes them."""

    revisions: frozenset[str] = frozenset()
    elements: frozenset[str] = frozenset()

    @classmethod
    def listed(cls, found: Document) -> Unnamed:
        """What the story ``found`` lists."""
        return cls(
            frozenset(found.get("unnamed_revisions", ())),
            frozenset(found.get("unnamed_elements", ())),
        )

    def __or__(self, other: Unnamed) -> Unnamed:
        return Unnamed(self.revisions | other.revisions, self.elements | other.elements)

    def __len__(self) -> int:
        return len(self.revisions) + len(self.elements)

    def fields(self) -> Document:
        """The story's fields that list these."""
        return {
            "unnamed_revisions": sorted(self.revisions),
            "unnamed_elements": sorted(self.elements),
        }

    def delete(self, collections: Collections, story_id: str) -> None:
        """Delete these (again: deleting what is gone does nothing); nothing when none."""
        if self.revisions:
            collections.revisions.delete_many(
                {"story_id": story_id, "_id": {"$in": sorted(self.revisions)}}
            )
        if self.elements:
            collections.elements.delete_many(
                {"story_id": story_id, "rev": {"$in": sorted(self.elements)}}
            )


def unnamed_by(
    found: Document, elements_rev: str, after: Sequence[Document], written: str
) -> Unnamed:
    """What nothing names once the story ``found`` (as read) shows generation ``elements_rev``
    and entries ``after``, the revision ``written`` (or none: "") written for it: the revision
    documents of the entries it leaves out (the new one's included, when it is older than every
    one kept), and the generations that neither the story nor an entry names any more."""
    before = found.get("revisions", ())
    kept_ids = {kept["id"] for kept in after}
    candidates = [*(gone["id"] for gone in before), *([written] if written else [])]
    named = {elements_rev, *(kept["elements"] for kept in after)}
    shown = {found["elements_rev"], *(gone["elements"] for gone in before)}
    return Unnamed(
        frozenset(revision_id for revision_id in candidates if revision_id not in kept_ids),
        frozenset(shown - named),
    )


def collect_unnamed(
    collections: Collections,
    found: Document,
    elements_rev: str,
    after: Sequence[Document],
    written: str,
) -> tuple[Document, Unnamed]:
    """For the update that switches the story ``found`` (as read) to generation ``elements_rev``
    and entries ``after`` (``written``: the revision written for it, or ""): the fields it sets
    to list what nothing names (none when the story lists nothing and is to list nothing), and
    what to delete once it is made.

    A save that keeps a revision lists what it leaves unnamed, for a later save to delete; one
    that finds ``COLLECT_AT`` or more listed deletes them first. A save that keeps none deletes
    what the story lists first and what it leaves unnamed once made, as before revisions. What
    is listed is unnamed already, so it is deleted before the update that stops listing it.
    """
    was_listed = Unnamed.listed(found)
    listed, left = was_listed, unnamed_by(found, elements_rev, after, written)
    keeping = bool(written)
    if not keeping or len(listed) >= COLLECT_AT:
        listed.delete(collections, found["_id"])
        listed = Unnamed()
    if keeping:
        listed, left = listed | left, Unnamed()
    return (listed.fields() if listed or was_listed else {}), left


def _head(found: Document) -> RevisionHead:
    return RevisionHead(
        found["version"],
        found["replaced"],
        found["by"],
        found["title"],
        found["status"],
        found["element_total"],
    )


def _revision(found: Document, stored: Iterable[Document]) -> Revision:
    return Revision(
        found["story_id"],
        found["version"],
        found["replaced"],
        found["by"],
        trusted_story(found["record"]),
        tuple(element_document(trusted_element(element)) for element in stored),
    )


class MongoRevisions(RevisionRepository):
    """A story's revisions: the entries of its document, and the documents they name."""

    def __init__(self, collections: Collections) -> None:
        self._stories, self._revisions = live(collections.stories), collections.revisions
        self._elements = collections.elements

    def _entries(self, story_id: str) -> list[Document] | None:
        """The story's entries, oldest first; None without the story."""
        found = self._stories.find_one({"_id": story_id}, {"revisions": 1})
        return None if found is None else list(found.get("revisions", ()))

    def _named(
        self, story_id: str, entries: Sequence[Document], fields: Document | None
    ) -> list[Document]:
        """The documents ``entries`` name (``fields`` of each, or all), in their order, but
        those gone meanwhile."""
        ids = [entry["id"] for entry in entries]
        found = self._revisions.find({"story_id": story_id, "_id": {"$in": ids}}, fields)
        by_id = {revision["_id"]: revision for revision in found}
        return [by_id[revision_id] for revision_id in ids if revision_id in by_id]

    def heads(self, story_id: str, offset: int, limit: int) -> list[RevisionHead]:
        found: list[Document] = []
        for _ in range(_ATTEMPTS):
            newest_first = (self._entries(story_id) or [])[::-1]
            wanted = newest_first[max(offset, 0) :][: max(limit, 0)]
            if not wanted:
                return []
            found = self._named(story_id, wanted, _HEAD)
            if len(found) == len(wanted):
                break
        return [_head(revision) for revision in found]

    def count(self, story_id: str) -> int:
        return len(self._entries(story_id) or ())

    def get(self, story_id: str, version: int) -> Revision | None:
        for _ in range(_ATTEMPTS):
            entries = self._entries(story_id) or []
            named = [entry for entry in entries if entry["version"] == version]
            if not named:
                return None
            found = self._revisions.find_one({"story_id": story_id, "_id": named[0]["id"]})
            if found is None:
                continue
            total = found["element_total"]
            stored = read_generation(self._elements, story_id, found["elements_rev"], 0, total)
            if len(stored) == total:
                return _revision(found, stored)
        return None

    def of_story(self, story_id: str) -> list[Revision]:
        for _ in range(_ATTEMPTS):
            entries = self._entries(story_id) or []
            found = self._named(story_id, entries, None)
            if len(found) != len(entries):
                continue
            generations = sorted({revision["elements_rev"] for revision in found})
            stored: dict[str, list[Document]] = {}
            for element in self._elements.find(
                {"story_id": story_id, "rev": {"$in": generations}},
                {"rev": 1, "element": 1, "_id": 0},
                sort=[("rev", 1), ("position", 1)],
            ):
                stored.setdefault(element["rev"], []).append(element["element"])
            whole = [stored.get(revision["elements_rev"], []) for revision in found]
            if all(len(got) == r["element_total"] for got, r in zip(whole, found, strict=True)):
                return [_revision(r, got) for r, got in zip(found, whole, strict=True)]
        return []

    def add_many(self, revisions: Iterable[Revision]) -> int:
        """One by one, each as the module docstring says: the revisions before a failure stay."""
        count = 0
        for revision in revisions:
            self._add(revision)
            count += 1
        return count

    def _add(self, revision: Revision) -> None:
        story_id, version = revision.story_id, revision.version
        self._refuse_if_taken(story_id, version)
        stored = [element_of(document).model_dump() for document in revision.elements]
        found = {
            "_id": new_id(),
            "story_id": story_id,
            "version": version,
            "replaced": revision.replaced,
            "by": revision.by,
            "title": revision.record.title,
            "status": revision.record.status,
            "element_total": len(stored),
            "elements_rev": write_generation(self._elements, story_id, stored),
            "record": revision.record.model_dump(),
        }
        self._revisions.insert_one(found)
        free = {"_id": story_id, "revisions.version": {"$ne": version}}
        added = {"$push": {"revisions": {"$each": [entry_of(found)], "$sort": {"version": 1}}}}
        if self._stories.update_one(free, added).matched_count == 0:
            self._revisions.delete_one({"story_id": story_id, "_id": found["_id"]})
            self._elements.delete_many({"story_id": story_id, "rev": found["elements_rev"]})
            self._refuse_if_taken(story_id, version)  # removed or taken meanwhile: which?
            raise DuplicateKey("revision")

    def _refuse_if_taken(self, story_id: str, version: int) -> None:
        """``Missing`` without the story, ``DuplicateKey`` when it has a revision at
        ``version``."""
        entries = self._entries(story_id)
        if entries is None:
            raise Missing("story")
        if any(entry["version"] == version for entry in entries):
            raise DuplicateKey("revision")
