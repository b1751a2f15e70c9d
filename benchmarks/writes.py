"""Concurrent writes: 20-element stories created through the service, by one writer,
by eight threads of one process, and by two processes of four threads each, on one SQLite file.

    python -m benchmarks.writes --stories 10000 --seconds 10

Each writer creates published stories of the data set (``data.py``) under its authors, with a
slug of its own, for ``--seconds``; the figure is the creates acknowledged a second. The store
is loaded with ``--stories`` first, so that its indexes have the size of a real one. Prints a
Markdown table. Never part of the test suite.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.data import DataSet
from benchmarks.load import load
from storycore import Service, Settings
from storycore.adapters import open_store

__all__ = ["main"]

_SETTINGS = Settings(web_url="http://bench.example", password_cost=16)


def _stories(data: DataSet) -> list[tuple[str, dict[str, Any]]]:
    return [(author, story) for author, story, _ in itertools.islice(data.story_inputs(), 64)]


def _write(url: str, data: DataSet, threads: int, seconds: float, name: str) -> int:
    """Creates acknowledged by ``threads`` writers of one process in ``seconds``."""
    stories = _stories(data)
    done = [0] * threads
    with Service(open_store(url), _SETTINGS) as service:
        editor = service.accounts.as_user("bench_editor")
        start = threading.Barrier(threads)

        def writer(number: int) -> None:
            start.wait()
            deadline = time.monotonic() + seconds
            for n in itertools.count():
                if time.monotonic() >= deadline:
                    return
                author, story = stories[(number + n) % len(stories)]
                slug = f"{name}-{number}-{n}"
                service.stories.create(author, {**story, "slug": slug}, viewer=editor, publish=True)
                done[number] += 1

        workers = [threading.Thread(target=writer, args=(n,)) for n in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    return sum(done)


def _in_processes(url: str, data: DataSet, processes: int, threads: int, seconds: float) -> int:
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes) as pool:
        counts = pool.starmap(
            _write, [(url, data, threads, seconds, f"p{n}") for n in range(processes)]
        )
    return sum(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stories", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    data = DataSet(stories=args.stories, authors=min(500, max(1, args.stories // 20)), elements=20)
    url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='storycore-writes-')) / 'bench.db'}"
    with Service(open_store(url), _SETTINGS) as service:
        load(service, data)
        service.accounts.create_user("bench_editor", editor=True)
    print(f"{args.stories:,} stories of 20 elements loaded; {args.seconds:g} s a run\n")
    print("| writers | creates/s |\n|---|---:|")
    runs: list[tuple[str, Callable[[], int]]] = [
        ("one thread", lambda: _write(url, data, 1, args.seconds, "one")),
        ("8 threads, one process", lambda: _write(url, data, 8, args.seconds, "eight")),
        ("2 processes of 4 threads", lambda: _in_processes(url, data, 2, 4, args.seconds)),
    ]
    for name, run in runs:
        print(f"| {name} | {run() / args.seconds:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
