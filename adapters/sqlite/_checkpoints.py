"""WAL checkpoints off the write path.

SQLite copies the WAL back into the database file (a checkpoint, with its ``fsync``) in the
commit that crosses ``wal_autocheckpoint`` pages, so every thousandth page or so one write
waited for it: creates of 20-element stories had a p95 of 24 ms against a p50 of 2 ms. Here a
thread of the store's own runs passive checkpoints (which neither wait for writers nor make
them wait) a moment after writes, on a connection of its own, and SQLite's releases the GIL
meanwhile. Passive checkpoints alone never let the WAL start over while writes keep coming,
so the automatic checkpoint stays, at a larger size, as the backstop that bounds the file
(benchmarks/README.md, "Creating 20-element stories").
"""

from __future__ import annotations

import logging
import sqlite3
import threading

__all__ = ["AUTOCHECKPOINT_PAGES", "Checkpoints"]

#: The automatic checkpoint of the writer connection: the WAL's bound (16 MB of 4 KB pages).
AUTOCHECKPOINT_PAGES = 4000
#: How long after a write the background checkpoint runs.
_DELAY_SECONDS = 0.1

logger = logging.getLogger(__name__)


class Checkpoints:
    """A daemon thread checkpointing ``path`` after writes, until ``close``."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._written = threading.Event()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._run, name="storycore-checkpoints", daemon=True)
        self._thread.start()

    def written(self) -> None:
        """A write transaction committed: its pages are in the WAL."""
        self._written.set()

    def _run(self) -> None:
        conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        try:
            while True:
                self._written.wait()
                if self._closing.wait(_DELAY_SECONDS):
                    return
                self._written.clear()
                if self._closing.is_set():  # ``close`` ran before the clear took its signal
                    return
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as exc:  # the writers' automatic checkpoint still runs
                    logger.debug("background checkpoint of %s skipped: %s", self._path, exc)
        finally:
            conn.close()

    def close(self) -> None:
        """Stop the thread; the writer's own checkpoint at close covers what is left."""
        self._closing.set()
        self._written.set()
        self._thread.join()
