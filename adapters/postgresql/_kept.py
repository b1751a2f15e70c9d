"""Kept pictures on PostgreSQL (migrations 8 and 10; the rest is ``_sql.kept``).

Records are claimed as webhook deliveries are (``_webhooks``): one ``UPDATE`` over the due ones
locked ``FOR UPDATE SKIP LOCKED``, so a record another claim holds is passed over, not waited
for, and one that claim leased is no longer free when its row is read again; the due ones are a
walk of ``kept_sources_due``, earliest first. A file's bytes are read in the binary format.
"""

from __future__ import annotations

from storycore.model.kept import KeptFile, KeptSource

from .._sql.kept import FILE, SQLKeptFiles, SQLKeptSources, source
from ._database import Database

__all__ = ["PostgreSQLKeptFiles", "PostgreSQLKeptSources"]

_CLAIM = (
    "UPDATE kept_sources k SET leased_until = %(until)s, leased_by = %(owner)s"
    " FROM (SELECT key FROM kept_sources WHERE next_attempt <= %(now)s"
    " AND (leased_until IS NULL OR leased_until <= %(now)s)"
    " ORDER BY next_attempt, key LIMIT %(limit)s FOR UPDATE SKIP LOCKED) due"
    " WHERE k.key = due.key"
    f" RETURNING {', '.join(f'k.{name}' for name in KeptSource._fields)}"
)


class PostgreSQLKeptSources(SQLKeptSources):
    """Source records; claimed from ``kept_sources_due``."""

    def claim(self, now: str, until: str, owner: str, limit: int) -> list[KeptSource]:
        """One statement (``_CLAIM``); ``RETURNING`` keeps no order, so they are sorted here."""
        params = {"now": now, "until": until, "owner": owner, "limit": max(limit, 0)}
        rows = self._db.rows(_CLAIM, params)
        return sorted(map(source, rows), key=lambda s: (s.next_attempt or "", s.address))


class PostgreSQLKeptFiles(SQLKeptFiles):
    """Files; read in the binary format."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self._pg = db

    def get(self, name: str) -> tuple[KeptFile, bytes] | None:
        """In the binary format: in text, PostgreSQL sends a ``bytea`` as hex, twice its size,
        for the driver to decode (a file of 324 KiB took 25 ms instead of 1: benchmarks/README.md,
        "Kept pictures")."""
        query = f"SELECT {FILE}, data FROM kept_files WHERE name = %s"
        row = self._pg.row(query, (name,), binary=True)
        return None if row is None else (KeptFile._make(row[:-1]), bytes(row[-1]))
