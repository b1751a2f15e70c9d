"""Failed sign-ins on a SQL database, one row each (``key``, ``at``): one implementation for the
SQLite and the PostgreSQL adapters. ``(key, at)`` serves ``since``, ``at`` serves ``prune``; no
unique key, so two failures at one time are two rows, and concurrent inserts never conflict."""

from __future__ import annotations

from collections.abc import Sequence

from storycore.ports import SignInFailures

from .accounts import SQLDatabase

__all__ = ["SQLSignInFailures"]


class SQLSignInFailures(SignInFailures):
    """The ``sign_in_failures`` table."""

    def __init__(self, db: SQLDatabase) -> None:
        self._db = db

    def add(self, keys: Sequence[str], at: str) -> None:
        if not keys:
            return
        mark = self._db.mark
        rows = ", ".join([f"({mark}, {mark})"] * len(keys))
        params = [value for key in keys for value in (key, at)]
        self._db.run(f"INSERT INTO sign_in_failures (key, at) VALUES {rows}", params)

    def since(self, key: str, after: str, limit: int) -> list[str]:
        mark = self._db.mark
        rows = self._db.rows(
            f"SELECT at FROM sign_in_failures WHERE key = {mark} AND at > {mark}"
            f" ORDER BY at LIMIT {mark}",
            (key, after, max(limit, 0)),
        )
        return [row[0] for row in rows]

    def prune(self, before: str) -> int:
        return self._db.run(f"DELETE FROM sign_in_failures WHERE at <= {self._db.mark}", (before,))
