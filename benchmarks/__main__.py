"""``python -m benchmarks``: storycore against its floor, in one run, on one database.

    python -m benchmarks --stories 10000              # library-level operations
    python -m benchmarks --db postgresql              # the same on a throwaway PostgreSQL
    python -m benchmarks --db postgresql://u@h/db     # on that server, in a schema of its own
    python -m benchmarks --stories 100000 --http      # and HTTP through uvicorn, with wrk
    python -m benchmarks --scaling 10000,100000       # how the operations grow
    python -m benchmarks --stories 100000 --memory    # peak RSS of ``storycore export``
    python -m benchmarks --stories 10000 --keeping    # and kept pictures (``keeping.py``)

Prints Markdown tables. Never part of the test suite.
"""

from __future__ import annotations

import argparse
import platform
import secrets
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from benchmarks.data import DataSet
from benchmarks.floors import Floor, SQLiteFloor
from benchmarks.load import load
from benchmarks.operations import PAGE_TARGETS, Operation, operations, page_operations
from storycore import Service, Settings
from storycore.adapters import open_store

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


def _check(operation: Operation, service: Service) -> None:
    for i in range(5):
        # the views storycore's reads counted are written now, not once a second in the
        # background: one written between the two answers would make them differ
        service.flush_views()
        ours, floor = operation.storycore(i), operation.floor(i)
        if ours != floor:
            raise SystemExit(f"{operation.name}: storycore and the floor answer differently")


def prepare(stories: int, elements: int = 20) -> tuple[Service, Floor, DataSet, float, Path]:
    """A loaded store in a fresh SQLite file, its floor, the data set, the load time and the
    file."""
    path = Path(tempfile.mkdtemp(prefix="storycore-bench-")) / "bench.db"
    return (*prepare_at(f"sqlite:///{path}", stories, elements), path)


