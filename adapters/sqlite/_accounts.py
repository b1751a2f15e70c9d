"""Users on SQLite (the accounts are ``_sql_accounts``): a user's search tokens are one text in
``search_text``, copied into the FTS entry of each of their stories."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from storycore.model.events import Event
from storycore.model.heads import ProfileFields
from storycore.model.records import UserRecord
from storycore.rules.searchtext import token_text

from .._sql.accounts import Users
from ._events import log

__all__ = ["SQLiteUsers"]


#: The columns of a user's public profile (migration 19), named as its members.
_PROFILE = ", ".join(ProfileFields._fields)


class SQLiteUsers(Users):
    """Users; ``search_text`` holds their search tokens as FTS5 reads them, and the profile's
    columns its members, which lists read without parsing the record."""

    @staticmethod
    def _search_column(user: UserRecord) -> tuple[str, Any]:
        return "search_text", token_text(user.search_tokens)

    def _columns(self, record: UserRecord) -> dict[str, Any]:
        profile = ProfileFields.of(record)
        return {**super()._columns(record), **profile._asdict()}

    def profiles(self, user_ids: Iterable[str]) -> dict[str, ProfileFields]:
        rows = self._of(f"id, {_PROFILE}", user_ids)
        return {row[0]: ProfileFields._make(row[1:]) for row in rows}

    def _search_changed(self, conn: sqlite3.Connection, user: UserRecord) -> None:
        # each story's index row: under its search key while public, else under -rowid
        conn.execute(
            "UPDATE story_search SET author = ? WHERE rowid IN (SELECT coalesce(o.key, -s.rowid)"
            " FROM stories s LEFT JOIN search_order o ON o.story_rowid = s.rowid"
            " WHERE s.author_id = ?)",
            (token_text(user.search_tokens), user.id),
        )

    def _insert_events(self, conn: sqlite3.Connection, events: Sequence[Event]) -> None:
        log(conn, events)
