"""Processes that open one new SQLite file at once all open it: turning a new file to WAL takes
its lock at once or fails without waiting, so each process tries again within the busy timeout
(``storycore serve --workers N`` or ``uvicorn --factory ... --workers N`` on a new file)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PROCESSES = 6
FILES = 40

#: One opener: its imports done, it opens each file named on its standard input and says how.
_OPENER = """
import sys
from storycore.adapters import open_store
print("ready", flush=True)
for line in sys.stdin:
    try:
        open_store(line.strip()).close()
        print("opened", flush=True)
    except Exception as exc:
        print(f"{type(exc).__name__}: {exc}", flush=True)
"""


@pytest.fixture
def openers() -> Iterator[list[subprocess.Popen[str]]]:
    started = [
        subprocess.Popen(
            [sys.executable, "-c", _OPENER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(PROCESSES)
    ]
    try:
        for process in started:
            assert process.stdout is not None
            assert process.stdout.readline().strip() == "ready"
        yield started
    finally:
        for process in started:
            process.kill()
            process.communicate()  # closes its pipes


def test_processes_opening_one_new_file_at_once_all_open_it(
    openers: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    failed: dict[int, list[str]] = {}
    for n in range(FILES):
        url = f"sqlite:///{tmp_path / f'stories-{n}.db'}\n"
        for process in openers:  # written to all before any answer is read: they race
            assert process.stdin is not None
            process.stdin.write(url)
            process.stdin.flush()
        said = [process.stdout.readline().strip() for process in openers if process.stdout]
        if said != ["opened"] * PROCESSES:
            failed[n] = said
    assert failed == {}
