"""Processes that open one new SQLite file at once all open it: turning a new file to WAL takes
its lock at once or fails without waiting, so each process tries again within the busy timeout
(``storycore serve --workers N`` or ``uvicorn --factory ... --workers N`` on a new file)."""

from __future__ import annotations

from pathlib import Path

from tests._racers import race, racers

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


def test_processes_opening_one_new_file_at_once_all_open_it(tmp_path: Path) -> None:
    failed: dict[int, list[str]] = {}
    with racers(_OPENER, PROCESSES) as openers:
        for n in range(FILES):
            said = race(openers, f"sqlite:///{tmp_path / f'stories-{n}.db'}")
            if said != ["opened"] * PROCESSES:
                failed[n] = said
    assert failed == {}
