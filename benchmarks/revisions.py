"""Revisions and scheduled publishing: what a save's revision costs, and what the
scheduler costs when nothing is due.

    python -m benchmarks.revisions --stories 10000                      # SQLite and memory
    python -m benchmarks.revisions --stories 10000 --db sqlite,postgresql,memory

- **A save with its revision against a save without** (docs/api.md#revisions). One store is
  loaded with the data set (``load.py``) and served by two services: one keeping ``--keep``
  revisions a story (``Limits(revisions=50)``), one keeping none (``Limits(revisions=0)``).
  ``--targets`` published stories first get ``--keep`` saves each, so that they hold as many
  revisions and every timed save of the first service also drops the oldest. Both services
  then save the same stories in the same order, in alternating blocks: each save the 20
  elements of another story of the data set than the save before it (by either service), or
  a new title alone.
- **The scheduler when nothing is due** (docs/api.md#scheduled-publishing). Two stores, loaded alike
with
  the data set and ``--scheduled`` working stories more: in one they are scheduled (all in a
  day or later), in the other not. Timed in alternating blocks: a ``publish_due()`` round (what
  every serving process does once a second), a story read (``service.stories.open``) and the
  latest list. On SQLite, what a round runs is counted (its statements, their query plans and
  SQLite's virtual machine steps), and ``storycore serve`` on each file (its scheduler running)
  answers ``GET`` of a story to ``wrk``, the two servers in turn.

``postgresql`` in ``--db`` starts a throwaway cluster (``pg_cluster.py``). Prints Markdown
tables. Never part of the test suite.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import sqlite3
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from benchmarks.__main__ import _fresh_store
from benchmarks.data import DataSet
from benchmarks.load import load
from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.adapters.sqlite import _connection
from storycore.rules.timestamps import format_timestamp
from storycore.settings import Limits

__all__ = ["main"]

WEB_URL = "http://127.0.0.1:8000"
#: The ratio of a save with its revision over one without allowed.
SAVE_TARGET = 1.3

Call = Callable[[int], object]
Timing = tuple[float, float]  # p50 ms, mean ms


def _settings(keep: int) -> Settings:
    return Settings(web_url=WEB_URL, password_cost=16, limits=Limits(revisions=keep))


def _alternate(first: Call, second: Call, block: int, rounds: int) -> tuple[Timing, Timing]:
    """p50 and mean of ``first`` and of ``second``, each called ``block`` times in turn,
    ``rounds`` times: first then second, then second then first, so that neither side has the
    machine's quieter moments to itself. Each side counts its own calls from 0, so both do the
    same work in the same order; a few calls of each come first, untimed."""
    calls = (first, second)
    samples: tuple[list[float], list[float]] = ([], [])
    counters = (itertools.count(), itertools.count())
    for side in (0, 1):
        for _ in range(min(block, 5)):
            calls[side](next(counters[side]))
    for number in range(rounds):
        for side in (0, 1) if number % 2 == 0 else (1, 0):
            call, counter, kept = calls[side], counters[side], samples[side]
            for _ in range(block):
                i = next(counter)
                start = time.perf_counter()
                call(i)
                kept.append(time.perf_counter() - start)
    return _timing(samples[0]), _timing(samples[1])


def _timing(samples: list[float]) -> Timing:
    return statistics.median(samples) * 1000, statistics.fmean(samples) * 1000


# -- a save with its revision, against one without ------------------------------------------


def _public(service: Service, count: int) -> list[tuple[str, str]]:
    """(username, slug) of the ``count`` newest public stories (fewer if there are fewer)."""
    found: list[tuple[str, str]] = []
    for page in itertools.count(1):
        items = service.catalog.latest(page=page).items
        found += [(story.author.username, story.slug) for story in items]
        if not items or len(found) >= count:
            return found[:count]
    raise AssertionError("unreachable")


def _revisions(service: Service, target: tuple[str, str]) -> int:
    user = service.store.users.get_by_username(target[0])
    assert user is not None
    story = service.store.stories.get_by_slug(user.id, target[1])
    assert story is not None
    return service.store.revisions.count(story.id)


def _saves(url: str, data: DataSet, args: argparse.Namespace) -> list[str]:
    """Table rows: each kind of save, with ``args.keep`` revisions kept and with none."""
    store = open_store(url)
    kept, none = Service(store, _settings(args.keep)), Service(store, _settings(0))
    try:
        load(kept, data)
        kept.accounts.create_user("bench_editor", editor=True)
        editors = kept.accounts.as_user("bench_editor"), none.accounts.as_user("bench_editor")
        targets = _public(kept, args.targets)
        for target in targets:  # each holds ``keep`` revisions: every timed save drops one
            for n in range(args.keep):
                kept.stories.save(*target, {"title": f"Prepared {n}"}, viewer=editors[0])
        inputs = [story["elements"] for _, story, _ in itertools.islice(data.story_inputs(), 64)]

        def save(service: Service, editor: Any, member: Callable[[int], dict[str, Any]]) -> Call:
            def call(i: int) -> object:
                target = targets[i % len(targets)]
                return service.stories.save(*target, member(i), viewer=editor)

            return call

        saved = [0] * len(targets)  # saves of each story so far, by either service

        def elements(i: int) -> dict[str, Any]:
            # each save of a story, by either service, takes other elements than the last
            t = i % len(targets)
            saved[t] += 1
            return {"elements": inputs[(saved[t] + t) % len(inputs)]}

        titles = itertools.count()

        def title(i: int) -> dict[str, Any]:
            return {"title": f"Saved title {next(titles)}"}

        rows = []
        kinds = [(f"save, {data.elements} elements changed", elements), ("save, title only", title)]
        for name, member in kinds:
            with_revision, without = _alternate(
                save(kept, editors[0], member),
                save(none, editors[1], member),
                args.block,
                args.rounds,
            )
            held = {_revisions(kept, target) for target in targets}
            if held != {args.keep}:
                raise SystemExit(f"the saved stories hold {held} revisions, not {args.keep}")
            ratio = with_revision[1] / without[1]
            met = "met" if ratio <= SAVE_TARGET else "**not met**"
            rows.append(
                f"| {name} | {with_revision[0]:.2f} | {with_revision[1]:.2f} | {without[0]:.2f}"
                f" | {without[1]:.2f} | {with_revision[0] / without[0]:.2f} | {ratio:.2f}"
                f" | ≤ {SAVE_TARGET}: {met} |"
            )
        return rows
    finally:
        none.scheduler.close()
        none.flush_views()
        kept.close()


def _saves_table(runs: Sequence[tuple[str, list[str]]], args: argparse.Namespace) -> str:
    lines = [
        f"`service.stories.save`, {args.rounds} blocks of {args.block} saves each side, over"
        f" {args.targets} published stories that hold {args.keep} revisions each:",
        "",
        f"| store | save | with {args.keep} kept: p50 ms | mean ms | with none: p50 ms | mean ms"
        " | ratio of p50 | ratio of means | target |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for store, rows in runs:
        lines += [f"| {store} {row}" for row in rows]
    return "\n".join(lines)


# -- the scheduler when nothing is due -------------------------------------------------------


class _Statements:
    """What SQLite runs on the connections the SQLite adapter opens from now on: each
    connection is kept by its file, and ``count`` records the statements and virtual machine
    steps of one call on the connections of one file."""

    def __init__(self) -> None:
        self.connections: dict[str, list[sqlite3.Connection]] = {}
        self._connect = _connection._connect

    def __enter__(self) -> _Statements:
        def connect(path: str) -> sqlite3.Connection:
            conn = self._connect(path)
            self.connections.setdefault(path, []).append(conn)
            return conn

        _connection._connect = connect
        return self

    def __exit__(self, *exc: object) -> None:
        _connection._connect = self._connect

    def count(self, path: str, call: Callable[[], object]) -> tuple[list[str], int]:
        """The statements ``call`` runs on the file ``path``, and SQLite's steps for them."""
        statements: list[str] = []
        steps = [0]

        def step() -> int:
            steps[0] += 1
            return 0

        conns = self.connections.get(path, [])
        for conn in conns:
            conn.set_trace_callback(statements.append)
            conn.set_progress_handler(step, 1)
        try:
            call()
        finally:
            for conn in conns:
                conn.set_trace_callback(None)
                conn.set_progress_handler(None, 1)
        return statements, steps[0]


