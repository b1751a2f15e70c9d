"""The SQLite search index: FTS5 rows whose rowid follows the order search answers in.

Every story has one row in ``story_search`` (its words, and its author's tokens). A public
story's row lives under its *search key*, a positive integer that grows with (publication time,
story id); ``search_order`` maps the key to the story. Any other story's row lives under the
negative of the story's rowid, where no search looks. So "newest publication first, then id"
is ``ORDER BY rowid DESC`` over FTS5's own doclists: a search stops after its page instead of
sorting every match, however many stories hold the words.

A key is the millisecond of publication (from 1900, so keys are positive) shifted left by
``_PLACES`` bits, plus the story's place among the stories of that millisecond, between the
places of its neighbours by id; when two neighbours leave no room, the places of that
millisecond are spread out again. Stories published out of order (imports) take their place
like any other.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from storycore.model.records import StoryRecord

__all__ = ["COUNT", "SEARCH", "free_key", "index", "unindex"]

_PLACES = 20  # bits of a key below its millisecond: ~10^6 stories a millisecond
_ORIGIN = datetime(1900, 1, 1, tzinfo=UTC)
#: Milliseconds from 1900 that keys tell apart: until 2178 (keys stay below 2**63); a time
#: outside shares the first or last millisecond's keys, ordered by id alone.
_MILLISECONDS = (1 << 43) - 1
_MS = timedelta(milliseconds=1)

#: The page of public stories holding every word of an FTS5 query, newest first: FTS5 walks
#: its rowids downwards and stops after ``LIMIT + OFFSET`` matches.
SEARCH = (
    "WITH hits AS (SELECT rowid AS key FROM story_search"
    " WHERE story_search MATCH ? AND rowid > 0 ORDER BY rowid DESC LIMIT ? OFFSET ?)"
    " SELECT {columns} FROM hits JOIN search_order o ON o.key = hits.key"
    " JOIN stories s ON s.rowid = o.story_rowid ORDER BY hits.key DESC"
)
#: How many public stories hold every word of an FTS5 query (their rows have positive keys).
COUNT = "SELECT count(*) FROM story_search WHERE story_search MATCH ? AND rowid > 0"


def _bucket(published: str) -> int:
    """The first key of the millisecond of ``published``."""
    milliseconds = (datetime.fromisoformat(published) - _ORIGIN) // _MS
    return min(max(milliseconds, 1), _MILLISECONDS - 1) << _PLACES


def free_key(conn: sqlite3.Connection, published: str, story_id: str) -> int:
    """A key for a story of this publication and id, between its neighbours' keys."""
    base = _bucket(published)
    top = base + (1 << _PLACES)
    while True:
        below = conn.execute(
            "SELECT max(key) FROM search_order WHERE key >= ? AND key < ? AND story_id < ?",
            (base, top, story_id),
        ).fetchone()[0]
        above = conn.execute(
            "SELECT min(key) FROM search_order WHERE key >= ? AND key < ? AND story_id > ?",
            (base, top, story_id),
        ).fetchone()[0]
        low = base - 1 if below is None else below
        high = top if above is None else above
        if high - low > 1:
            return (low + high) // 2
        _spread(conn, base, top)


def _spread(conn: sqlite3.Connection, base: int, top: int) -> None:
    """Give the stories of one millisecond keys evenly apart, in the same order."""
    rows = conn.execute(
        "SELECT o.key, o.story_rowid, o.published, o.story_id, f.story, f.author"
        " FROM search_order o JOIN story_search f ON f.rowid = o.key"
        " WHERE o.key >= ? AND o.key < ? ORDER BY o.key",
        (base, top),
    ).fetchall()
    step = (top - base) // (len(rows) + 1)
    if step < 2:  # a million stories in one millisecond
        raise sqlite3.IntegrityError("too many stories published in one millisecond")
    for key, *_ in rows:
        _drop(conn, key)
    for place, (_, rowid, published, story_id, words, author) in enumerate(rows, start=1):
        _put(conn, base + place * step, words, author, (rowid, published, story_id))


def _drop(conn: sqlite3.Connection, key: int) -> None:
    conn.execute("DELETE FROM story_search WHERE rowid = ?", (key,))
    conn.execute("DELETE FROM search_order WHERE key = ?", (key,))


def _put(
    conn: sqlite3.Connection,
    key: int,
    words: str,
    author: str,
    order: tuple[int, str, str] | None,
) -> None:
    """A row of the index under ``key``, and its ``(story rowid, published, id)`` for a
    public story's key."""
    conn.execute(
        "INSERT INTO story_search (rowid, story, author) VALUES (?, ?, ?)", (key, words, author)
    )
    if order is not None:
        conn.execute(
            "INSERT INTO search_order (key, story_rowid, published, story_id) VALUES (?, ?, ?, ?)",
            (key, *order),
        )


def index(conn: sqlite3.Connection, rowid: int, story: StoryRecord, words: str | None) -> None:
    """Keep the story's row where it belongs, in the caller's transaction: under its key while
    it is public (the key it has, while its publication time stays), else under ``-rowid``.
    ``words`` replaces the story's words; None keeps them.
    """
    found = conn.execute(
        "SELECT key, published FROM search_order WHERE story_rowid = ?", (rowid,)
    ).fetchone()
    old = found[0] if found else -rowid
    stays = story.is_public and found is not None and found[1] == story.published
    if stays or (not story.is_public and found is None):
        if words is not None:
            done = conn.execute("UPDATE story_search SET story = ? WHERE rowid = ?", (words, old))
            if done.rowcount == 0:  # a new story's first row
                _put(conn, old, words, _author(conn, story), None)
        return
    stored: Sequence[Any] | None = conn.execute(
        "SELECT story, author FROM story_search WHERE rowid = ?", (old,)
    ).fetchone()
    _drop(conn, old)
    text = words if words is not None else (stored[0] if stored else "")
    author = stored[1] if stored else _author(conn, story)
    if story.is_public:
        assert story.published is not None
        key = free_key(conn, story.published, story.id)
        _put(conn, key, text, author, (rowid, story.published, story.id))
    else:
        _put(conn, -rowid, text, author, None)


def unindex(conn: sqlite3.Connection, rowid: int) -> None:
    """Remove the story's row, in the caller's transaction (``search_order`` follows the
    story's own removal)."""
    conn.execute(
        "DELETE FROM story_search WHERE rowid IN"
        " (SELECT key FROM search_order WHERE story_rowid = ?1 UNION SELECT -?1)",
        (rowid,),
    )


def _author(conn: sqlite3.Connection, story: StoryRecord) -> str:
    row = conn.execute("SELECT search_text FROM users WHERE id = ?", (story.author_id,)).fetchone()
    return str(row[0]) if row else ""