def prepare_at(url: str, stories: int, elements: int) -> tuple[Service, Floor, DataSet, float]:
    """A store at the storage URL ``url`` loaded with the data set, the floor over the same
    database (``floors.py`` or ``pg_floor.py``), the data set and the load time."""
    data = DataSet(stories=stories, authors=min(500, max(1, stories // 20)), elements=elements)
    service = Service(open_store(url), Settings(web_url=WEB_URL, password_cost=16))
    seconds = load(service, data)
    service.accounts.create_user("bench_editor", editor=True)
    if url.startswith("sqlite:///"):
        return service, SQLiteFloor(url.removeprefix("sqlite:///"), WEB_URL), data, seconds
    from benchmarks.pg_floor import PostgreSQLFloor

    floor = PostgreSQLFloor(url, WEB_URL)
    floor.vacuum()
    return service, floor, data, seconds


@contextmanager
def _fresh_store(db: str) -> Iterator[str]:
    """The storage URL of a new, empty store on ``db``, removed when the block ends: a new
    SQLite file, or a new schema ``bench_<random>`` of a PostgreSQL database."""
    if not db.startswith(("postgresql://", "postgres://")):
        directory = Path(tempfile.mkdtemp(prefix="storycore-bench-"))
        try:
            yield f"sqlite:///{directory / 'bench.db'}"
        finally:
            shutil.rmtree(directory)
        return
    from storycore.adapters.postgresql import drop_schema

    parts = urlsplit(db)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "schema"]
    query.append(("schema", f"bench_{secrets.token_hex(4)}"))
    url = urlunsplit(parts._replace(query=urlencode(query)))
    try:
        yield url
    finally:
        drop_schema(url)


def measure(service: Service, floor: Floor, data: DataSet, repeat: int) -> list[Row]:
    rows = []
    for operation in operations(service, floor, data):
        if operation.same_answer:
            _check(operation, service)
        ours = _time(operation.storycore, operation.repeat or repeat)
        theirs = _time(operation.floor, operation.repeat or repeat)
        rows.append((operation.name, ours, theirs))
    return rows


def measure_pages(service: Service, repeat: int) -> list[Row]:
    """Each page against its API counterpart, in process: the rows of ``page_operations``.
    Each side first answers every story it will be timed on once: a page is rendered at its
    first request and answered from memory after (``kept_story_page``), and the timing is of
    the steady state, as wrk's 10 seconds on one story are."""
    rows = []
    for operation in page_operations(service):
        for i in range(20):
            operation.storycore(i)
            operation.floor(i)
        page = _time(operation.storycore, repeat)
        api = _time(operation.floor, repeat)
        rows.append((operation.name, page, api))
    return rows


def _pages_table(rows: list[Row]) -> str:
    lines = [
        "In process, each a request through `HttpApp.handle`, against its API counterpart:",
        "",
        "| page | req/s | p50 ms | p95 ms | API req/s | p50 ms | p95 ms | ratio | target |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, (ops, p50, p95), (aops, ap50, ap95) in rows:
        ratio, target = ops / aops, PAGE_TARGETS[name]
        met = "met" if ratio >= target else "**not met**"
        lines.append(
            f"| {name} | {ops:,.0f} | {p50:.2f} | {p95:.2f} | {aops:,.0f} | {ap50:.2f} "
            f"| {ap95:.2f} | {ratio:.2f} | ≥ {target}: {met} |"
        )
    return "\n".join(lines)


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
    parser.add_argument(
        "--db",
        default="sqlite",
        help="sqlite (a fresh file, the default); postgresql (a throwaway local cluster); or"
        " postgresql://user@host:port/dbname (a server: each run in a new schema, dropped after)",
    )
    parser.add_argument("--stories", type=int, default=10_000)
    parser.add_argument("--elements", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--http", action="store_true", help="also HTTP through uvicorn with wrk")
    parser.add_argument("--http-seconds", type=int, default=10, help="wrk duration per run")
    parser.add_argument("--pages-only", action="store_true", help="only the pages against the API")
    parser.add_argument("--memory", action="store_true", help="peak RSS of storycore export")
    parser.add_argument("--scaling", help="comma-separated story counts, e.g. 10000,100000")
    parser.add_argument(
        "--keeping",
        action="store_true",
        help="also kept pictures: saves that queue them, serving them, their size in the store"
        " (benchmarks.keeping, on stores of its own; --db sqlite or postgresql)",
    )
    args = parser.parse_args()
    if args.db not in ("sqlite", "postgresql") and not args.db.startswith(
        ("postgresql://", "postgres://")
    ):
        parser.error("--db: sqlite, postgresql, or a postgresql:// URL")
    if args.pages_only and args.scaling:
        parser.error("--pages-only measures no operations to scale")
    if args.keeping and args.db not in ("sqlite", "postgresql"):
        parser.error("--keeping: --db sqlite or postgresql (it makes stores of its own)")
    python = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"machine: {platform.machine()}, {python}")

    counts = [int(c) for c in args.scaling.split(",")] if args.scaling else [args.stories]
    growth: dict[int, list[Row]] = {}
    with ExitStack() as run:
        db = args.db
        if db == "postgresql":
            from benchmarks.pg_cluster import throwaway_cluster

            db = run.enter_context(throwaway_cluster())
        for count in counts:
            with _fresh_store(db) as url:
                growth[count] = _run(url, count, args)
    if len(counts) > 1:
        print("\n" + _growth_table(growth))
    if args.keeping:
        from benchmarks import keeping

        db = f"{args.db},memory" if args.db == "sqlite" else args.db
        seconds = str(args.http_seconds)
        keeping.main(["--stories", str(counts[-1]), "--db", db, "--http-seconds", seconds])


def _run(url: str, count: int, args: argparse.Namespace) -> list[Row]:
    """Load ``count`` stories at ``url``, print the tables of what ``args`` asks, return the
    operations' rows."""
    service, floor, data, seconds = prepare_at(url, count, args.elements)
    server = getattr(floor, "server", None)
    if server is not None:
        print(f"server: {server()}")
    print(f"\n## {count:,} stories of {args.elements} elements, {data.authors} authors")
    print(f"\nloaded through add_many in {seconds:.1f} s: {count / seconds:,.0f} stories/s\n")
    if not args.pages_only:
        rows = measure(service, floor, data, args.repeat)
        print(_table(rows))
    else:
        rows = []
    print("\n" + _pages_table(measure_pages(service, args.repeat)))
    if args.http:
        from benchmarks.http_load import http_table

        story = _public_story(service)
        print("\n" + http_table(url, story, args.http_seconds))
    if args.memory:
        from benchmarks.memory import export_peak_rss

        peak = export_peak_rss(url)
        print(f"\npeak RSS of `storycore export` over {count:,} stories: {peak:.0f} MB")
    service.close()
    floor.close()
    return rows


if __name__ == "__main__":
    main()
