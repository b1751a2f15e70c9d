"""Revisions on SQLite (migration 11): a row of ``revisions`` each, its element documents one
JSON array of strings. ``SQLiteStories.replace`` takes them; this reads them and stores those an
import brings.

A revision's ``record`` is stored as its story's is, without ``author_id``: a story never
changes author, so a revision's is its story's, read from the story's row.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

import orjson

from storycore.errors import DuplicateKey, Missing, StorageError
from storycore.model.records import trusted_story
from storycore.model.revisions import Revision, RevisionHead
from storycore.ports import RevisionRepository

from ._connection import Repository

__all__ = ["SQLiteRevisions"]

#: Revisions whole, for ``_revision``, oldest first.
_WHOLE = (
    "SELECT r.version, r.replaced, r.replaced_by, r.record, s.author_id, r.element_documents"
    " FROM stories s JOIN revisions r ON r.story_rowid = s.rowid"
    " WHERE s.id = ?{where} ORDER BY r.version"
)


class SQLiteRevisions(Repository, RevisionRepository):
    """Revisions by story and version."""

    def heads(self, story_id: str, offset: int, limit: int) -> list[RevisionHead]:
        """The columns that come before the record and documents: read from the start of
        each row, leaving the rest of a long row on its overflow pages."""
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
        row = self._db.row(_WHOLE.format(where=" AND r.version = ?"), (story_id, version))
        return None if row is None else _revision(story_id, row)

    def of_story(self, story_id: str) -> list[Revision]:
        rows = self._db.rows(_WHOLE.format(where=""), (story_id,))
        return [_revision(story_id, row) for row in rows]

    def add_many(self, revisions: Iterable[Revision]) -> int:
        """In one transaction, each checked before it is written: on a refusal the revisions
        before it are committed, and it is not stored."""
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
        "SELECT r.version FROM stories s LEFT JOIN revisions r"
        " ON r.story_rowid = s.rowid AND r.version = ? WHERE s.id = ?",
        (revision.version, revision.story_id),
    ).fetchone()
    if found is None:
        return Missing("story")
    if found[0] is not None:
        return DuplicateKey("revision")
    return None


def _insert(conn: sqlite3.Connection, revision: Revision) -> None:
    """Store ``revision``, whose story is stored and has none at its version."""
    record = revision.record
    conn.execute(
        "INSERT INTO revisions (story_rowid, version, replaced, replaced_by, title, status,"
        " elements, record, element_documents)"
        " SELECT rowid, ?, ?, ?, ?, ?, ?, ?, ? FROM stories WHERE id = ?",
        (
            revision.version,
            revision.replaced,
            revision.by,
            record.title,
            record.status,
            len(revision.elements),
            record.model_dump_json(exclude={"author_id"}),
            orjson.dumps(list(revision.elements)).decode(),
            revision.story_id,
        ),
    )


def _revision(story_id: str, row: tuple[Any, ...]) -> Revision:
    """The revision of a row of ``_WHOLE``."""
    version, replaced, by, record, author_id, documents = row
    data = orjson.loads(record)
    data["author_id"] = author_id
    elements = tuple(orjson.loads(documents))
    return Revision(story_id, version, replaced, by, trusted_story(data), elements)
