"""A migration step that recomputes every derived member stored in a SQLite database.

Search tokens, title sort keys and tags are computed by the core when a story or user is
written (``storycore.derived``). When the core changes how it computes them, a database written
before holds the old values, and a search would miss stories the new rules find. This step
rewrites them from each record and its elements, inside the migration's transaction.
"""

from __future__ import annotations

import sqlite3

import orjson

from storycore.derived import user_search_tokens, with_derived_members
from storycore.records import trusted_element, trusted_user
from storycore.searchtext import token_text

__all__ = ["rederive"]

_BATCH = 500


def rederive(conn: sqlite3.Connection) -> None:
    """Recompute the derived members of every user and story; the rest stays as it was."""
    for user_id, record in conn.execute("SELECT id, record FROM users").fetchall():
        user = trusted_user(orjson.loads(record))
        user.search_tokens = user_search_tokens(user)
        conn.execute(
            "UPDATE users SET search_text = ?, record = ? WHERE id = ?",
            (token_text(user.search_tokens), user.model_dump_json(), user_id),
        )
    # the story module reaches this one through the connection's migrations: import it late
    from ._sqlite_stories import COLUMNS, SQLiteStories, record_json, story_from_row

    after = 0
    while rows := conn.execute(
        f"SELECT s.rowid, {COLUMNS} FROM stories s WHERE s.rowid > ? ORDER BY s.rowid LIMIT ?",
        (after, _BATCH),
    ).fetchall():
        for rowid, *columns in rows:
            documents = conn.execute(
                "SELECT record FROM elements WHERE story_rowid = ? ORDER BY position", (rowid,)
            )
            elements = [trusted_element(orjson.loads(document)) for (document,) in documents]
            story = with_derived_members(story_from_row(columns), elements)
            conn.execute(
                "UPDATE stories SET title_key = ?, record = ? WHERE rowid = ?",
                (story.title_key, record_json(story), rowid),
            )
            SQLiteStories.write_labels(conn, rowid, story, replacing=True)
            conn.execute(
                "UPDATE story_search SET story = ?,"
                " author = (SELECT search_text FROM users WHERE id = ?) WHERE rowid = ?",
                (token_text(story.search_tokens), story.author_id, rowid),
            )
        after = rows[-1][0]
