"""Users on PostgreSQL (the accounts are ``_sql_accounts``): a user's search tokens are an
array in ``search_tokens``, copied into the ``search`` array of each of their stories."""

from __future__ import annotations

from typing import Any

from storycore.model.records import UserRecord

from .._sql.accounts import Users
from ._database import Connection

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
