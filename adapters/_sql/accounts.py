"""Users, applications, tokens and identity links on a SQL database: one implementation for the
SQLite and the PostgreSQL adapters, which differ only in what ``SQLDatabase`` says.

Users and applications are JSON records (``record``) beside the few columns their lookups and
unique keys read. Each adapter adds the user's search column and keeps its stories' search
entries in step (``Users._search_changed``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import orjson

from storycore.errors import Missing
from storycore.model.events import Event
from storycore.model.heads import ProfileFields
from storycore.model.records import (
    AppRecord,
    Stored,
    TokenRecord,
    UserRecord,
    stored_user,
    trusted_user,
)
from storycore.ports import (
    ApplicationRepository,
    IdentityRepository,
    TokenRepository,
    UserRepository,
)
from storycore.rules.usernames import username_key

__all__ = ["Applications", "Identities", "SQLDatabase", "Tokens", "Users", "load_user"]

R = TypeVar("R", UserRecord, AppRecord)
_TOKEN_COLUMNS = tuple(TokenRecord.model_fields)


class SQLDatabase(Protocol):
    """What these repositories need of an adapter's database; each call translates the
    driver's errors into storage errors."""

    #: The parameter mark of the driver: ``?`` or ``%s``.
    mark: str
    #: What ends a read that the transaction must hold the row of until it ends (``FOR
    #: UPDATE``), or nothing where a write transaction excludes every other writer.
    row_lock: str

    def rows(self, sql: str, params: Any = ()) -> list[tuple[Any, ...]]: ...

    def row(self, sql: str, params: Any = ()) -> tuple[Any, ...] | None: ...

    def run(self, sql: str, params: Any = ()) -> int:
        """One statement, its own transaction; how many rows it changed."""
        ...

    def write(self) -> AbstractContextManager[Any]:
        """A transaction: a connection whose ``execute(sql, params)`` returns a cursor."""
        ...

    def one_of(self, column: str, values: Collection[str]) -> tuple[str, list[Any]]:
        """The condition that ``column`` is one of ``values``, and its parameters."""
        ...


class _Records(Generic[R]):
    """A table of JSON records by ``id``, with the columns ``_columns`` derives from each."""

    table: ClassVar[str]
    kind: ClassVar[str]  # what ``Missing`` names
    order: ClassVar[str]  # the column ``find`` sorts by, then id
    _load: Callable[[str], R]

    def __init__(self, db: SQLDatabase) -> None:
        self._db = db

    def _columns(self, record: R) -> dict[str, Any]:
        """The row of ``record``: its id, the columns its lookups read, its JSON ``record``."""
        raise NotImplementedError

    def _changed(self, conn: Any, old: R, new: R) -> None:
        """What else changes with a record, in the same transaction: nothing, here."""

    def _insert_events(self, conn: Any, events: Sequence[Event]) -> None:
        """Store ``events``, in order, in the transaction of ``conn`` (the write they report):
        the adapter's statement, for the records whose writes report events (users). A write
        without events runs no statement more."""
        if events:
            raise NotImplementedError

    def _insert(self, record: R) -> tuple[str, list[Any]]:
        """The statement that inserts ``record``, and its parameters."""
        row: dict[str, Any] = self._columns(record)
        marks = ", ".join([self._db.mark] * len(row))
        return f"INSERT INTO {self.table} ({', '.join(row)}) VALUES ({marks})", [*row.values()]

    def add(self, record: R, *, events: Sequence[Event] = ()) -> None:
        with self._db.write() as conn:
            conn.execute(*self._insert(record))
            self._insert_events(conn, events)

    def _one(self, column: str, value: str) -> R | None:
        found = self._db.row(
            f"SELECT record FROM {self.table} WHERE {column} = {self._db.mark}", (value,)
        )
        return self._load(found[0]) if found else None

    def get(self, record_id: str) -> R | None:
        return self._one("id", record_id)

    def update(
        self, record_id: str, changes: Mapping[str, Any], *, events: Sequence[Event] = ()
    ) -> None:
        """The stored record with ``changes``, its columns (unique keys included) written again
        from it, and ``events``, in one transaction that holds the row."""
        mark = self._db.mark
        with self._db.write() as conn:
            found = conn.execute(
                f"SELECT record FROM {self.table} WHERE id = {mark}{self._db.row_lock}",
                (record_id,),
            ).fetchone()
            if found is None:
                raise Missing(self.kind)
            old = self._load(found[0])
            new = old.model_copy(update=changes)
            columns: dict[str, Any] = self._columns(new)
            assignments = ", ".join(f"{name} = {mark}" for name in columns)
            conn.execute(
                f"UPDATE {self.table} SET {assignments} WHERE id = {mark}",
                (*columns.values(), record_id),
            )
            self._changed(conn, old, new)
            self._insert_events(conn, events)

    def find(self, offset: int, limit: int) -> list[R]:
        mark = self._db.mark
        rows = self._db.rows(
            f"SELECT record FROM {self.table} ORDER BY {self.order}, id LIMIT {mark} OFFSET {mark}",
            (max(limit, 0), max(offset, 0)),
        )
        return [self._load(row[0]) for row in rows]


def load_user(record: str) -> UserRecord:
    """A user from their stored record."""
    return trusted_user(orjson.loads(record))  # as written: it was validated then


