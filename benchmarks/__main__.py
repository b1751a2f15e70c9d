"""``python -m benchmarks [--stories N]``: load a data set into SQLite and time reads.

Prints the load rate and, for each operation, p50 and p95 latency in milliseconds. The data
set is seeded, so two runs measure the same thing.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from storycore import Service, Settings
from storycore.adapters import open_store

from .data import DataSet


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.95) - 1]


def _time(operation: Callable[[int], object], repeat: int) -> tuple[float, float]:
    samples = []
    for i in range(repeat):
        start = time.perf_counter()
        operation(i)
        samples.append((time.perf_counter() - start) * 1000)
    return _percentiles(samples)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("--stories", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()

    data = DataSet(stories=args.stories, authors=min(500, max(1, args.stories // 20)))
    path = Path(tempfile.mkdtemp()) / "bench.db"
    service = Service(open_store(f"sqlite:///{path}"), Settings(password_cost=2**4))
    for name in data.author_names():
        service.accounts.create_user(name)
    editor = service.accounts.create_user("loader", editor=True)
    loader = service.accounts.as_user(editor.username)

    start = time.perf_counter()
    slugs: list[tuple[str, str]] = []
    for author, story, publish in data.story_inputs():
        created = service.stories.create(author, story, viewer=loader, publish=publish)
        if publish and not story["private"]:
            slugs.append((author, created.slug))
    load_seconds = time.perf_counter() - start

    words = data.vocabulary()
    common = words[len(words) // 2]
    rows: list[tuple[str, tuple[float, float]]] = [
        ("read a story (page 1 of elements)", _time(
            lambda i: service.stories.read(*slugs[i % len(slugs)]), args.repeat)),
        ("latest, page 1", _time(lambda i: service.catalog.latest(), args.repeat)),
        ("latest, page 200", _time(lambda i: service.catalog.latest(page=200), args.repeat)),
        ("by tag", _time(lambda i: service.catalog.stories(tag=words[i % 200]), args.repeat)),
        ("a user's list", _time(
            lambda i: service.catalog.user(data.author_names()[i % data.authors]), args.repeat)),
        ("search, one word", _time(lambda i: service.catalog.search(words[i]), args.repeat)),
        ("search, two words", _time(
            lambda i: service.catalog.search(f"{words[i]} {common}"), args.repeat)),
    ]  # fmt: skip

    print(f"machine: {platform.machine()}, {platform.python_implementation()} "
          f"{platform.python_version()}, SQLite file {path}")  # fmt: skip
    print(f"loaded {args.stories} stories of {data.elements} elements in {load_seconds:.1f} s "
          f"({args.stories / load_seconds:.0f} stories/s)")  # fmt: skip
    print(f"{'operation':<36} {'p50 ms':>8} {'p95 ms':>8}")
    for name, (p50, p95) in rows:
        print(f"{name:<36} {p50:>8.2f} {p95:>8.2f}")
    service.close()


if __name__ == "__main__":
    main()
