"""The connections to one SQLite database: a writer, and readers that never wait for it; and the
translation of the driver's errors into storage errors.

Writes run in ``BEGIN IMMEDIATE`` transactions on the one writer connection, so two writers
(threads or processes) queue instead of failing half-way with ``database is locked``. A write
that cannot get the database within ``BUSY_TIMEOUT_SECONDS`` (another process holds the write
lock for longer) raises ``Unavailable``: nothing was changed and the caller may try again.

Reads of a file database run on reader connections of their own, taken from a small pool
(read-only, in WAL mode): they see what is committed and never wait for a writer, in this
process or another. A read made inside a write transaction, by the thread that holds it, runs
on the writer connection and sees that transaction's own writes. An in-memory database
(``path=None``) lives in its one connection, which reads and writes share under a lock.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

from storycore.errors import ConfigurationError, DuplicateKey, Missing, Unavailable

from ._checkpoints import AUTOCHECKPOINT_PAGES, Checkpoints
from ._schema import MIGRATIONS

__all__ = [
    "BUSY_TIMEOUT_SECONDS",
    "IDLE_READERS",
    "Connection",
    "Repository",
    "insert",
    "marks",
    "opening_error",
    "update",
]

#: How long a write waits for the database (the lock of this process's writer connection, then
#: SQLite's write lock) before it gives up with ``Unavailable``. A web request should not hang
#: for longer than a few seconds; a normal write transaction takes milliseconds, so this is
#: long enough for writers to queue behind one another, threads and processes alike.
BUSY_TIMEOUT_SECONDS = 5.0
#: At most this many idle reader connections are kept; more are closed after their read.
IDLE_READERS = 8

T = TypeVar("T")
Params = tuple[Any, ...] | list[Any]
_BUSY_CODES = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})
_BUSY_MESSAGE = "the database is busy (another writer holds it); try again in a moment"
#: The key a ``DuplicateKey`` names, by the columns of the unique constraint SQLite refused.
_UNIQUE_KEYS = {
    "stories.author_id, stories.slug": "story.slug",
    "stories.id": "story.id",
    "users.username_key": "user.username",
    "users.id": "user.id",
    "apps.name": "app.name",
    "apps.key_digest": "app.key_digest",
    "apps.id": "app.id",
    "tokens.digest": "token.digest",
    "identities.provider, identities.external_id": "identity",
    "webhooks.id": "webhook.id",
    "events.id": "event.id",
}


class Connection:
    """A writer connection and a pool of readers over one database file (or memory); the
    ``SQLDatabase`` of ``_sql_accounts``."""

    mark = "?"
    row_lock = ""  # a write transaction (``BEGIN IMMEDIATE``) excludes every other writer

    def __init__(self, path: str | None) -> None:
        self.path: str | None = None
        if path and path != ":memory:":
            _refuse_special(path)
            # absolute, as readers open it later (perhaps after a change of working directory)
            self.path = os.path.abspath(path)
        self.conn = _connect(self.path or ":memory:")
        self.lock = threading.RLock()
        self._writing: int | None = None  # the thread in a write transaction, if any
        self._readers: list[sqlite3.Connection] | None = None if self.path is None else []
        self._checkpoints: Checkpoints | None = None
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            if self.path is not None:
                _write_ahead(self.conn)
                self.conn.execute("PRAGMA synchronous = NORMAL")
                self.conn.execute(f"PRAGMA wal_autocheckpoint = {AUTOCHECKPOINT_PAGES}")
            self._migrate()
        except BaseException:
            self.conn.close()
            raise
        if self.path is not None:
            self._checkpoints = Checkpoints(self.path)

    def _migrate(self) -> None:
        if _schema_version(self.conn) >= len(MIGRATIONS):
            return  # up to date: opening takes no write lock
        with self.write() as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = _schema_version(conn)  # another process may have migrated meanwhile
            for number, migration in enumerate(MIGRATIONS[current:], start=current + 1):
                # one statement at a time: executescript would commit our transaction
                for statement in filter(None, map(str.strip, migration.split(";\n"))):
                    conn.execute(statement)
                conn.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: committed when the block ends, rolled back when it raises.

        ``Unavailable`` when the database cannot be had in time: the writer connection (while
        another thread of this process writes) and then SQLite's write lock (while another
        process writes) are each waited for at most ``BUSY_TIMEOUT_SECONDS``.
        """
        if not self.lock.acquire(timeout=BUSY_TIMEOUT_SECONDS):
            raise Unavailable(_BUSY_MESSAGE)
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            self._writing = threading.get_ident()
            yield conn
            conn.execute("COMMIT")
            if self._checkpoints is not None:
                self._checkpoints.written()
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError) and _busy(exc):
                raise Unavailable(_BUSY_MESSAGE) from exc
            if isinstance(exc, sqlite3.IntegrityError):
                _refused(exc)
            raise
        finally:
            self._writing = None
            self.lock.release()

    def run(self, sql: str, params: Params = ()) -> int:
        """One statement in its own write transaction; how many rows it changed."""
        with self.write() as conn:
            return conn.execute(sql, params).rowcount

    @staticmethod
    def one_of(column: str, values: Collection[str]) -> tuple[str, list[str]]:
        """The condition that ``column`` is one of ``values``, and its parameters."""
        return f"{column} IN ({marks(values)})", [*values]

    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        """All rows of one query."""
        return self._read(sql, params, sqlite3.Cursor.fetchall)

    def row(self, sql: str, params: Params = ()) -> tuple[Any, ...] | None:
        """The first row of one query, or None."""
        # the cursor goes at once, which ends the statement and its read snapshot
        return self._read(sql, params, sqlite3.Cursor.fetchone)  # type: ignore[no-any-return]

    def _read(self, sql: str, params: Params, fetch: Callable[[sqlite3.Cursor], T]) -> T:
        """``fetch`` of one query: on a reader, or on the writer connection for the thread that
        is writing (it sees its own transaction) and for a database in memory.
        """
        readers = self._readers
        if readers is None or self._writing == threading.get_ident():
            with self.lock:
                return fetch(self.conn.execute(sql, params))
        try:
            reader = readers.pop()
        except IndexError:
            assert self.path is not None
            reader = _connect(self.path)  # used by one thread at a time
            reader.execute("PRAGMA query_only = ON")
        try:
            return fetch(reader.execute(sql, params))
        except sqlite3.OperationalError as exc:
            if _busy(exc):
                raise Unavailable(_BUSY_MESSAGE) from exc
            raise
        finally:
            if self._readers is not None and len(self._readers) < IDLE_READERS:
                self._readers.append(reader)
            else:
                reader.close()

    def close(self) -> None:
        """Close the connections; a read still under way closes its reader when it ends."""
        if self._checkpoints is not None:
            self._checkpoints.close()
        readers, self._readers = self._readers, None
        for reader in readers or ():
            reader.close()
        with self.lock:
            self.conn.close()


