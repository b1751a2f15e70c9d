"""Revisions on PostgreSQL (docs/api.md#revisions): one row each in ``revisions`` (migration 4),
the story's JSON record, title and status as they were beside its element documents in order as
one ``text[]``, copied inside the database by the replacement that takes it (``KEEP``); no
document passes through Python on a save, and each comes back as it was stored, byte for byte.
A list of revisions reads the columns beside the array (``element_count``), never the array.
Revisions go with their story (``ON DELETE CASCADE``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import orjson

from storycore.model import records
from storycore.model.revisions import Revision, RevisionHead, RevisionMark
from storycore.ports import RevisionRepository

from ._database import Part

__all__ = ["KEEP", "PostgreSQLRevisions", "keep_parameters"]

_COLUMNS = (
    *("story_id", "version", "replaced", "replaced_by", "author_id", "title", "status"),
    *("element_count", "record", "documents"),
)
_HEAD = "version, replaced, replaced_by, title, status, element_count"
_WHOLE = "version, replaced, replaced_by, author_id, record, documents"

#: The revision a replacement keeps, as clauses of the ``WITH`` of its ``UPDATE`` (one statement,
#: no round trip of its own). The statement's snapshot is the story as it was, its row and its
#: elements (no part of a statement sees another's change), taken after ``replace`` locked the
#: row, so the copy is the story the replacement replaces. ``bound`` is the ``keep``-th newest of
#: the story's other revisions (one backward walk of the primary key, ``keep`` entries long):
#: when it is older than the stored version, the revision is kept and the others from ``bound``
#: down go; when it is newer (only an import can have put revisions above the stored version),
#: the newest ``keep`` are those above, so the revision is not kept and those below ``bound`` go.
#: A revision already at the stored version (an import's too) is written over, or goes.
KEEP = (
    "bound AS (SELECT (SELECT version FROM revisions WHERE story_id = %(id)s"
    " AND version <> %(revision_version)s ORDER BY version DESC"
    " OFFSET %(revision_keep)s - 1 LIMIT 1) AS version),"
    f" kept AS (INSERT INTO revisions ({', '.join(_COLUMNS)})"
    " SELECT s.id, s.version, %(revision_replaced)s, %(revision_by)s, s.author_id, s.title,"
    " s.status, cardinality(e.documents), s.record, e.documents FROM stories s,"
    " LATERAL (SELECT array(SELECT document FROM elements WHERE story_id = s.id"
    " ORDER BY position) AS documents OFFSET 0) e"  # OFFSET 0: the array is made once
    " WHERE s.id = %(id)s AND NOT EXISTS (SELECT FROM bound WHERE version > s.version)"
    " ON CONFLICT (story_id, version) DO UPDATE SET "
    + ", ".join(f"{name} = excluded.{name}" for name in _COLUMNS[2:])
    + "), trimmed AS (DELETE FROM revisions WHERE story_id = %(id)s AND version <"
    " (SELECT version + (version < %(revision_version)s)::integer FROM bound))"
)
_ADD = (
    f"INSERT INTO revisions ({', '.join(_COLUMNS)})"
    f" VALUES ({', '.join(['%s'] * len(_COLUMNS[:-1]))}, %s::text[])"
)


def keep_parameters(mark: RevisionMark, version: int) -> dict[str, Any]:
    """The parameters ``KEEP`` adds to the replacement's, for the story stored at ``version``."""
    return {
        "revision_replaced": mark.replaced,
        "revision_by": mark.by,
        "revision_version": version,
        "revision_keep": mark.keep,
    }


def _revision(story_id: str, row: Sequence[Any]) -> Revision:
    """A revision from its ``_WHOLE`` columns: the record with ``author_id`` from its column
    (a copied record, like the story's, holds none of ``KEPT_BY_REPLACE``)."""
    version, replaced, by, author_id, record, documents = row
    data = orjson.loads(record)
    data["author_id"] = author_id
    return Revision(story_id, version, replaced, by, records.trusted_story(data), tuple(documents))


class PostgreSQLRevisions(Part, RevisionRepository):
    """Revisions by story and version, read through the ``revision`` primary key."""

    def heads(self, story_id: str, offset: int, limit: int) -> list[RevisionHead]:
        rows = self._db.rows(
            f"SELECT {_HEAD} FROM revisions WHERE story_id = %s"
            " ORDER BY version DESC LIMIT %s OFFSET %s",
            (story_id, max(limit, 0), max(offset, 0)),
        )
        return [RevisionHead._make(row) for row in rows]

    def count(self, story_id: str) -> int:
        row = self._db.row("SELECT count(*) FROM revisions WHERE story_id = %s", (story_id,))
        return int(row[0]) if row else 0

    def get(self, story_id: str, version: int) -> Revision | None:
        row = self._db.row(
            f"SELECT {_WHOLE} FROM revisions WHERE story_id = %s AND version = %s",
            (story_id, version),
        )
        return None if row is None else _revision(story_id, row)

    def of_story(self, story_id: str) -> list[Revision]:
        rows = self._db.rows(
            f"SELECT {_WHOLE} FROM revisions WHERE story_id = %s ORDER BY version", (story_id,)
        )
        return [_revision(story_id, row) for row in rows]

    def add_many(self, revisions: Iterable[Revision]) -> int:
        """One statement each, its own transaction: the revisions before a refused one stay,
        as the port says. The record is kept whole, as given."""
        count = 0
        for revision in revisions:
            record = revision.record
            self._db.run(
                _ADD,
                (
                    *(revision.story_id, revision.version, revision.replaced, revision.by),
                    *(record.author_id, record.title, record.status, len(revision.elements)),
                    record.model_dump_json(),
                    list(revision.elements),
                ),
            )
            count += 1
        return count
