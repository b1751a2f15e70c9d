"""Revisions on SQLite (migration 11): a row of ``revisions`` per revision, its elements rows
of ``revision_elements``. ``SQLiteStories.replace`` takes them; this reads them and stores
those an import brings.

A revision's ``record`` is stored as its story's is, without ``author_id``: a story never
changes author, so a revision's is its story's, read from the story's row.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from itertools import groupby
from operator import itemgetter
from typing import Any

import orjson

from storycore.errors import DuplicateKey, Missing, StorageError
from storycore.model.records import trusted_story
from storycore.model.revisions import Revision, RevisionHead
from storycore.ports import RevisionRepository

from ._connection import Repository

__all__ = ["SQLiteRevisions"]

#: A revision whole, one row per element (none for a revision without elements), in order.
_WHOLE = (
    "SELECT r.version, r.replaced, r.replaced_by, r.record, s.author_id, e.record"
    " FROM stories s JOIN revisions r ON r.story_rowid = s.rowid"
    " LEFT JOIN revision_elements e ON e.story_rowid = r.story_rowid AND e.version = r.version"
    " WHERE s.id = ?{where} ORDER BY r.version, e.position"
)


class SQLiteRevisions(Repository, RevisionRepository):
    """Revisions by story and version, each read in one statement (one snapshot)."""

    def heads(self, story_id: str, offset: int, limit: int) -> list[RevisionHead]:
        rows = self._db.rows(
            "SELECT r.version, r.replaced, r.replaced_by, r.title, r.status, r.elements"
            " FROM stories s JOIN revisions r ON r.story_rowid = s.rowid WHERE s.id = ?"
            " ORDER BY r.version DESC LIMIT ? OFFSET ?",
            (story_id, max(limit, 0), max(offset, 0)),
        )
        return [RevisionHead._make(row) for row in rows]

    def count(self, story_id: str) -> int:
        row = self._db.row(
            "SELECT count(*) FROM revisions"
            " WHERE story_rowid = (SELECT rowid FROM stories WHERE id = ?)",
            (story_id,),
        )
        return int(row[0]) if row else 0

    def get(self, story_id: str, version: int) -> Revision | None:
        rows = self._db.rows(_WHOLE.format(where=" AND r.version = ?"), (story_id, version))
        found = _revisions(story_id, rows)
        return found[0] if found else None

    def of_story(self, story_id: str) -> list[Revision]:
        return _revisions(story_id, self._db.rows(_WHOLE.format(where=""), (story_id,)))

    def add_many(self, revisions: Iterable[Revision]) -> int:
        """In one transaction, each checked before it is written: on a refusal the revisions
        before it are committed, and it is not stored at all."""
        count = 0
        refused: StorageError | None = None
        with self._db.write() as conn:
            for revision in revisions:
                refused = _refusal(conn, revision)
                if refused is not None:
                    break
                _insert(conn, revision)
                count += 1
        if refused is not None:
            raise refused
        return count


def _refusal(conn: sqlite3.Connection, revision: Revision) -> StorageError | None:
    """Why ``revision`` cannot be stored, or None."""
    found = conn.execute(
        "SELECT s.rowid, r.version FROM stories s LEFT JOIN revisions r"
        " ON r.story_rowid = s.rowid AND r.version = ? WHERE s.id = ?",
        (revision.version, revision.story_id),
    ).fetchone()
    if found is None:
        return Missing("story")
    if found[1] is not None:
        return DuplicateKey("revision")
    return None


def _insert(conn: sqlite3.Connection, revision: Revision) -> None:
    """Store ``revision``, whose story is stored and has none at its version."""
    record = revision.record
    conn.execute(
        "INSERT INTO revisions"
        " (story_rowid, version, replaced, replaced_by, title, status, elements, record)"
        " SELECT rowid, ?, ?, ?, ?, ?, ?, ? FROM stories WHERE id = ?",
        (
            revision.version,
            revision.replaced,
            revision.by,
            record.title,
            record.status,
            len(revision.elements),
            record.model_dump_json(exclude={"author_id"}),
            revision.story_id,
        ),
    )
    conn.executemany(
        "INSERT INTO revision_elements (story_rowid, version, position, record)"
        " SELECT rowid, ?, ?, ? FROM stories WHERE id = ?",
        [
            (revision.version, position, document, revision.story_id)
            for position, document in enumerate(revision.elements)
        ],
    )


def _revisions(story_id: str, rows: Iterable[tuple[Any, ...]]) -> list[Revision]:
    """The revisions of ``_WHOLE``'s rows (one a version and element), in their order."""
    found: list[Revision] = []
    for version, group in groupby(rows, key=itemgetter(0)):
        parts = list(group)
        _, replaced, by, record, author_id, _ = parts[0]
        data = orjson.loads(record)
        data["author_id"] = author_id
        elements = tuple(part[5] for part in parts if part[5] is not None)
        found.append(Revision(story_id, version, replaced, by, trusted_story(data), elements))
    return found
