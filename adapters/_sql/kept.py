"""Kept pictures on a SQL database (docs/media-storage.md): one implementation for the SQLite and
the PostgreSQL adapters, which differ in their parameter mark and in how a claim is one
statement (each adapter adds ``claim``).

``kept_files`` holds a row per file, its bytes in the last column (a ``BLOB``, a ``bytea``), so a
read of its members only never loads them. ``kept_sources`` holds a row per source address,
keyed by the SHA-256 of the address (``source_key``): an address may be longer than an index
entry may be (PostgreSQL's B-tree takes about 2.7 KB), and the key is fixed in length. Its
``copies`` are a JSON array of ``[name, media type, width, height]``; ``kept_names`` (name, key)
repeats each name a record holds, so that finding the files no record names is an index
lookup, and goes with its record (``ON DELETE CASCADE``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
from typing import Any

import orjson

from storycore.model.kept import KeptCopy, KeptFile, KeptSource
from storycore.ports import KeptFiles, KeptSources

from .accounts import SQLDatabase

__all__ = ["FILE", "SOURCE", "SQLKeptFiles", "SQLKeptSources", "source", "source_key"]

#: A file's columns but its bytes, in the order of its members.
FILE = ", ".join(KeptFile._fields)
#: A record's columns, in the order of its members.
SOURCE = ", ".join(KeptSource._fields)
#: What ``finish`` writes over a stored record: its outcome, not its address, seen or lease.
_OUTCOME = ("state", "copies", "fetched", "attempts", "reason", "next_attempt")


def source_key(address: str) -> str:
    """The key of ``address``'s row: the SHA-256 of its UTF-8, in hex."""
    return hashlib.sha256(address.encode()).hexdigest()


def source(row: Iterable[Any]) -> KeptSource:
    """The record of a row of ``SOURCE``, its copies read from their JSON."""
    members = dict(zip(KeptSource._fields, row, strict=True))
    members["copies"] = tuple(KeptCopy(*copy) for copy in orjson.loads(members["copies"]))
    return KeptSource(**members)


def _copies(copies: Iterable[KeptCopy]) -> str:
    return orjson.dumps([list(copy) for copy in copies]).decode()


class SQLKeptFiles(KeptFiles):
    """The ``kept_files`` table: a row per file, by name."""

    def __init__(self, db: SQLDatabase) -> None:
        self._db = db
        mark = db.mark
        self._put = (
            f"INSERT INTO kept_files ({FILE}, data) VALUES ({', '.join([mark] * 7)})"
            " ON CONFLICT (name) DO UPDATE SET at = excluded.at WHERE kept_files.at < excluded.at"
        )

    def put(self, file: KeptFile, data: bytes) -> None:
        self._db.run(self._put, (*file, bytes(data)))

    def head(self, name: str) -> KeptFile | None:
        row = self._db.row(f"SELECT {FILE} FROM kept_files WHERE name = {self._db.mark}", (name,))
        return None if row is None else KeptFile._make(row)

    def get(self, name: str) -> tuple[KeptFile, bytes] | None:
        mark = self._db.mark
        row = self._db.row(f"SELECT {FILE}, data FROM kept_files WHERE name = {mark}", (name,))
        return None if row is None else (KeptFile._make(row[:-1]), bytes(row[-1]))

    def scan(self, after: str | None, limit: int) -> list[KeptFile]:
        mark = self._db.mark
        rows = self._db.rows(
            f"SELECT {FILE} FROM kept_files WHERE name > {mark} ORDER BY name LIMIT {mark}",
            (after or "", max(limit, 0)),
        )
        return [KeptFile._make(row) for row in rows]

    def delete(self, names: Collection[str]) -> int:
        if not names:
            return 0
        condition, params = self._db.one_of("name", names)
        return self._db.run(f"DELETE FROM kept_files WHERE {condition}", params)

    def delete_unshown(self, before: str, limit: int) -> list[str]:
        """One statement: the oldest files no row of ``kept_names`` names, walked through
        ``kept_files_at``, each looked up in ``kept_names``'s key."""
        mark = self._db.mark
        unshown = (
            f"SELECT f.name FROM kept_files f WHERE f.at < {mark} AND NOT EXISTS"
            " (SELECT 1 FROM kept_names n WHERE n.name = f.name)"
            f" ORDER BY f.at, f.name LIMIT {mark}"
        )
        with self._db.write() as conn:
            rows = conn.execute(
                f"DELETE FROM kept_files WHERE name IN ({unshown}) RETURNING at, name",
                (before, max(limit, 0)),
            ).fetchall()
        return [name for _, name in sorted(rows)]


