"""One PostgreSQL database: its storage URL, the connection pool, transactions, and the driver's
errors translated into storage errors, once, here.

Opening connects once, outside the pool, so that a wrong URL, a refused password or a server
that does not answer fails at once with its reason (a ``ConfigurationError`` of one line that
never shows the password), and brings the schema up to date. Then a ``psycopg_pool`` pool
serves every call: a read, or a write of one statement, runs in autocommit (one transaction,
one round trip), a write of several statements in one ``conn.transaction()``. Every pooled
connection starts with ``search_path`` set to the URL's ``schema`` and a lock timeout; a call
that cannot get a connection, a lock or an answer in time, or loses its server, raises
``Unavailable`` (nothing changed: a transaction either commits or is rolled back).
"""

from __future__ import annotations

import re
import select
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import errors, sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import ConnectionPool, PoolClosed

from storycore.errors import ConfigurationError, DuplicateKey, Missing, Unavailable

from ._schema import MIGRATIONS, TABLES

__all__ = ["POOL_SIZE", "TIMEOUT_SECONDS", "Database", "Part", "drop_schema", "empty_schema"]

#: How long a call waits for a pooled connection or a row lock, and opening for the server to
#: accept a connection (``connect_timeout`` in the URL changes the latter), in seconds.
TIMEOUT_SECONDS = 4
#: The most connections a store holds: its ``parallel_calls``.
POOL_SIZE = 4

Connection = psycopg.Connection[tuple[Any, ...]]
_SCHEMA = re.compile(r"[a-z_][a-z0-9_]{0,62}")
#: The unique constraints, named after the storage key they hold (``_pg_schema``).
_KEYS = frozenset(
    {"story.id", "story.slug", "user.id", "user.username"}
    | {"app.id", "app.name", "app.key_digest", "token.digest", "identity", "revision"}
    | {"event.id", "webhook.id"}
)
#: The foreign keys, by name: what is missing when one refuses a row.
_REFERENCES = {
    "story.author": "user",
    "token.user": "user",
    "token.app": "app",
    "revision.story": "story",
}
_LAST_PORT = 65535
_UNAVAILABLE = "the PostgreSQL server did not answer in time; try again in a moment"


def _parse(url: str) -> tuple[str, str, str]:
    """The connection string of ``url`` (without ``schema``, with our session settings), the
    schema, and how messages name the server (host, port and database, no credentials).
    """
    try:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
        rest = urlencode([(key, value) for key, value in query if key != "schema"])
        params = conninfo_to_dict(urlunsplit(parts._replace(query=rest)))
    except (ValueError, psycopg.Error) as exc:
        raise _malformed(str(exc), url) from None
    if fault := _numbers_fault(params):
        raise _malformed(fault, url)
    schema = dict(query).get("schema", "public")
    if not _SCHEMA.fullmatch(schema):
        raise ConfigurationError(
            f"the PostgreSQL schema {schema!r} is not a plain name: write lower-case letters,"
            " digits and '_', at most 63 (postgresql://user@host:port/dbname?schema=name)"
        )
    params.setdefault("connect_timeout", TIMEOUT_SECONDS)
    params.setdefault("application_name", f"storycore {schema}")  # in pg_stat_activity
    settings = f"-c search_path={schema} -c lock_timeout={TIMEOUT_SECONDS}s"
    params["options"] = f"{params.get('options') or ''} {settings}".strip()
    where = f"{params.get('host') or 'localhost'}:{params.get('port') or 5432}"
    return make_conninfo("", **params), schema, f"{where}/{params.get('dbname') or ''}"


def _numbers_fault(params: Mapping[str, Any]) -> str | None:
    """What is wrong with the numbers of a parsed URL, or None: each port (one a host,
    comma-separated; an empty one is the default) a whole number from 1 to 65535, and
    ``connect_timeout`` a whole number of seconds. libpq reads them only when it connects, and
    takes a port it cannot read for a service name to look up ("Servname not supported")."""
    for port in (params.get("port") or "").split(","):
        if port and not (port.isascii() and port.isdigit() and 1 <= int(port) <= _LAST_PORT):
            return f"the port {port!r} is not a whole number from 1 to {_LAST_PORT}"
    timeout = params.get("connect_timeout")
    if timeout is not None and not (timeout.isascii() and timeout.isdigit()):
        return f"the connect_timeout {timeout!r} is not a whole number of seconds"
    return None


def _malformed(reason: str, url: str) -> ConfigurationError:
    """The error of a URL that cannot be read, saying why without its password."""
    return ConfigurationError(
        f"malformed PostgreSQL URL (postgresql://...): {_without(reason, url)}"
    )


def _without(message: str, url: str) -> str:
    """The first line of ``message`` with the password of ``url`` blotted out."""
    authority = url.split("://", 1)[-1].split("?", 1)[0]
    secret = authority.rpartition("@")[0].partition(":")[2]
    line = (message.strip().splitlines() or [""])[0]
    for text in sorted({secret, unquote(secret)} - {""}, key=len, reverse=True):
        line = line.replace(text, "***")
    return line


