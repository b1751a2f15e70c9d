"""Kept pictures on SQLite (migrations 15 and 17; the rest is ``_sql.kept``).

A claim is one statement in a write transaction: it leases the due records it picks from
``kept_sources_due`` and returns them, so two processes never lease the same record (each
write holds SQLite's one write lock), as webhook deliveries are claimed (``_webhooks``).
"""

from __future__ import annotations

from storycore.model.kept import KeptSource

from .._sql.kept import SOURCE, SQLKeptSources, source

__all__ = ["SQLiteKeptSources"]

#: Lease to ``?4`` until ``?3`` the records due at ``?1`` that no process holds, the first
#: ``?2`` of them due, and return them as leased.
_CLAIM = (
    "UPDATE kept_sources SET leased_until = ?3, leased_by = ?4 WHERE key IN ("
    "SELECT key FROM kept_sources WHERE next_attempt <= ?1"
    " AND (leased_until IS NULL OR leased_until <= ?1) ORDER BY next_attempt, key LIMIT ?2)"
    f" RETURNING {SOURCE}"
)


class SQLiteKeptSources(SQLKeptSources):
    """Source records; claimed from ``kept_sources_due``."""

    def claim(self, now: str, until: str, owner: str, limit: int) -> list[KeptSource]:
        """``_CLAIM``: SQLite returns the rows in no set order, so they are sorted here."""
        with self._db.write() as conn:
            rows = conn.execute(_CLAIM, (now, max(limit, 0), until, owner)).fetchall()
        return sorted(map(source, rows), key=lambda s: (s.next_attempt or "", s.address))
