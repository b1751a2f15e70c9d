"""SQLite files are checkpointed off the write path (``adapters/sqlite/_checkpoints.py``): a
write commits to the WAL and returns, and a thread of the store's own copies the WAL back into
the database file a moment later, so no write waits for a checkpoint's copy and ``fsync``."""

from __future__ import annotations

import hashlib
import threading
import time
from pathlib import Path

from storycore.adapters import open_store
from storycore.adapters.sqlite._checkpoints import Checkpoints
from tests.contract._factories import add_user

WAIT_SECONDS = 3.0


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _checkpoint_threads() -> int:
    return sum(t.name == "storycore-checkpoints" for t in threading.enumerate())


def test_a_write_reaches_the_database_file_a_moment_after_it_returns(tmp_path: Path) -> None:
    path = tmp_path / "stories.db"
    store = open_store(f"sqlite:///{path}")
    try:
        before = _digest(path)
        add_user(store, "alice")  # a few pages: far below the automatic checkpoint
        deadline = time.monotonic() + WAIT_SECONDS
        while _digest(path) == before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _digest(path) != before
    finally:
        store.close()


def test_closing_a_store_stops_its_checkpoint_thread(tmp_path: Path) -> None:
    before = _checkpoint_threads()
    store = open_store(f"sqlite:///{tmp_path / 'stories.db'}")
    assert _checkpoint_threads() == before + 1
    store.close()
    assert _checkpoint_threads() == before


def test_a_store_in_memory_has_no_checkpoint_thread() -> None:
    before = _checkpoint_threads()
    store = open_store("sqlite://")
    try:
        assert _checkpoint_threads() == before
    finally:
        store.close()


def test_a_close_that_lands_as_a_checkpoint_falls_due_still_stops_the_thread(
    tmp_path: Path,
) -> None:
    """``close`` may run between the thread's delay and its taking the write signal: the
    thread still stops (it once went back to waiting for a next write, forever, and ``close``
    waited for it)."""
    checkpoints = Checkpoints(str(tmp_path / "stories.db"))
    first = checkpoints._written

    class CloseFirst(threading.Event):
        def clear(self) -> None:
            checkpoints._closing.set()  # what ``close`` does, just before the thread clears
            self.set()
            super().clear()

    checkpoints._written = CloseFirst()
    checkpoints.written()
    first.set()  # whichever signal the thread waits on
    checkpoints._thread.join(WAIT_SECONDS)
    assert not checkpoints._thread.is_alive()