class Repository:
    """A port's methods over one database: what each repository holds is its connections."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection


def marks(values: Collection[Any]) -> str:
    """The parameter marks of ``IN (...)`` or ``VALUES (...)`` for ``values``: ``?, ?, ?``."""
    return ", ".join("?" * len(values))


def insert(conn: sqlite3.Connection, table: str, row: Mapping[str, Any]) -> int | None:
    """Insert ``row`` (values by column) into ``table``, in the caller's transaction; its rowid."""
    sql = f"INSERT INTO {table} ({', '.join(row)}) VALUES ({marks(row)})"
    return conn.execute(sql, tuple(row.values())).lastrowid


def update(conn: sqlite3.Connection, table: str, row: Mapping[str, Any], **where: Any) -> None:
    """Set the columns of ``row`` in the rows of ``table`` that hold the values of ``where``, in
    the caller's transaction."""
    assignments = ", ".join(f"{column} = ?" for column in row)
    conditions = " AND ".join(f"{column} = ?" for column in where)
    conn.execute(
        f"UPDATE {table} SET {assignments} WHERE {conditions}", (*row.values(), *where.values())
    )


def _refused(exc: sqlite3.IntegrityError) -> NoReturn:
    """Raise the storage error of a row the database refused (``write`` translates once):
    ``DuplicateKey`` naming the unique key, ``Missing("user")`` for a reference to no row (what
    a caller can name that is not stored is a user); other faults as they are.
    """
    text = str(exc)
    if text == "FOREIGN KEY constraint failed":
        raise Missing("user") from exc
    key = _UNIQUE_KEYS.get(text.removeprefix("UNIQUE constraint failed: "))
    if key is None:
        raise exc
    raise DuplicateKey(key) from exc


def opening_error(path: str, exc: sqlite3.Error) -> Exception:
    """What to raise when the database at ``path`` could not be opened: ``Unavailable`` while
    another process holds it, else a ``ConfigurationError`` naming the path and why."""
    if _busy(exc):
        return Unavailable(_BUSY_MESSAGE)
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        reason = f"the directory {parent!r} does not exist"
    elif "not a database" in str(exc):
        reason = "the file is not a database"
    else:
        reason = (str(exc).splitlines() or [type(exc).__name__])[0]
    return ConfigurationError(f"cannot open the SQLite database {path!r}: {reason}")


def _refuse_special(path: str) -> None:
    """``ConfigurationError`` for a path that exists but is no regular file (a directory, a
    device, a pipe): SQLite would fail on it, or make its journal files beside it."""
    if os.path.exists(path) and not os.path.isfile(path):
        kind = "a directory" if os.path.isdir(path) else "not a regular file"
        raise ConfigurationError(f"cannot open the SQLite database {path!r}: it is {kind}")


def _connect(path: str) -> sqlite3.Connection:
    # autocommit: every transaction is explicit (``write``); a reader's query is its own snapshot
    return sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False, isolation_level=None
    )


def _write_ahead(conn: sqlite3.Connection) -> None:
    """Put the database in WAL mode. Turning a new file to WAL takes its lock at once or fails,
    without the busy handler's wait (SQLite's ``journal_mode``): processes opening one new file
    together try again for up to ``BUSY_TIMEOUT_SECONDS``, then it raises as a write would."""
    deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
    pause = 0.001
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if not _busy(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def _busy(exc: sqlite3.Error) -> bool:
    """Whether SQLite gave up waiting for a lock (errors raised by Python itself carry no code)."""
    code: int | None = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _BUSY_CODES


def _schema_version(conn: sqlite3.Connection) -> int:
    """The number of migrations the database has had (0 for a new one)."""
    found = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if found is None:
        return 0
    version: int | None = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    return version or 0
