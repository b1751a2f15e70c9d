"""Users, applications, tokens and identity links on PostgreSQL.

Users and applications are JSON records (``record``) beside the few columns their lookups and
unique keys read; ``_Records`` stores both, and changes a record under a row lock, so a
targeted update never loses a concurrent one.
"""

from __future__ import annotations

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
from storycore.usernames import username_key

from ._pg_database import Connection, Part
from ._record_rows import app_row, load_app, load_user, profiles_of, user_row

__all__ = ["PostgreSQLApplications", "PostgreSQLIdentities", "PostgreSQLTokens", "PostgreSQLUsers"]

R = TypeVar("R", UserRecord, AppRecord)


class _Records(Part, Generic[R]):
    """A table of JSON records by ``id``, with the columns ``_columns`` derives from each."""

    table: ClassVar[str]
    kind: ClassVar[str]  # what ``Missing`` names
    order: ClassVar[str]  # the column ``find`` sorts by, then id

    def _load(self, record: str) -> R:
        raise NotImplementedError

    @staticmethod
    def _columns(record: R) -> dict[str, Any]:
        """The row of ``record``: its id, the columns its lookups read, its JSON ``record``."""
        raise NotImplementedError

    def _changed(self, conn: Connection, old: R, new: R) -> None:
        """What else changes with a record, in the same transaction: nothing, here."""

    def _insert(self, record: R) -> tuple[str, dict[str, Any]]:
        """The statement that inserts ``record``, and its parameters."""
        row = self._columns(record)
        names = ", ".join(row)
        values = ", ".join(f"%({name})s" for name in row)
        return f"INSERT INTO {self.table} ({names}) VALUES ({values})", row

    def add(self, record: R) -> None:
        self._db.run(*self._insert(record))

    def _one(self, column: str, value: str) -> R | None:
        row = self._db.row(f"SELECT record FROM {self.table} WHERE {column} = %s", (value,))
        return self._load(row[0]) if row else None

    def get(self, record_id: str) -> R | None:
        return self._one("id", record_id)

    def replace(self, record: R) -> None:
        self._change(record.id, lambda _: record)

    def update(self, record_id: str, changes: Mapping[str, Any]) -> None:
        self._change(record_id, lambda stored: stored.model_copy(update=changes))

    def _change(self, record_id: str, change: Callable[[R], R]) -> None:
        with self._db.write() as conn:
            row = conn.execute(
                f"SELECT record FROM {self.table} WHERE id = %s FOR UPDATE", (record_id,)
            ).fetchone()
            if row is None:
                raise Missing(self.kind)
            old = self._load(row[0])
            new = change(old)
            columns = self._columns(new)
            assignments = ", ".join(f"{name} = %({name})s" for name in columns)
            conn.execute(f"UPDATE {self.table} SET {assignments} WHERE id = %(id)s", columns)
            self._changed(conn, old, new)

    def find(self, offset: int, limit: int) -> list[R]:
        rows = self._db.rows(
            f"SELECT record FROM {self.table} ORDER BY {self.order}, id LIMIT %s OFFSET %s",
            (max(limit, 0), max(offset, 0)),
        )
        return [self._load(row[0]) for row in rows]


class PostgreSQLUsers(_Records[UserRecord], UserRepository):
    """Users, unique by ``username_key`` (the core's key of a username); ``search_tokens`` is
    copied into the search array of each of the user's stories."""

    table, kind, order = "users", "user", "username_key"

    _load = staticmethod(load_user)

    @staticmethod
    def _columns(record: UserRecord) -> dict[str, Any]:
        return {**user_row(record), "search_tokens": record.search_tokens}

    def _changed(self, conn: Connection, old: UserRecord, new: UserRecord) -> None:
        if old.search_tokens != new.search_tokens:  # the stories in id order, as add_views
            conn.execute(
                "UPDATE stories SET search = words || %s::text[] WHERE id IN"
                " (SELECT id FROM stories WHERE author_id = %s ORDER BY id FOR UPDATE)",
                (new.search_tokens, new.id),
            )

    def get_by_username(self, username: str) -> UserRecord | None:
        return self._one("username_key", username_key(username))

    def get_many(self, user_ids: Iterable[str]) -> dict[str, UserRecord]:
        rows = self._db.rows(
            "SELECT record FROM users WHERE id = ANY(%s::text[])", (list(set(user_ids)),)
        )
        users = (self._load(row[0]) for row in rows)
        return {user.id: user for user in users}

    def profiles(self, user_ids: Iterable[str]) -> dict[str, ProfileFields]:
        """The profile members straight from each record's JSON, without making a model."""
        rows = self._db.rows(
            "SELECT id, record FROM users WHERE id = ANY(%s::text[])", (list(set(user_ids)),)
        )
        return profiles_of(rows)


class PostgreSQLApplications(_Records[AppRecord], ApplicationRepository):
    """Applications, found by name or by the digest of their api key."""

    table, kind, order = "apps", "app", "name"

    _load = staticmethod(load_app)
    _columns = staticmethod(app_row)

    def get_by_key_digest(self, key_digest: str) -> AppRecord | None:
        return self._one("key_digest", key_digest)

    def get_by_name(self, name: str) -> AppRecord | None:
        return self._one("name", name)


class PostgreSQLTokens(Part, TokenRepository):
    """User tokens, by digest, a column for each member."""

    def add(self, token: TokenRecord) -> None:
        self._db.run(
            "INSERT INTO tokens (digest, user_id, app_id, created, expires)"
            " VALUES (%(digest)s, %(user_id)s, %(app_id)s, %(created)s, %(expires)s)",
            token.model_dump(),
        )

    def get(self, digest: str) -> TokenRecord | None:
        fields = TokenRecord.model_fields
        row = self._db.row(f"SELECT {', '.join(fields)} FROM tokens WHERE digest = %s", (digest,))
        return None if row is None else TokenRecord(**dict(zip(fields, row, strict=True)))

    def remove_expired(self, now: str) -> int:
        return self._db.run("DELETE FROM tokens WHERE expires <= %s", (now,))


class PostgreSQLIdentities(Part, IdentityRepository):
    """Identity links, unique per (provider, external id)."""

    def get(self, provider: str, external_id: str) -> str | None:
        row = self._db.row(
            "SELECT user_id FROM identities WHERE provider = %s AND external_id = %s",
            (provider, external_id),
        )
        return row[0] if row else None

    def add_user(self, provider: str, external_id: str, user: UserRecord) -> None:
        """One statement: a linked identity refuses the new user with it."""
        insert, row = PostgreSQLUsers(self._db)._insert(user)
        self._db.run(
            f"WITH added AS ({insert}) INSERT INTO identities (provider, external_id, user_id)"
            " VALUES (%(provider)s, %(external_id)s, %(id)s)",
            {**row, "provider": provider, "external_id": external_id},
        )
