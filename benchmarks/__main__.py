"""``python -m benchmarks``: storycore against its floor, in one run, on one SQLite file.

    python -m benchmarks --stories 10000              # library-level operations
    python -m benchmarks --stories 100000 --http      # and HTTP through uvicorn, with wrk
    python -m benchmarks --scaling 10000,100000       # how the operations grow
    python -m benchmarks --stories 100000 --memory    # peak RSS of ``storycore export``

Prints Markdown tables. Never part of the test suite.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import tempfile
import time
from pathlib import Path

from storycore import Service, Settings
from storycore.adapters import open_store

from .data import DataSet
from .floors import Floor
from .load import load
from .operations import Operation, operations

WEB_URL = "http://127.0.0.1:8000"

Timing = tuple[float, float, float]  # operations a second, p50 ms, p95 ms
Row = tuple[str, Timing, Timing]  # operation, storycore's timing, the floor's


def _time(call: object, repeat: int) -> Timing:
    """Throughput (operations a second), p50 and p95 latency in milliseconds."""
    samples = []
    for i in range(repeat):
        start = time.perf_counter()
        call(i)  # type: ignore[operator]
        samples.append(time.perf_counter() - start)
    ordered = sorted(samples)
    return (
        repeat / sum(samples),
        ordered[len(ordered) // 2] * 1000,
        ordered[max(0, int(len(ordered) * 0.95) - 1)] * 1000,
    )


def _check(operation: Operation) -> None:
    for i in range(5):
        ours, floor = operation.storycore(i), operation.floor(i)
        if ours != floor:
            raise SystemExit(f"{operation.name}: storycore and the floor answer differently")


def prepare(stories: int, elements: int = 20) -> tuple[Service, Floor, DataSet, float, Path]:
    """A loaded store, its floor, the data set and the load time."""
    data = DataSet(stories=stories, authors=min(500, max(1, stories // 20)), elements=elements)
    path = Path(tempfile.mkdtemp(prefix="storycore-bench-")) / "bench.db"
    service = Service(open_store(f"sqlite:///{path}"), Settings(web_url=WEB_URL, password_cost=16))
    seconds = load(service, data)
    service.accounts.create_user("bench_editor", editor=True)
    return service, Floor(str(path), WEB_URL), data, seconds, path


def measure(service: Service, floor: Floor, data: DataSet, repeat: int) -> list[Row]:
    rows = []
    for operation in operations(service, floor, data):
        if operation.same_answer:
            _check(operation)
        ours = _time(operation.storycore, operation.repeat or repeat)
        theirs = _time(operation.floor, operation.repeat or repeat)
        rows.append((operation.name, ours, theirs))
    return rows


def _public_story(service: Service) -> tuple[str, str]:
    story = service.catalog.latest().items[0]
    return story.author.username, story.slug


def _growth_table(growth: dict[int, list[Row]]) -> str:
    """storycore's p50 at each size, and the largest size's p50 over the smallest's."""
    counts = sorted(growth)
    header = " | ".join(f"p50 ms at {count:,}" for count in counts)
    lines = [
        f"| operation | {header} | growth {counts[-1]:,} / {counts[0]:,} |",
        "|---|" + "---:|" * (len(counts) + 1),
    ]
    for index, (name, *_) in enumerate(growth[counts[0]]):
        p50s = [growth[count][index][1][1] for count in counts]
        cells = " | ".join(f"{p50:.2f}" for p50 in p50s)
        lines.append(f"| {name} | {cells} | {p50s[-1] / p50s[0]:.2f} |")
    return "\n".join(lines)


def _table(rows: list[Row]) -> str:
    lines = [
        "| operation | storycore ops/s | p50 ms | p95 ms | floor ops/s | p50 ms | p95 ms | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, (ops, p50, p95), (fops, fp50, fp95) in rows:
        ours = f"{ops:,.0f} | {p50:.2f} | {p95:.2f}"
        floor = f"{fops:,.0f} | {fp50:.2f} | {fp95:.2f}"
        lines.append(f"| {name} | {ours} | {floor} | {ops / fops:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("--stories", type=int, default=10_000)
    parser.add_argument("--elements", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--http", action="store_true", help="also HTTP through uvicorn with wrk")
    parser.add_argument("--http-seconds", type=int, default=10, help="wrk duration per run")
    parser.add_argument("--memory", action="store_true", help="peak RSS of storycore export")
    parser.add_argument("--scaling", help="comma-separated story counts, e.g. 10000,100000")
    args = parser.parse_args()
    python = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"machine: {platform.machine()}, {python}")

    counts = [int(c) for c in args.scaling.split(",")] if args.scaling else [args.stories]
    growth: dict[int, list[Row]] = {}
    for count in counts:
        service, floor, data, seconds, path = prepare(count, args.elements)
        print(f"\n## {count:,} stories of {args.elements} elements, {data.authors} authors")
        print(f"\nloaded through add_many in {seconds:.1f} s: {count / seconds:,.0f} stories/s\n")
        growth[count] = measure(service, floor, data, args.repeat)
        print(_table(growth[count]))
        if args.http:
            from .http_load import http_table

            story = _public_story(service)
            print("\n" + http_table(f"sqlite:///{path}", story, args.http_seconds))
        if args.memory:
            from .memory import export_peak_rss

            peak = export_peak_rss(f"sqlite:///{path}")
            print(f"\npeak RSS of `storycore export` over {count:,} stories: {peak:.0f} MB")
        service.close()
        shutil.rmtree(path.parent)
    if len(counts) > 1:
        print("\n" + _growth_table(growth))


if __name__ == "__main__":
    main()
