"""Real processes that race: each has done its imports and waits for a line on its standard
input; given the same line at once, they start together, each answering one line."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def racers(code: str, count: int) -> Iterator[list[subprocess.Popen[str]]]:
    """``count`` processes running ``code``, which prints ``ready`` once its imports are done,
    then answers each line of its input with one line."""
    started = [
        subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        for _ in range(count)
    ]
    try:
        for process in started:
            assert process.stdout is not None
            assert process.stdout.readline() == "ready\n"
        yield started
    finally:
        for process in started:
            process.kill()
            process.communicate()  # closes its pipes


def race(processes: list[subprocess.Popen[str]], line: str) -> list[str]:
    """``line`` given to every process before any answer is read, then their answers."""
    for process in processes:
        assert process.stdin is not None
        process.stdin.write(f"{line}\n")
        process.stdin.flush()
    said = []
    for process in processes:
        assert process.stdout is not None
        said.append(process.stdout.readline().strip())
    return said