class Database:
    """The pool of one store, with the schema brought up to date; the ``SQLDatabase`` of
    ``_sql_accounts``."""

    mark = "%s"
    row_lock = " FOR UPDATE"  # a changed record's row, held until the transaction ends

    def __init__(self, url: str) -> None:
        conninfo, self.schema, where = _parse(url)
        try:
            with psycopg.connect(conninfo, autocommit=True) as conn:
                _migrate(conn, self.schema)
            self.pool: ConnectionPool[Connection] = ConnectionPool(
                conninfo,
                kwargs={"autocommit": True},
                min_size=1,
                max_size=POOL_SIZE,
                timeout=TIMEOUT_SECONDS,
                check=_check,
                open=True,
                name=f"storycore {where} {self.schema}",
            )
            self.pool.wait(TIMEOUT_SECONDS)  # its first connection: no call waits for it
        except psycopg.Error as exc:  # the pool closes itself when it times out
            reason = f"cannot open PostgreSQL at {where}: {type(exc).__name__}: {exc}"
            raise ConfigurationError(_without(reason, url)) from None  # its text may hold it

    def rows(
        self, query: str, params: Sequence[Any] | Mapping[str, Any] = (), *, binary: bool = False
    ) -> list[tuple[Any, ...]]:
        """Every row of one statement, which is its own transaction; with ``binary``, its
        results in PostgreSQL's binary format (a ``bytea`` as its bytes, not as hex)."""
        with _translated(), self.pool.connection() as conn:
            return conn.execute(query, params, binary=binary).fetchall()

    def row(
        self, query: str, params: Sequence[Any] | Mapping[str, Any] = (), *, binary: bool = False
    ) -> tuple[Any, ...] | None:
        """The first row of one statement, or None."""
        found = self.rows(query, params, binary=binary)
        return found[0] if found else None

    def run(self, query: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> int:
        """Run one statement, which is its own transaction; how many rows it changed."""
        with _translated(), self.pool.connection() as conn:
            return conn.execute(query, params).rowcount

    @staticmethod
    def one_of(column: str, values: Collection[str]) -> tuple[str, list[Any]]:
        """The condition that ``column`` is one of ``values``, and its parameter."""
        return f"{column} = ANY(%s::text[])", [[*values]]

    @contextmanager
    def write(self, *, pipeline: bool = False) -> Iterator[Connection]:
        """A connection in a transaction: committed when the block ends, rolled back when it
        raises; the driver's errors raised as storage errors. In a ``pipeline`` the block's
        statements are sent without waiting for their results (it must read none)."""
        with (
            _translated(),
            self.pool.connection() as conn,
            conn.transaction(),
            conn.pipeline() if pipeline else nullcontext(),
        ):
            yield conn

    def close(self) -> None:
        self.pool.close()


class Part:
    """A repository: a view over one database."""

    def __init__(self, db: Database) -> None:
        self._db = db


def _check(conn: Connection) -> None:
    """Refuse a pooled connection the server has closed (it restarted, or ended the session):
    its socket is readable while no statement runs. No round trip: the pool then hands out
    another connection, or makes one, and calls recover by themselves once the server is back.
    """
    if select.select([conn.pgconn.socket], [], [], 0)[0]:
        conn.close()
        raise psycopg.OperationalError("the server closed the connection")


@contextmanager
def _translated() -> Iterator[None]:
    """The driver's errors as storage errors: a refused unique key is ``DuplicateKey`` naming
    it, a refused reference ``Missing`` naming what is not there, and a server that is gone,
    busy or slow ``Unavailable``. Other errors are bugs and pass through."""
    try:
        yield
    except errors.UniqueViolation as exc:
        if exc.diag.constraint_name not in _KEYS:
            raise
        raise DuplicateKey(exc.diag.constraint_name) from exc
    except errors.ForeignKeyViolation as exc:
        kind = _REFERENCES.get(exc.diag.constraint_name or "")
        if kind is None:
            raise
        raise Missing(kind) from exc
    except PoolClosed:
        raise  # a store used after ``close``: a bug, not an outage
    except psycopg.OperationalError as exc:  # the pool's timeouts too
        raise Unavailable(_UNAVAILABLE) from exc


def _version(conn: Connection) -> int:
    """How many migrations the schema has had (0 for a new one)."""
    exists = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if not exists or not exists[0]:
        return 0
    found = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return int(found[0]) if found else 0


def _migrate(conn: Connection, schema: str) -> None:
    """Make the schema if it is missing and run the migrations it has not had, in one
    transaction, under a lock that makes concurrent openers wait for the first."""
    if _version(conn) >= len(MIGRATIONS):
        return  # up to date: opening writes nothing
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"storycore {schema}",))
        missing = conn.execute("SELECT to_regnamespace(%s) IS NULL", (schema,)).fetchone()
        if missing and missing[0]:
            conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
        current = _version(conn)
        for number, migration in enumerate(MIGRATIONS[current:], start=current + 1):
            conn.execute(migration)  # several statements: no parameters, so allowed
            conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (number,))


def drop_schema(url: str) -> None:
    """Drop the schema ``url`` names with everything in it (the testing kit drops the schema
    of each store it made)."""
    conninfo, schema, _ = _parse(url)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def empty_schema(url: str) -> bool:
    """Delete every row of the schema ``url`` names and keep its tables, so that the testing kit
    can open it again as a fresh store: about a millisecond, where making a schema runs every
    migration (about 70). False, with nothing deleted, for a schema that does not hold exactly
    this version's tables (the kit drops it instead)."""
    conninfo, _, _ = _parse(url)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        found = conn.execute(
            "SELECT array_agg(tablename::text) FROM pg_tables WHERE schemaname = current_schema()"
        ).fetchone()
        if found is None or set(found[0] or ()) != {*TABLES, "schema_version"}:
            return False
        if _version(conn) != len(MIGRATIONS):
            return False
        with conn.transaction():
            for table in TABLES:
                conn.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(table)))
    return True