class SQLKeptSources(KeptSources):
    """The ``kept_sources`` table and its names in ``kept_names``; ``claim`` is each
    adapter's."""

    def __init__(self, db: SQLDatabase) -> None:
        self._db = db
        mark = db.mark
        self._finish = (
            f"UPDATE kept_sources SET {', '.join(f'{name} = {mark}' for name in _OUTCOME)},"
            f" leased_until = NULL, leased_by = NULL WHERE key = {mark} AND leased_by = {mark}"
        )
        columns = KeptSource._fields
        self._restore = (
            f"INSERT INTO kept_sources (key, {SOURCE})"
            f" VALUES ({', '.join([mark] * (1 + len(columns)))}) ON CONFLICT (key)"
            f" DO UPDATE SET {', '.join(f'{name} = excluded.{name}' for name in columns)}"
        )

    def want(
        self,
        addresses: Collection[str],
        at: str,
        story: str | None = None,
        stale: str | None = None,
    ) -> int:
        """The new records, then ``seen`` (and a missing ``wanted_by``) of every other given
        one: one transaction. A row just written, or seen since ``stale``, is not written
        again: on a save's path, that spares the rows of pictures the story showed already
        (benchmarks/README.md)."""
        # in the keys' order: two writes bringing the same new pictures lock their rows in one
        # order, and so cannot wait on each other
        keyed = dict(sorted((source_key(a), a) for a in addresses))
        if not keyed:
            return 0
        mark = self._db.mark
        keys, given = self._db.one_of("key", keyed)
        # old: a stored row this want must write (seen before ``stale``, or wanted by none)
        old = f"seen < {mark}" if stale is not None else f"seen <> {mark}"
        if stale is not None:  # a read first: a story saved again mostly writes nothing
            stored = self._db.rows(
                f"SELECT {old}, wanted_by IS NULL FROM kept_sources WHERE {keys}",
                [stale, *given],
            )
            if len(stored) == len(keyed) and not any(
                unseen or (story is not None and unwanted) for unseen, unwanted in stored
            ):
                return 0
        row = f"({', '.join([mark] * 5)}, 'pending', '[]', 0, 0)"
        params = [value for key, a in keyed.items() for value in (key, a, at, at, story)]
        with self._db.write() as conn:
            new = conn.execute(
                "INSERT INTO kept_sources (key, address, seen, next_attempt, wanted_by, state,"
                f" copies, fetched, attempts) VALUES {', '.join([row] * len(keyed))}"
                " ON CONFLICT (key) DO NOTHING",
                params,
            ).rowcount
            # not the rows just written, nor those seen lately, which need nothing more
            conn.execute(
                f"UPDATE kept_sources SET seen = CASE WHEN {old} THEN {mark} ELSE seen END,"
                f" wanted_by = COALESCE(wanted_by, {mark})"
                f" WHERE {keys} AND ({old} OR wanted_by IS NULL)",
                [stale or at, at, story, *given, stale or at],
            )
        return int(new)

    def touch(self, addresses: Collection[str], at: str) -> int:
        if not addresses:
            return 0
        keys, keyed = self._db.one_of("key", {source_key(a) for a in addresses})
        mark = self._db.mark
        return self._db.run(f"UPDATE kept_sources SET seen = {mark} WHERE {keys}", [at, *keyed])

    def get_many(self, addresses: Iterable[str]) -> dict[str, KeptSource]:
        keys = {source_key(a) for a in addresses}
        if not keys:
            return {}
        condition, params = self._db.one_of("key", keys)
        rows = self._db.rows(f"SELECT {SOURCE} FROM kept_sources WHERE {condition}", params)
        return {found.address: found for found in map(source, rows)}

    def finish(self, source: KeptSource, owner: str) -> bool:
        """The outcome and the record's names, in one transaction."""
        key = source_key(source.address)
        outcome = [getattr(source, name) for name in _OUTCOME]
        outcome[_OUTCOME.index("copies")] = _copies(source.copies)
        with self._db.write() as conn:
            if conn.execute(self._finish, (*outcome, key, owner)).rowcount == 0:
                return False
            self._name(conn, key, source.copies)
        return True

    def _name(self, conn: Any, key: str, copies: Iterable[KeptCopy]) -> None:
        """Make ``kept_names`` hold the names of ``copies`` for the record ``key``, in the
        caller's transaction."""
        mark = self._db.mark
        conn.execute(f"DELETE FROM kept_names WHERE key = {mark}", (key,))
        names = list(dict.fromkeys(copy.name for copy in copies))
        if names:
            rows = ", ".join([f"({mark}, {mark})"] * len(names))
            params = [value for name in names for value in (name, key)]
            conn.execute(f"INSERT INTO kept_names (name, key) VALUES {rows}", params)

    def restore(self, sources: Iterable[KeptSource]) -> None:
        """One transaction: each row written over (``ON CONFLICT``), then its names."""
        with self._db.write() as conn:
            for given in sources:
                key = source_key(given.address)
                row = list(given._replace(leased_until=None, leased_by=None))
                row[KeptSource._fields.index("copies")] = _copies(given.copies)
                conn.execute(self._restore, (key, *row))
                self._name(conn, key, given.copies)

    def retry_failed(self, now: str) -> int:
        return self._db.run(
            f"UPDATE kept_sources SET next_attempt = {self._db.mark}, attempts = 0"
            " WHERE state = 'failed' AND next_attempt IS NULL",
            (now,),
        )

    def scan(self, after: str | None, limit: int) -> list[KeptSource]:
        """By key: the order of the SHA-256 of the addresses."""
        mark = self._db.mark
        rows = self._db.rows(
            f"SELECT {SOURCE} FROM kept_sources WHERE key > {mark} ORDER BY key LIMIT {mark}",
            ("" if after is None else source_key(after), max(limit, 0)),
        )
        return [source(row) for row in rows]

    def forget(self, before: str) -> int:
        """Their names go with them (``ON DELETE CASCADE``)."""
        mark = self._db.mark
        return self._db.run(f"DELETE FROM kept_sources WHERE seen < {mark}", (before,))
