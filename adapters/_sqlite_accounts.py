"""Users, applications, tokens and identity links on SQLite.

Users and applications are JSON records (``record``) beside the few columns their lookups and
unique keys read; ``_Records`` stores both.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from storycore.errors import Missing
from storycore.heads import ProfileFields
from storycore.ports import (
    ApplicationRepository,
    IdentityRepository,
    TokenRepository,
    UserRepository,
)
from storycore.records import AppRecord, TokenRecord, UserRecord
from storycore.searchtext import token_text
from storycore.usernames import username_key

from ._record_rows import app_row, load_app, load_user, profiles_of, user_row
from ._sqlite_connection import Repository, insert, marks, update

__all__ = ["SQLiteApplications", "SQLiteIdentities", "SQLiteTokens", "SQLiteUsers", "insert_user"]

R = TypeVar("R", UserRecord, AppRecord)


class _Records(Repository, Generic[R]):
    """A table of JSON records by ``id``, with the columns ``_row`` derives from each."""

    table: ClassVar[str]
    kind: ClassVar[str]  # what ``Missing`` names
    order: ClassVar[str]  # the column ``find`` sorts by

    def _load(self, record: str) -> R:
        raise NotImplementedError

    def _row(self, record: R) -> dict[str, Any]:
        """The row of ``record``: its id, the columns its lookups read, its JSON ``record``."""
        raise NotImplementedError

    def _changed(self, conn: sqlite3.Connection, old: R, new: R) -> None:
        """What else changes with a record, in the same transaction: nothing, here."""

    def add(self, record: R) -> None:
        with self._db.write() as conn:
            insert(conn, self.table, self._row(record))

    def _one(self, column: str, value: str) -> R | None:
        row = self._db.row(f"SELECT record FROM {self.table} WHERE {column} = ?", (value,))
        return self._load(row[0]) if row else None

    def get(self, record_id: str) -> R | None:
        return self._one("id", record_id)

    def replace(self, record: R) -> None:
        self._change(record.id, lambda _: record)

    def update(self, record_id: str, changes: Mapping[str, Any]) -> None:
        self._change(record_id, lambda stored: stored.model_copy(update=changes))

    def _change(self, record_id: str, change: Callable[[R], R]) -> None:
        # read and written in one write transaction, which no other writer can interleave
        with self._db.write() as conn:
            sql = f"SELECT record FROM {self.table} WHERE id = ?"
            row = conn.execute(sql, (record_id,)).fetchone()
            if row is None:
                raise Missing(self.kind)
            old = self._load(row[0])
            new = change(old)
            columns = {name: value for name, value in self._row(new).items() if name != "id"}
            update(conn, self.table, columns, id=record_id)
            self._changed(conn, old, new)

    def find(self, offset: int, limit: int) -> list[R]:
        rows = self._db.rows(
            f"SELECT record FROM {self.table} ORDER BY {self.order}, id LIMIT ? OFFSET ?",
            (limit, offset),
        )
        return [self._load(row[0]) for row in rows]


class SQLiteUsers(_Records[UserRecord], UserRepository):
    """Users; ``username_key`` (the core's key of a username) is unique, and ``search_text``
    holds the user's search tokens, copied into the search entries of their stories."""

    table, kind, order = "users", "user", "username_key"

    _load = staticmethod(load_user)

    @staticmethod
    def _row(user: UserRecord) -> dict[str, Any]:
        return {**user_row(user), "search_text": token_text(user.search_tokens)}

    def _changed(self, conn: sqlite3.Connection, old: UserRecord, new: UserRecord) -> None:
        if old.search_tokens != new.search_tokens:
            conn.execute(
                "UPDATE story_search SET author = ? "
                "WHERE rowid IN (SELECT rowid FROM stories WHERE author_id = ?)",
                (token_text(new.search_tokens), new.id),
            )

    def get_by_username(self, username: str) -> UserRecord | None:
        return self._one("username_key", username_key(username))

    def get_many(self, user_ids: Iterable[str]) -> dict[str, UserRecord]:
        ids = list(set(user_ids))
        rows = self._db.rows(f"SELECT record FROM users WHERE id IN ({marks(ids)})", ids)
        users = (self._load(row[0]) for row in rows)
        return {user.id: user for user in users}

    def profiles(self, user_ids: Iterable[str]) -> dict[str, ProfileFields]:
        ids = list(set(user_ids))
        rows = self._db.rows(f"SELECT id, record FROM users WHERE id IN ({marks(ids)})", ids)
        return profiles_of(rows)


def insert_user(conn: sqlite3.Connection, user: UserRecord) -> None:
    """Insert ``user`` inside the caller's transaction."""
    insert(conn, "users", SQLiteUsers._row(user))


class SQLiteApplications(_Records[AppRecord], ApplicationRepository):
    """Applications, found by the digest of their api key."""

    table, kind, order = "apps", "app", "name"

    _load = staticmethod(load_app)
    _row = staticmethod(app_row)

    def get_by_key_digest(self, key_digest: str) -> AppRecord | None:
        return self._one("key_digest", key_digest)

    def get_by_name(self, name: str) -> AppRecord | None:
        return self._one("name", name)


class SQLiteTokens(Repository, TokenRepository):
    """User tokens, by the digest of the token, a column for each member."""

    def add(self, token: TokenRecord) -> None:
        with self._db.write() as conn:
            insert(conn, "tokens", token.model_dump())

    def get(self, digest: str) -> TokenRecord | None:
        fields = TokenRecord.model_fields
        row = self._db.row(f"SELECT {', '.join(fields)} FROM tokens WHERE digest = ?", (digest,))
        return None if row is None else TokenRecord(**dict(zip(fields, row, strict=True)))

    def remove_expired(self, now: str) -> int:
        with self._db.write() as conn:
            return conn.execute("DELETE FROM tokens WHERE expires <= ?", (now,)).rowcount


class SQLiteIdentities(Repository, IdentityRepository):
    """Identity links, unique per (provider, external id)."""

    def get(self, provider: str, external_id: str) -> str | None:
        row = self._db.row(
            "SELECT user_id FROM identities WHERE provider = ? AND external_id = ?",
            (provider, external_id),
        )
        return row[0] if row else None

    def add_user(self, provider: str, external_id: str, user: UserRecord) -> None:
        # a linked identity refuses the link, which rolls the new user back with it
        with self._db.write() as conn:
            insert_user(conn, user)
            row = {"provider": provider, "external_id": external_id, "user_id": user.id}
            insert(conn, "identities", row)
