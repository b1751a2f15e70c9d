"""The connections to one SQLite database: a writer, and readers that never wait for it.

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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlite_utils import Database

from storycore.errors import ConfigurationError, Unavailable

from ._sqlite_schema import MIGRATIONS

__all__ = ["BUSY_TIMEOUT_SECONDS", "IDLE_READERS", "Connection", "opening_error"]

#: How long a write waits for the database (the lock of this process's writer connection, then
#: SQLite's write lock) before it gives up with ``Unavailable``. A web request should not hang
#: for longer than a few seconds; a normal write transaction takes milliseconds, so this is
#: long enough for writers to queue behind one another, threads and processes alike.
BUSY_TIMEOUT_SECONDS = 5.0
#: At most this many idle reader connections are kept; more are closed after their read.
IDLE_READERS = 8

T = TypeVar("T")
_BUSY_CODES = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})
_BUSY_MESSAGE = "the database is busy (another writer holds it); try again in a moment"


class Connection:
    """A writer connection and a pool of readers over one database file (or memory)."""

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
        try:
            self.db = Database(self.conn)
            self.conn.execute("PRAGMA foreign_keys = ON")
            if self.path is not None:
                self.db.enable_wal()
                self.conn.execute("PRAGMA synchronous = NORMAL")
            self._migrate()
        except BaseException:
            self.conn.close()
            raise

    def _migrate(self) -> None:
        if _schema_version(self.conn) >= len(MIGRATIONS):
            return  # up to date: opening takes no write lock
        with self.write() as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = _schema_version(conn)  # another process may have migrated meanwhile
            for number, migration in enumerate(MIGRATIONS[current:], start=current + 1):
                if isinstance(migration, str):
                    for statement in _statements(migration):
                        conn.execute(statement)
                else:
                    migration(conn)
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
            _execute(conn, "BEGIN IMMEDIATE")
            self._writing = threading.get_ident()
            try:
                yield conn
                _execute(conn, "COMMIT")
            except BaseException as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.OperationalError) and _busy(exc):
                    raise Unavailable(_BUSY_MESSAGE) from exc
                raise
            finally:
                self._writing = None
        finally:
            self.lock.release()

    def rows(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        """All rows of one query."""
        return self._read(sql, params, sqlite3.Cursor.fetchall)

    def row(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> tuple[Any, ...] | None:
        """The first row of one query, or None."""
        # the cursor goes at once, which ends the statement and its read snapshot
        return self._read(sql, params, sqlite3.Cursor.fetchone)  # type: ignore[no-any-return]

    def _read(
        self, sql: str, params: tuple[Any, ...] | list[Any], fetch: Callable[[sqlite3.Cursor], T]
    ) -> T:
        """``fetch`` of one query: on a reader, or on the writer connection for the thread that
        is writing (it sees its own transaction) and for a database in memory.
        """
        readers, writing = self._readers, self._writing
        if readers is None or (writing is not None and writing == threading.get_ident()):
            with self.lock:
                return fetch(self.conn.execute(sql, params))
        try:
            reader = readers.pop()
        except IndexError:
            reader = self._open_reader()
        try:
            return fetch(reader.execute(sql, params))
        except sqlite3.OperationalError as exc:
            if _busy(exc):
                raise Unavailable(_BUSY_MESSAGE) from exc
            raise
        finally:
            self._give_back(reader)

    def _open_reader(self) -> sqlite3.Connection:
        """A new read-only connection to the file (used by one thread at a time)."""
        assert self.path is not None
        reader = _connect(self.path)
        reader.execute("PRAGMA query_only = ON")
        return reader

    def _give_back(self, reader: sqlite3.Connection) -> None:
        readers = self._readers
        if readers is not None and len(readers) < IDLE_READERS:
            readers.append(reader)
        else:
            reader.close()

    def close(self) -> None:
        """Close the connections; a read still under way closes its reader when it ends."""
        readers, self._readers = self._readers, None
        for reader in readers or ():
            reader.close()
        with self.lock:
            self.conn.close()


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


def _execute(conn: sqlite3.Connection, statement: str) -> None:
    """Run one statement, a busy database becoming ``Unavailable``."""
    try:
        conn.execute(statement)
    except sqlite3.OperationalError as exc:
        if _busy(exc):
            raise Unavailable(_BUSY_MESSAGE) from exc
        raise


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


def _statements(script: str) -> list[str]:
    """A migration script as single statements (executescript would commit our transaction)."""
    return [part.strip() for part in script.split(";\n") if part.strip()]
