"""Users on PostgreSQL (the accounts are ``_sql_accounts``): a user's search tokens are an
array in ``search_tokens``, copied into the ``search`` array of each of their stories. The
events of a user's write go in its transaction (``_events``); a new user's, in its statement."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storycore.model.events import Event
from storycore.model.records import UserRecord

from .._sql.accounts import Users
from ._database import Connection
from ._events import insert_events, logged

__all__ = ["PostgreSQLUsers"]


class PostgreSQLUsers(Users):
    """Users; ``search_tokens`` holds their search tokens."""

    @staticmethod
    def _search_column(user: UserRecord) -> tuple[str, Any]:
        return "search_tokens", user.search_tokens

    def _search_changed(self, conn: Connection, user: UserRecord) -> None:
        # the stories in id order, as ``add_views`` locks them
        conn.execute(
            "UPDATE stories SET search = words || %s::text[] WHERE id IN"
            " (SELECT id FROM stories WHERE author_id = %s ORDER BY id FOR UPDATE)",
            (user.search_tokens, user.id),
        )

    def _insert_events(self, conn: Connection, events: Sequence[Event]) -> None:
        if events:
            insert_events(conn, events)

    def add(self, user: UserRecord, *, events: Sequence[Event] = ()) -> None:
        """One statement in autocommit, its events a ``WITH`` clause of it: one round trip
        either way, where a transaction (``BEGIN``, the statement, ``COMMIT``) takes three."""
        if not events:
            self._db.run(*self._insert(user))
            return
        row = self._columns(user)
        clause, params = logged(events)
        self._db.run(
            f"WITH {clause} INSERT INTO users ({', '.join(row)})"
            f" VALUES ({', '.join(f'%({name})s' for name in row)})",
            {**row, **params},
        )
