"""A writer killed with SIGKILL at random moments loses nothing it reported as created."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storycore import Service
from storycore.adapters import open_store
from tests.reliability import _workers

ROUNDS = 6


def _writer(url: str) -> subprocess.Popen[str]:
    """A writer process, started ahead of its turn: it imports, then waits to be told to write
    (so each round starts the next writer while it runs, and no round waits for an import)."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.reliability._workers", url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def _kill_a_writer(child: subprocess.Popen[str], rng: random.Random) -> list[str]:
    """Let a writer write, kill it with SIGKILL a random moment after its first story; the ids
    it reported."""
    assert child.stdin is not None
    assert child.stdout is not None
    child.stdin.write("write\n")
    child.stdin.flush()
    first = child.stdout.readline()  # it writes: the kill falls among writes, not imports
    time.sleep(rng.uniform(0.0, 0.6))
    child.kill()
    output, _ = child.communicate(timeout=30)
    return [*first.split(), *output.split()]


def _assert_complete(url: str, story_ids: list[str]) -> None:
    with Service(open_store(url), _workers.SETTINGS) as service:
        alice = service.accounts.as_user("alice")
        slugs = {}
        page = 1
        while True:
            listed = service.catalog.user("alice", viewer=alice, per_page=100, page=page)
            slugs.update({s.id: s.slug for s in listed.items})
            if not listed.has_next:
                break
            page += 1
        for story_id in story_ids:
            detail = service.stories.read("alice", slugs[story_id], viewer=alice, per_page=100)
            assert len(detail.elements) == _workers.ELEMENTS
            assert story_id in {s.sid for s in service.catalog.search(detail.title).items}


def test_killed_writers_leave_a_sound_database_with_every_returned_story(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "crash.db"
    url = f"sqlite:///{path}"
    with Service(open_store(url), _workers.SETTINGS) as service:
        service.accounts.create_user("alice")
    rng = random.Random(20261123)
    returned: list[str] = []
    upcoming = _writer(url)
    try:
        for round_ in range(ROUNDS):
            child = upcoming
            if round_ < ROUNDS - 1:
                upcoming = _writer(url)
            reported = _kill_a_writer(child, rng)
            connection = sqlite3.connect(path)
            assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            connection.close()
            _assert_complete(url, reported)
            returned += reported
    finally:
        upcoming.kill()
        upcoming.communicate(timeout=30)
    _assert_complete(url, returned)  # no later kill lost an earlier story
    assert returned, "the writer never got to create a story"
    with capsys.disabled():
        print(
            f"\ncrash: {ROUNDS} writers killed with SIGKILL, {len(returned)} stories reported "
            "created, all found complete, integrity_check ok after each kill"
        )
