"""Users, applications and tokens on SQLite."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from storycore.errors import DuplicateKey, Missing
from storycore.heads import ProfileFields
from storycore.ports import (
    ApplicationRepository,
    IdentityRepository,
    TokenRepository,
    UserRepository,
)
from storycore.records import AppRecord, TokenRecord, UserRecord, trusted_user
from storycore.searchtext import token_text
from storycore.usernames import username_key

from ._sqlite_connection import Connection

__all__ = ["SQLiteApplications", "SQLiteIdentities", "SQLiteTokens", "SQLiteUsers"]


def _user(record: str) -> UserRecord:
    return trusted_user(orjson.loads(record))


def _duplicate(exc: sqlite3.IntegrityError, table: str) -> Exception:
    """The ``DuplicateKey`` of a unique constraint of ``table`` (``users``, ``apps``,
    ``tokens``) the database refused; other faults pass through.
    """
    for column, key in _UNIQUE[table]:
        if f"{table}.{column}" in str(exc):
            return DuplicateKey(key)
    return exc


_UNIQUE = {
    "users": (("username_key", "user.username"), ("id", "user.id")),
    "apps": (("name", "app.name"), ("key_digest", "app.key_digest"), ("id", "app.id")),
    "tokens": (("digest", "token.digest"),),
}


def insert_user(conn: sqlite3.Connection, user: UserRecord) -> None:
    """Insert ``user`` inside the caller's transaction."""
    try:
        conn.execute(
            "INSERT INTO users (id, username_key, search_text, record) VALUES (?, ?, ?, ?)",
            (user.id, username_key(user.username), token_text(user.search_tokens),
             user.model_dump_json()),
        )  # fmt: skip
    except sqlite3.IntegrityError as exc:
        raise _duplicate(exc, "users") from exc


class SQLiteUsers(UserRepository):
    """Users; ``username_key`` (lowercase) makes usernames unique regardless of case."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def add(self, user: UserRecord) -> None:
        with self._db.write() as conn:
            insert_user(conn, user)

    def get(self, user_id: str) -> UserRecord | None:
        row = self._db.row("SELECT record FROM users WHERE id = ?", (user_id,))
        return _user(row[0]) if row else None

    def get_by_username(self, username: str) -> UserRecord | None:
        row = self._db.row(
            "SELECT record FROM users WHERE username_key = ?", (username_key(username),)
        )
        return _user(row[0]) if row else None

    def get_many(self, user_ids: Iterable[str]) -> dict[str, UserRecord]:
        ids = list(set(user_ids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._db.rows(f"SELECT record FROM users WHERE id IN ({marks})", ids)
        users = (_user(row[0]) for row in rows)
        return {user.id: user for user in users}

    def profiles(self, user_ids: Iterable[str]) -> dict[str, ProfileFields]:
        ids = list(set(user_ids))
        if not ids:
            return {}
        rows = self._db.rows(
            f"SELECT id, record FROM users WHERE id IN ({','.join('?' * len(ids))})", ids
        )
        # one orjson parse of a small record costs less than SQLite's json_extract per field
        fields = ProfileFields._fields
        return {
            user_id: ProfileFields._make(map(orjson.loads(record).__getitem__, fields))
            for user_id, record in rows
        }

    def replace(self, user: UserRecord) -> None:
        with self._db.write() as conn:
            row = conn.execute("SELECT search_text FROM users WHERE id = ?", (user.id,)).fetchone()
            if row is None:
                raise Missing("user")
            self._store(conn, user, row[0])

    def update(self, user_id: str, changes: Mapping[str, Any]) -> None:
        # read and written in one write transaction, which no other writer can interleave
        with self._db.write() as conn:
            row = conn.execute(
                "SELECT record, search_text FROM users WHERE id = ?", (user_id,)
            ).fetchone()
            if row is None:
                raise Missing("user")
            self._store(conn, _user(row[0]).model_copy(update=changes), row[1])

    @staticmethod
    def _store(conn: sqlite3.Connection, user: UserRecord, search_text: str) -> None:
        text = token_text(user.search_tokens)
        try:
            conn.execute(
                "UPDATE users SET username_key = ?, search_text = ?, record = ? WHERE id = ?",
                (username_key(user.username), text, user.model_dump_json(), user.id),
            )
        except sqlite3.IntegrityError as exc:
            raise _duplicate(exc, "users") from exc
        if search_text != text:
            conn.execute(
                "UPDATE story_search SET author = ? "
                "WHERE rowid IN (SELECT rowid FROM stories WHERE author_id = ?)",
                (text, user.id),
            )

    def find(self, offset: int, limit: int) -> list[UserRecord]:
        rows = self._db.rows(
            "SELECT record FROM users ORDER BY username_key, id LIMIT ? OFFSET ?", (limit, offset)
        )
        return [_user(row[0]) for row in rows]


class SQLiteApplications(ApplicationRepository):
    """Applications, found by the digest of their api key."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def add(self, app: AppRecord) -> None:
        try:
            with self._db.write() as conn:
                conn.execute(
                    "INSERT INTO apps (id, name, key_digest, record) VALUES (?, ?, ?, ?)",
                    (app.id, app.name, app.key_digest, app.model_dump_json()),
                )
        except sqlite3.IntegrityError as exc:
            raise _duplicate(exc, "apps") from exc

    def _one(self, column: str, value: str) -> AppRecord | None:
        row = self._db.row(f"SELECT record FROM apps WHERE {column} = ?", (value,))
        return AppRecord.model_validate_json(row[0]) if row else None

    def get(self, app_id: str) -> AppRecord | None:
        return self._one("id", app_id)

    def get_by_key_digest(self, key_digest: str) -> AppRecord | None:
        return self._one("key_digest", key_digest)

    def get_by_name(self, name: str) -> AppRecord | None:
        return self._one("name", name)

    def replace(self, app: AppRecord) -> None:
        with self._db.write() as conn:
            self._store(conn, app)

    def update(self, app_id: str, changes: Mapping[str, Any]) -> None:
        with self._db.write() as conn:
            row = conn.execute("SELECT record FROM apps WHERE id = ?", (app_id,)).fetchone()
            if row is None:
                raise Missing("app")
            self._store(conn, AppRecord.model_validate_json(row[0]).model_copy(update=changes))

    @staticmethod
    def _store(conn: sqlite3.Connection, app: AppRecord) -> None:
        try:
            done = conn.execute(
                "UPDATE apps SET name = ?, key_digest = ?, record = ? WHERE id = ?",
                (app.name, app.key_digest, app.model_dump_json(), app.id),
            )
        except sqlite3.IntegrityError as exc:
            raise _duplicate(exc, "apps") from exc
        if done.rowcount == 0:
            raise Missing("app")

    def find(self, offset: int, limit: int) -> list[AppRecord]:
        rows = self._db.rows(
            "SELECT record FROM apps ORDER BY name, id LIMIT ? OFFSET ?", (limit, offset)
        )
        return [AppRecord.model_validate_json(row[0]) for row in rows]