class Users(_Records[UserRecord], UserRepository):
    """Users, unique by ``username_key`` (the core's key of a username); the adapter's
    ``_search_column`` holds the user's search tokens, which ``_search_changed`` copies into
    the search entries of their stories."""

    table, kind, order = "users", "user", "username_key"
    _load = staticmethod(load_user)

    def count(self) -> int:
        row = self._db.row(f"SELECT count(*) FROM {self.table}")
        return int(row[0]) if row else 0

    @staticmethod
    def _search_column(user: UserRecord) -> tuple[str, Any]:
        """The name and value of the column that holds the user's search tokens."""
        raise NotImplementedError

    def _search_changed(self, conn: Any, user: UserRecord) -> None:
        """Copy ``user.search_tokens`` into the search entries of their stories."""
        raise NotImplementedError

    def _columns(self, record: UserRecord) -> dict[str, Any]:
        name, value = self._search_column(record)
        row = {"id": record.id, "username_key": username_key(record.username), name: value}
        return {**row, "record": record.model_dump_json()}

    def _changed(self, conn: Any, old: UserRecord, new: UserRecord) -> None:
        if old.search_tokens != new.search_tokens:
            self._search_changed(conn, new)

    def get_by_username(self, username: str) -> UserRecord | None:
        return self._one("username_key", username_key(username))

    def _of(self, what: str, user_ids: Iterable[str]) -> list[tuple[Any, ...]]:
        condition, params = self._db.one_of("id", set(user_ids))
        return self._db.rows(f"SELECT {what} FROM users WHERE {condition}", params)

    def get_many(self, user_ids: Iterable[str]) -> dict[str, UserRecord]:
        users = (self._load(row[0]) for row in self._of("record", user_ids))
        return {user.id: user for user in users}

    def get_many_stored(self, user_ids: Iterable[str]) -> dict[str, Stored]:
        users = (stored_user(orjson.loads(row[0])) for row in self._of("record", user_ids))
        return {user["id"]: user for user in users}

    def profiles(self, user_ids: Iterable[str]) -> dict[str, ProfileFields]:
        """The profile members read from each record's JSON without making a model: one
        orjson parse of a small record costs less than extracting each member in SQL."""
        fields = ProfileFields._fields
        return {
            user_id: ProfileFields._make(map(orjson.loads(record).__getitem__, fields))
            for user_id, record in self._of("id, record", user_ids)
        }


class Applications(_Records[AppRecord], ApplicationRepository):
    """Applications, found by name or by the digest of their api key."""

    table, kind, order = "apps", "app", "name"
    _load = staticmethod(AppRecord.model_validate_json)

    def _columns(self, record: AppRecord) -> dict[str, Any]:
        row = {"id": record.id, "name": record.name, "key_digest": record.key_digest}
        return {**row, "record": record.model_dump_json()}

    def get_by_key_digest(self, key_digest: str) -> AppRecord | None:
        return self._one("key_digest", key_digest)

    def get_by_name(self, name: str) -> AppRecord | None:
        return self._one("name", name)


class Tokens(TokenRepository):
    """User tokens, by the digest of the token, a column for each member."""

    def __init__(self, db: SQLDatabase) -> None:
        self._db = db

    def add(self, token: TokenRecord) -> None:
        marks = ", ".join([self._db.mark] * len(_TOKEN_COLUMNS))
        self._db.run(
            f"INSERT INTO tokens ({', '.join(_TOKEN_COLUMNS)}) VALUES ({marks})",
            [getattr(token, name) for name in _TOKEN_COLUMNS],
        )

    def get(self, digest: str) -> TokenRecord | None:
        found = self._db.row(
            f"SELECT {', '.join(_TOKEN_COLUMNS)} FROM tokens WHERE digest = {self._db.mark}",
            (digest,),
        )
        return (
            None if found is None else TokenRecord(**dict(zip(_TOKEN_COLUMNS, found, strict=True)))
        )

    def remove(self, digest: str) -> bool:
        return self._db.run(f"DELETE FROM tokens WHERE digest = {self._db.mark}", (digest,)) > 0

    def remove_expired(self, now: str) -> int:
        return self._db.run(f"DELETE FROM tokens WHERE expires <= {self._db.mark}", (now,))

    def remove_others_of_user(self, user_id: str, keep: str | None) -> int:
        mark = self._db.mark
        return self._db.run(
            f"DELETE FROM tokens WHERE user_id = {mark} AND digest <> {mark}", (user_id, keep or "")
        )


class Identities(IdentityRepository):
    """Identity links, unique per (provider, external id); ``users`` makes the linked user."""

    def __init__(self, db: SQLDatabase, users: Users) -> None:
        self._db, self._users = db, users

    def get(self, provider: str, external_id: str) -> str | None:
        mark = self._db.mark
        found = self._db.row(
            f"SELECT user_id FROM identities WHERE provider = {mark} AND external_id = {mark}",
            (provider, external_id),
        )
        return found[0] if found else None

    def add_user(
        self,
        provider: str,
        external_id: str,
        user: UserRecord,
        *,
        events: Sequence[Event] = (),
    ) -> None:
        # one transaction: a linked identity refuses the link, which rolls the new user back
        mark = self._db.mark
        with self._db.write() as conn:
            conn.execute(*self._users._insert(user))
            conn.execute(
                "INSERT INTO identities (provider, external_id, user_id)"
                f" VALUES ({mark}, {mark}, {mark})",
                (provider, external_id, user.id),
            )
            self._users._insert_events(conn, events)