def _plan(path: str, statement: str, now: str) -> str:
    """SQLite's query plan for a statement of a round, its parameters as a round binds them."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        params = (now, 100)[: statement.count("?")]
        rows = conn.execute(f"EXPLAIN QUERY PLAN {statement}", params).fetchall()
    finally:
        conn.close()
    return "; ".join(row[-1] for row in rows)


@contextmanager
def _stores(db: str, data: DataSet, scheduled: int) -> Iterator[list[tuple[Service, str]]]:
    """Two services on two stores loaded alike, with their URLs; the last ``scheduled``
    stories of ``data`` are working, and in the second store scheduled, the first a day from
    now and the others a second apart."""
    later = datetime.now(UTC) + timedelta(days=1)
    stores = []
    with ExitStack() as stack:
        for when in (None, later):
            url = stack.enter_context(_store_url(db))
            service = Service(open_store(url), _settings(50))
            stack.callback(service.close)
            load(service, data, working=scheduled, scheduled=when)
            stores.append((service, url))
        due = stores[1][0].store.stories
        last = (later + timedelta(seconds=scheduled)).isoformat()
        if (
            due.due(datetime.now(UTC).isoformat(), 1)
            or len(due.due(last, scheduled + 1)) != scheduled
        ):
            raise SystemExit(f"the second store does not hold {scheduled} stories due later")
        yield stores


def _scheduler(
    name: str, db: str, data: DataSet, args: argparse.Namespace
) -> tuple[list[str], list[str]]:
    """The scheduler's costs on ``db`` (named ``name`` in the rows): the main table's rows, and
    on SQLite the tables of what a round runs and of HTTP."""
    counting = _Statements() if name == "sqlite" else None
    with ExitStack() as stack:
        if counting is not None:
            stack.enter_context(counting)
        stores = stack.enter_context(_stores(db, data, args.scheduled))
        (none, _), (scheduled, _) = stores
        public = _public(none, 60)

        def round_of(service: Service) -> Call:
            return lambda i: service.publish_due()

        def read(service: Service) -> Call:
            return lambda i: service.stories.open(*public[i % len(public)], as_documents=True)

        def latest(service: Service) -> Call:
            return lambda i: service.catalog.latest()

        rows = []
        for call_name, call in [
            ("a `publish_due()` round, nothing due", round_of),
            ("read a story (`stories.open`)", read),
            ("latest, page 1", latest),
        ]:
            without, with_scheduled = _alternate(
                call(none), call(scheduled), args.block * 10, args.rounds
            )
            rows.append(
                f"| {name} | {call_name} | {without[0] * 1000:,.0f} | {without[1] * 1000:,.0f}"
                f" | {with_scheduled[0] * 1000:,.0f} | {with_scheduled[1] * 1000:,.0f}"
                f" | {with_scheduled[0] / without[0]:.2f} | {with_scheduled[1] / without[1]:.2f} |"
            )
        extra: list[str] = []
        if counting is not None:
            extra += _round_counts(counting, stores, args.scheduled)
            if not args.no_http:
                extra += ["", *_http([url for _, url in stores], public[0], args)]
    return rows, extra


def _round_counts(
    counting: _Statements, stores: list[tuple[Service, str]], count: int
) -> list[str]:
    """What one round runs on each SQLite file: statements, plans, virtual machine steps."""
    lines = [
        "What one round runs on SQLite (statements traced with `set_trace_callback`; steps"
        " counted by a progress handler called at every virtual machine instruction):",
        "",
        "| SQLite store | statements in a round | VM steps | query plan |",
        "|---|---:|---:|---|",
    ]
    labels = ["no story scheduled", f"{count:,} stories scheduled"]
    for label, (service, url) in zip(labels, stores, strict=True):
        path = url.removeprefix("sqlite:///")
        service.publish_due()  # a reader of this file is open and idle: the round's
        statements, steps = counting.count(path, service.publish_due)
        now = format_timestamp(datetime.now(UTC))
        plans = " / ".join(_plan(path, statement, now) for statement in statements)
        lines.append(f"| {label} | {len(statements)} | {steps:,} | {plans} |")
    return lines


def _http(urls: list[str], story: tuple[str, str], args: argparse.Namespace) -> list[str]:
    """``GET`` a story from ``storycore serve`` on each store, with wrk, the two in turn."""
    from benchmarks.http_load import _server, _wrk, serve_command

    if shutil.which("wrk") is None:
        return ["HTTP: skipped, `wrk` is not installed (apt-get install wrk)"]
    path = f"/v1/stories/{story[0]}/{story[1]}"
    runs: tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]] = ([], [])
    with ExitStack() as stack:
        addresses = [stack.enter_context(_server(serve_command(url))) for url in urls]
        for number in range(args.http_rounds):
            for side in (0, 1) if number % 2 == 0 else (1, 0):
                runs[side].append(_wrk(addresses[side] + path, args.http_seconds, 8))
    (rate, p50), (srate, sp50) = (
        (statistics.fmean(r[0] for r in side), statistics.median(r[1] for r in side))
        for side in runs
    )
    return [
        "`storycore serve` (one worker, its scheduler running) on each file, GET a story,"
        f" wrk -t1 -c8 -d{args.http_seconds}s, {args.http_rounds} runs of each in turn:",
        "",
        "| request | no story scheduled: req/s | p50 ms | scheduled: req/s | p50 ms | ratio |",
        "|---|---:|---:|---:|---:|---:|",
        f"| GET a story | {rate:,.0f} | {p50:.2f} | {srate:,.0f} | {sp50:.2f}"
        f" | {srate / rate:.2f} |",
    ]


def _scheduler_table(args: argparse.Namespace, rows: list[str]) -> str:
    header = [
        f"Two stores of {args.stories:,} stories of the data set and {args.scheduled:,} working"
        f" stories more, scheduled in one; {args.rounds} blocks of {args.block * 10} calls each"
        " side, in turn:",
        "",
        "| store | call | no story scheduled: p50 µs | mean µs | scheduled: p50 µs | mean µs"
        " | ratio of p50 | ratio of means |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    return "\n".join(header + rows)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.revisions")
    parser.add_argument("--stories", type=int, default=10_000)
    parser.add_argument(
        "--db",
        default="sqlite,memory",
        help="comma-separated: sqlite, postgresql (a throwaway cluster), memory",
    )
    parser.add_argument("--scheduled", type=int, help="scheduled stories (default: --stories)")
    parser.add_argument("--keep", type=int, default=50, help="revisions a story keeps")
    parser.add_argument("--targets", type=int, default=20, help="stories saved in turn")
    parser.add_argument("--block", type=int, default=25, help="saves a block (reads: 10 times)")
    parser.add_argument("--rounds", type=int, default=8, help="blocks of each side")
    parser.add_argument("--http-seconds", type=int, default=5)
    parser.add_argument("--http-rounds", type=int, default=2, help="wrk runs of each side")
    parser.add_argument("--no-http", action="store_true", help="skip wrk")
    parser.add_argument("--only", choices=["saves", "scheduler"], help="one part only")
    args = parser.parse_args(argv)
    dbs = args.db.split(",")
    if not set(dbs) <= {"sqlite", "postgresql", "memory"}:
        parser.error("--db: sqlite, postgresql, memory, comma-separated")
    args.scheduled = args.stories if args.scheduled is None else args.scheduled
    authors = min(500, max(1, args.stories // 20))
    data = DataSet(stories=args.stories, authors=authors)
    with ExitStack() as run:
        urls = {}
        for db in dbs:
            if db == "postgresql":
                from benchmarks.pg_cluster import throwaway_cluster

                urls[db] = run.enter_context(throwaway_cluster())
            else:
                urls[db] = db
        if args.only != "scheduler":
            saves = []
            for db in dbs:
                with _store_url(urls[db]) as url:
                    saves.append((db, _saves(url, data, args)))
            print(f"\n## A save with its revision, {args.stories:,} stories\n")
            print(_saves_table(saves, args), flush=True)
        if args.only != "saves":
            more = DataSet(stories=args.stories + args.scheduled, authors=authors)
            rows, extras = [], []
            for db in dbs:
                found, extra = _scheduler(db, urls[db], more, args)
                rows += found
                extras += ["", *extra] if extra else []
            print(f"\n## The scheduler when nothing is due, {args.stories:,} stories\n")
            print(_scheduler_table(args, rows), flush=True)
            print("\n".join(extras), flush=True)


@contextmanager
def _store_url(db: str) -> Iterator[str]:
    """A new store on ``db``: a new SQLite file or PostgreSQL schema, or ``memory://``."""
    if db == "memory":
        yield "memory://"
        return
    with _fresh_store(db) as url:
        yield url


if __name__ == "__main__":
    main()