class SQLiteTokens(TokenRepository):
    """User tokens, by the digest of the token."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def add(self, token: TokenRecord) -> None:
        try:
            with self._db.write() as conn:
                conn.execute(
                    "INSERT INTO tokens (digest, user_id, app_id, created, expires) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (token.digest, token.user_id, token.app_id, token.created, token.expires),
                )
        except sqlite3.IntegrityError as exc:
            raise _duplicate(exc, "tokens") from exc

    def get(self, digest: str) -> TokenRecord | None:
        row = self._db.row(
            "SELECT digest, user_id, app_id, created, expires FROM tokens WHERE digest = ?",
            (digest,),
        )
        if row is None:
            return None
        return TokenRecord(
            digest=row[0], user_id=row[1], app_id=row[2], created=row[3], expires=row[4]
        )

    def remove_expired(self, now: str) -> int:
        with self._db.write() as conn:
            return conn.execute("DELETE FROM tokens WHERE expires <= ?", (now,)).rowcount


class SQLiteIdentities(IdentityRepository):
    """Identity links, unique per (provider, external id)."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def get(self, provider: str, external_id: str) -> str | None:
        row = self._db.row(
            "SELECT user_id FROM identities WHERE provider = ? AND external_id = ?",
            (provider, external_id),
        )
        return row[0] if row else None

    def add_user(self, provider: str, external_id: str, user: UserRecord) -> None:
        with self._db.write() as conn:
            linked = conn.execute(
                "SELECT 1 FROM identities WHERE provider = ? AND external_id = ?",
                (provider, external_id),
            ).fetchone()
            if linked:
                raise DuplicateKey("identity")
            insert_user(conn, user)
            conn.execute(
                "INSERT INTO identities (provider, external_id, user_id) VALUES (?, ?, ?)",
                (provider, external_id, user.id),
            )
