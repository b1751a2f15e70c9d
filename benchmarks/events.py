"""Events and webhooks: what a write's events cost, and how fast a server delivers
them.

    python -m benchmarks.events --stories 10000                         # SQLite and memory
    python -m benchmarks.events --stories 10000 --db sqlite,postgresql,memory
    python -m benchmarks.events --only delivery --events 6000 --profile   # delivery alone
    python -m benchmarks.events --only delivery --apart     # delivering apart from the API

- **A create with its events against a create without** (docs/webhooks.md). One store is
  loaded with the data set (``load.py``) and served by two services. The second's
  ``stories._commits.events`` (what the one commit path hands the store as a write's
  ``events``) is patched on the instance to return ``[]``, so the two differ only by building
  and storing the events. Both create stories with the elements of the data set's first 64
  stories (published, so each create reports ``story.created`` and ``story.published``; or
  working: ``story.created`` alone), and save published stories (``story.saved``: the 20
  elements of another story each time, or a new title), in alternating blocks. The run checks
  that the log holds every event of the first service's writes and none of the second's.
- **Delivery**: ``storycore serve --workers 2`` on a SQLite file of the data set
  (``STORYCORE_WEBHOOK_KEY`` set, ``--resolve-allow-host 127.0.0.1``), a webhook for every
  event (``*``) to ``benchmarks.receiver`` on 127.0.0.1 (uvloop and httptools, no framework;
  it answers ``204`` at once and counts). A burst of about ``--events`` events (stories of the
  data set stored with the events their creates report, ``load(..., events=True)``, in one
  transaction, the server running) is delivered while nothing else runs, and while ``wrk``
  reads a story from the same server; the receiver counts the deliveries a second from the
  first to the last. ``wrk`` also reads the story with delivery idle, in turn with the bursts:
  with 8 connections (the server busy with reads) and with one (one reader at a time), for the
  API's latency without and with delivery. ``--apart`` runs the API without delivering
  (``uvicorn --factory benchmarks.events:api_without_delivery``: ``StorycoreASGI(...,
  deliver=False)``) and a process of its own delivering, instead of ``serve``.
- **Profile** (``--profile``, after the delivery part): a burst delivered by
  ``service.deliver()`` in this process (the server stopped), first timed, then under
  cProfile; the functions that take the most time.

``postgresql`` in ``--db`` starts a throwaway cluster (``pg_cluster.py``). Prints Markdown
tables. Never part of the test suite. The delivery part reads the server's workers' CPU time
from ``/proc``: Linux only.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from benchmarks.data import DataSet
from benchmarks.http_load import _launched, _server, _wrk
from benchmarks.load import load
from benchmarks.revisions import Call, Timing, _alternate, _public, _store_url
from benchmarks.serving import _uvicorn
from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.compose import compose
from storycore.model.visibility import OPERATOR
from storycore.rules.webhook_secrets import new_key

if TYPE_CHECKING:
    from storycore.contrib.asgi import StorycoreASGI

__all__ = ["api_without_delivery", "main"]

WEB_URL = "http://127.0.0.1:8000"
#: The ratio of a create with its events over one without allowed.
CREATE_TARGET = 1.15
#: Deliveries a second that ``serve --workers 2`` should reach, to a receiver that answers at
#: once.
DELIVERY_TARGET = 500
_SERVE = "from storycore.contrib.cli import main; main()"
_API_ALONE = "benchmarks.events:api_without_delivery"
_DELIVER = (
    "import threading; from storycore.contrib.compose import from_environment;"
    " from_environment().deliverer.start(); print('delivering', flush=True);"
    " threading.Event().wait()"
)
_TICKS = os.sysconf("SC_CLK_TCK")
T = TypeVar("T")


def _settings() -> Settings:
    return Settings(web_url=WEB_URL, password_cost=16)


# -- a write with its events, against one without -------------------------------------------


def _silenced(service: Service) -> Service:
    """``service``, its story writes handing the store no events."""
    commits: Any = service.stories._commits  # patched on the instance: the commit path's hand-off
    commits.events = lambda transition, before, after, author, at: []
    return service


def _logged(service: Service, cursor: str | None) -> int:
    """How many events the log holds after ``cursor``."""
    count = 0
    while batch := service.store.events.after(cursor, 500):
        count += len(batch)
        cursor = batch[-1].cursor
    return count


def _writes(url: str, data: DataSet, args: argparse.Namespace) -> list[str]:
    """Table rows: each kind of write, with its events and without."""
    store = open_store(url)
    reporting, silent = Service(store, _settings()), _silenced(Service(store, _settings()))
    try:
        load(reporting, data)
        reporting.accounts.create_user("bench_editor", editor=True)
        editors = (
            reporting.accounts.as_user("bench_editor"),
            silent.accounts.as_user("bench_editor"),
        )
        inputs = list(itertools.islice(data.story_inputs(), 64))
        targets = _public(reporting, args.targets)
        slugs = itertools.count()
        saved = [0] * len(targets)  # saves of each story so far, by either service
        titles = itertools.count()

        def create(service: Service, editor: Any, publish: bool) -> Call:
            def call(i: int) -> object:
                author, story, _ = inputs[i % len(inputs)]
                story = {**story, "slug": f"bench-{next(slugs)}"}
                return service.stories.create(author, story, viewer=editor, publish=publish)

            return call

        def elements(i: int) -> dict[str, Any]:
            # each save of a story, by either service, takes other elements than the last
            t = i % len(targets)
            saved[t] += 1
            return {"elements": inputs[(saved[t] + t) % len(inputs)][1]["elements"]}

        def title(i: int) -> dict[str, Any]:
            return {"title": f"Saved title {next(titles)}"}

        def save(member: Callable[[int], dict[str, Any]]) -> Callable[..., Call]:
            def bound(service: Service, editor: Any, _: bool) -> Call:
                def call(i: int) -> object:
                    target = targets[i % len(targets)]
                    return service.stories.save(*target, member(i), viewer=editor)

                return call

            return bound

        kinds: list[tuple[str, Callable[..., Call], bool, int, float | None]] = [
            ("create, published: `story.created`, `story.published`", create, True, 2,
             CREATE_TARGET),
            ("create, working: `story.created`", create, False, 1, CREATE_TARGET),
            (f"save, {data.elements} elements changed: `story.saved`", save(elements), False, 1,
             None),
            ("save, title only: `story.saved`", save(title), False, 1, None),
        ]  # fmt: skip
        calls = min(args.block, 5) + args.block * args.rounds  # each side's, untimed included
        rows = []
        for name, make, publish, reported, target in kinds:
            cursor = store.events.end()
            with_events, without = _alternate(
                make(reporting, editors[0], publish),
                make(silent, editors[1], publish),
                args.block,
                args.rounds,
            )
            if (found := _logged(reporting, cursor)) != calls * reported:
                raise SystemExit(f"{name}: {found} events logged, not {calls * reported}")
            rows.append(_write_row(name, with_events, without, target))
        return rows
    finally:
        silent.scheduler.close()
        silent.flush_views()
        reporting.close()


def _write_row(name: str, with_events: Timing, without: Timing, target: float | None) -> str:
    p50, means = with_events[0] / without[0], with_events[1] / without[1]
    if target is None:
        judged = ""
    elif p50 <= target and means <= target:
        judged = f"≤ {target}: met"
    elif p50 <= target:
        judged = f"≤ {target}: p50 met; mean **not met**"
    else:
        judged = f"≤ {target}: **not met**"
    return (
        f"| {name} | {with_events[0]:.2f} | {with_events[1]:.2f} | {without[0]:.2f}"
        f" | {without[1]:.2f} | {p50:.2f} | {means:.2f} | {judged} |"
    )


def _writes_table(runs: Sequence[tuple[str, list[str]]], args: argparse.Namespace) -> str:
    lines = [
        f"{args.rounds} blocks of {args.block} writes each side, in turn; saves over"
        f" {args.targets} published stories:",
        "",
        "| store | write: events | with events: p50 ms | mean ms | without: p50 ms | mean ms"
        " | ratio of p50 | ratio of means | target |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for store, rows in runs:
        lines += [f"| {store} {row}" for row in rows]
    return "\n".join(lines)


# -- delivery from `storycore serve --workers 2` ----------------------------------------------


@dataclass
class _Burst:
    """One burst, as the receiver saw it."""

    events: int
    received: int
    distinct: int
    first: float  # time.monotonic() of the first delivery
    last: float
    cpu: float  # CPU seconds the server's processes spent meanwhile

    @property
    def rate(self) -> float:
        return (self.received - 1) / (self.last - self.first)


class _Receiver:
    """``benchmarks.receiver`` at ``address``."""

    def __init__(self, address: str) -> None:
        self.address = address

    def counts(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.address + "/count") as answer:
            counts: dict[str, Any] = json.loads(answer.read())
            return counts

    def reset(self) -> None:
        request = urllib.request.Request(self.address + "/reset", method="POST")
        with urllib.request.urlopen(request):
            pass

    def wait(self, events: int, timeout: float) -> dict[str, Any]:
        """The counts once ``events`` distinct deliveries came (``SystemExit`` after
        ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while (counts := self.counts())["distinct"] < events:
            if time.monotonic() > deadline:
                raise SystemExit(f"{counts['distinct']} of {events} events delivered in time")
            time.sleep(0.05)
        return counts


def _cpu_seconds(pid: int) -> float:
    """CPU time of the process ``pid`` and its children (``/proc``), user and system."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()  # state, ppid, ...
        except OSError:  # a process that ended as it was read
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / _TICKS


class _Bursts:
    """Bursts of events written to the store at ``service``: each of about ``events``
    events, stories of the data set with other seeds stored as their creates would be."""

    def __init__(self, service: Service, authors: int, events: int) -> None:
        self._service = service
        self._authors = authors
        self._stories = max(1, events * 10 // 19)  # 90% are published: 1.9 events a story
        self._seeds = itertools.count(1000)

    def write(self) -> int:
        """Write the next burst; the number of its events."""
        data = DataSet(stories=self._stories, authors=self._authors, seed=next(self._seeds))
        load(self._service, data, events=True)
        return sum(2 if published else 1 for _, _, published in data.story_inputs())


def _deliver(
    bursts: _Bursts, receiver: _Receiver, server: int, during: Callable[[], T]
) -> tuple[_Burst, T]:
    """A burst delivered by the server ``server`` (a pid), ``during`` running meanwhile (from
    the commit on); how it went, and what ``during`` answered."""
    receiver.reset()
    cpu = _cpu_seconds(server)
    events = bursts.write()
    answer = during()
    counts = receiver.wait(events, timeout=max(120.0, events / 20))
    cpu = _cpu_seconds(server) - cpu
    burst = _Burst(
        events, counts["received"], counts["distinct"], counts["first"], counts["last"], cpu
    )
    return burst, answer


def _delivery(data: DataSet, args: argparse.Namespace) -> list[str]:
    """The tables of the delivery part (and the profile's, with ``--profile``)."""
    if shutil.which("wrk") is None:
        return ["Delivery: skipped, `wrk` is not installed (apt-get install wrk)"]
    directory = Path(tempfile.mkdtemp(prefix="storycore-bench-"))
    url = f"sqlite:///{directory / 'bench.db'}"
    key = new_key()
    service = compose(url, resolver_allowed_hosts=("127.0.0.1",), webhook_key=key)
    serve = [
        sys.executable, "-c", _SERVE, "--db", url, "serve", "--port", "0",
        "--workers", str(args.workers), "--resolve-allow-host", "127.0.0.1",
    ]  # fmt: skip
    try:
        load(service, data)
        story = _public(service, 1)[0]
        path = f"/v1/stories/{story[0]}/{story[1]}"
        bursts = _Bursts(service, data.authors, args.events)
        with _server([sys.executable, "-m", "benchmarks.receiver"]) as address:
            receiver = _Receiver(address)
            service.webhooks.add(receiver.address + "/hook", ["*"], viewer=OPERATOR)
            environment = {
                **os.environ,
                "STORYCORE_WEBHOOK_KEY": key,
                "STORYCORE_RESOLVER_ALLOWED_HOSTS": "127.0.0.1",
            }
            with ExitStack() as servers:
                if args.apart:
                    server = servers.enter_context(
                        _uvicorn(url, args.workers, _API_ALONE, environment)
                    )
                    pid = servers.enter_context(_deliverer(url, environment))
                else:
                    server, process = servers.enter_context(_launched(serve, environment))
                    pid = process.pid
                lines = _measure(bursts, receiver, server + path, pid, args)
            if args.profile:  # the server stopped: this process delivers alone
                lines += ["", *_profile(service, bursts, receiver, args)]
        return lines
    finally:
        service.close()
        shutil.rmtree(directory)


Wrk = tuple[float, float, float]  # requests a second, p50 ms, p99 ms
#: A burst delivered while wrk ran: how it went, what wrk found, and when wrk started and ended.
Busy = tuple[_Burst, Wrk, float, float]


def api_without_delivery() -> StorycoreASGI:
    """The API as ``uvicorn --factory`` serves it from the environment, its lifespan starting
    no deliverer (``StorycoreASGI(deliver=False)``, as a host that delivers elsewhere runs
    it): the request workers of ``--apart``."""
    from storycore.contrib.asgi import StorycoreASGI
    from storycore.contrib.compose import from_environment

    return StorycoreASGI(from_environment(), owns_service=True, compress=True, deliver=False)


@contextmanager
def _deliverer(url: str, env: dict[str, str]) -> Iterator[int]:
    """A process of its own delivering the events of the store at ``url`` (its deliverer's
    rounds, as every ``serve`` process runs them); yields its pid."""
    command = [sys.executable, "-c", _DELIVER]
    process = subprocess.Popen(
        command, env={**env, "STORYCORE_DB": url}, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        if process.stdout.readline().strip() != "delivering":
            raise SystemExit("the deliverer did not start")
        yield process.pid
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def _measure(
    bursts: _Bursts, receiver: _Receiver, url: str, pid: int, args: argparse.Namespace
) -> list[str]:
    """Bursts alone; and for each of ``args.connections``, wrk's runs with delivery idle and
    during a burst, in turn."""
    alone: list[_Burst] = []
    busy: dict[int, list[Busy]] = {c: [] for c in args.connections}
    idle: dict[int, list[Wrk]] = {c: [] for c in args.connections}
    for number in range(args.http_rounds):
        for connections in args.connections:

            def wrk(connections: int = connections) -> tuple[Wrk, float, float]:
                start = time.monotonic()
                found = _wrk(url, args.http_seconds, connections)
                return found, start, time.monotonic()

            for side in ("idle", "busy") if number % 2 == 0 else ("busy", "idle"):
                if side == "idle":
                    before = receiver.counts()["received"]
                    idle[connections].append(wrk()[0])
                    if receiver.counts()["received"] != before:
                        raise SystemExit("deliveries were made while delivery was to be idle")
                else:
                    burst, (found, start, end) = _deliver(bursts, receiver, pid, wrk)
                    busy[connections].append((burst, found, start, end))
        alone.append(_deliver(bursts, receiver, pid, lambda: None)[0])
    return _delivery_tables(alone, busy, idle, args)


def _overlap(burst: _Burst, start: float, end: float) -> float:
    """The share of ``start`` to ``end`` during which the burst was being delivered."""
    return max(0.0, min(end, burst.last) - max(start, burst.first)) / (end - start)


def _delivery_tables(
    alone: list[_Burst],
    busy: dict[int, list[Busy]],
    idle: dict[int, list[Wrk]],
    args: argparse.Namespace,
) -> list[str]:
    def row(name: str, burst: _Burst, alone: bool) -> str:
        met = "met" if burst.rate >= DELIVERY_TARGET else "**not met**"
        # the server's CPU while wrk reads is mostly the reads'
        cpu = f"{burst.cpu / burst.received * 1000:.2f}" if alone else ""
        return (
            f"| {name} | {burst.events:,} | {burst.received - burst.distinct} | {burst.rate:,.0f}"
            f" | {burst.last - burst.first:.1f} | {cpu} | ≥ {DELIVERY_TARGET}: {met} |"
        )

    seconds = args.http_seconds
    server = (
        f"`uvicorn --factory {_API_ALONE} --workers {args.workers}` (the API, delivering"
        " nothing) and a process of its own delivering (`deliverer.start()`)"
        if args.apart
        else f"`storycore serve --workers {args.workers}`"
    )
    lines = [
        f"{server} on a SQLite file, a webhook for `*` to `benchmarks.receiver` on"
        " 127.0.0.1; each burst written in one transaction:",
        "",
        "| burst | events | delivered twice | deliveries/s | first to last s"
        " | CPU ms a delivery (delivering processes) | target |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    lines += [row("alone", burst, True) for burst in alone]
    for connections, runs in busy.items():
        name = f"while wrk -c{connections} reads"
        lines += [row(name, burst, False) for burst, *_ in runs]
    lines += [
        "",
        f"`GET` a story from the same server, wrk -t1 -d{seconds}s, delivery idle and during"
        " a burst in turn:",
        "",
        "| connections | delivery | req/s | p50 ms | p99 ms | wrk's run spent delivering |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    ratios = []
    for connections in args.connections:
        lines += [
            f"| {connections} | idle | {r:,.0f} | {p50:.2f} | {p99:.2f} | 0% |"
            for r, p50, p99 in idle[connections]
        ]
        lines += [
            f"| {connections} | a burst | {r:,.0f} | {p50:.2f} | {p99:.2f}"
            f" | {_overlap(b, s, e):.0%} |"
            for b, (r, p50, p99), s, e in busy[connections]
        ]
        (irate, ip50, ip99), (brate, bp50, bp99) = (
            (
                statistics.fmean(r[0] for r in runs),
                statistics.median(r[1] for r in runs),
                statistics.median(r[2] for r in runs),
            )
            for runs in (idle[connections], [found for _, found, _, _ in busy[connections]])
        )
        ratios.append(
            f"- {connections} connections: req/s {brate / irate:.2f}, p50 {bp50 / ip50:.2f},"
            f" p99 {bp99 / ip99:.2f}"
        )
    return [
        *lines,
        "",
        "During a burst over idle (means of req/s, medians of the latencies):",
        "",
        *ratios,
    ]


def _profile(
    service: Service, bursts: _Bursts, receiver: _Receiver, args: argparse.Namespace
) -> list[str]:
    """A burst delivered by ``service.deliver()`` here, timed; another under cProfile."""
    lines = ["`service.deliver()` in one process, the server stopped:", ""]
    lines += ["| run | events | deliveries/s | CPU ms a delivery |", "|---|---:|---:|---:|"]
    profile = cProfile.Profile()
    for name in ("timed", "under cProfile"):
        receiver.reset()
        events = bursts.write()
        start, cpu = time.perf_counter(), time.process_time()
        made = service.deliver() if name == "timed" else profile.runcall(service.deliver)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        if made != events or receiver.counts()["distinct"] != events:
            raise SystemExit(f"{made} attempts for {events} events")
        lines.append(f"| {name} | {events:,} | {made / seconds:,.0f} | {cpu / made * 1000:.2f} |")
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(order).print_stats(args.profile_lines)
        lines += ["", f"cProfile, by {order}:", "", "```", out.getvalue().strip(), "```"]
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.events")
    parser.add_argument("--stories", type=int, default=10_000)
    parser.add_argument(
        "--db",
        default="sqlite,memory",
        help="comma-separated: sqlite, postgresql (a throwaway cluster), memory; the writes'"
        " stores (delivery runs on a SQLite file)",
    )
    parser.add_argument("--targets", type=int, default=20, help="stories saved in turn")
    parser.add_argument("--block", type=int, default=25, help="writes a block")
    parser.add_argument("--rounds", type=int, default=8, help="blocks of each side")
    parser.add_argument("--events", type=int, default=6000, help="events a burst (about)")
    parser.add_argument("--workers", type=int, default=2, help="serve's workers")
    parser.add_argument(
        "--apart",
        action="store_true",
        help="the API without delivering (uvicorn --factory, StorycoreASGI(deliver=False))"
        " and a process of its own delivering, instead of storycore serve",
    )
    parser.add_argument("--http-seconds", type=int, default=5, help="wrk duration per run")
    parser.add_argument(
        "--connections",
        default="8,1",
        help="wrk's connections, comma-separated: each is run idle and during a burst",
    )
    parser.add_argument("--http-rounds", type=int, default=2, help="wrk runs of each side")
    parser.add_argument("--profile", action="store_true", help="also profile service.deliver()")
    parser.add_argument("--profile-lines", type=int, default=25)
    parser.add_argument("--only", choices=["writes", "delivery"], help="one part only")
    args = parser.parse_args(argv)
    dbs = args.db.split(",")
    args.connections = [int(c) for c in args.connections.split(",")]
    if not set(dbs) <= {"sqlite", "postgresql", "memory"}:
        parser.error("--db: sqlite, postgresql, memory, comma-separated")
    data = DataSet(stories=args.stories, authors=min(500, max(1, args.stories // 20)))
    with ExitStack() as run:
        if args.only != "delivery":
            urls = {}
            for db in dbs:
                if db == "postgresql":
                    from benchmarks.pg_cluster import throwaway_cluster

                    urls[db] = run.enter_context(throwaway_cluster())
                else:
                    urls[db] = db
            writes = []
            for db in dbs:
                with _store_url(urls[db]) as url:
                    writes.append((db, _writes(url, data, args)))
            print(f"\n## A write with its events, {args.stories:,} stories\n")
            print(_writes_table(writes, args), flush=True)
        if args.only != "writes":
            print(f"\n## Delivery, {args.stories:,} stories\n")
            print("\n".join(_delivery(data, args)), flush=True)


if __name__ == "__main__":
    main()
