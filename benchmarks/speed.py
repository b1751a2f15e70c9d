"""HTTP speed of this checkout against another revision, in one run, on the same data.

    python -m benchmarks.speed --stories 10000 --against REV [--db sqlite|postgresql]
                               [--seconds 10] [--rounds 3]

The data set (``data.py``) is loaded once, by this checkout, with an editor and a token of
theirs. Each round serves it with ``storycore serve --workers 2`` twice: with REV's code (a
detached ``git worktree`` of it, run with ``PYTHONPATH`` and the working folder there) and with
this checkout's; the rounds alternate which goes first, so drift on a shared machine hits both.
Each server runs on a fresh copy of the loaded data (a copy of the SQLite file, or a PostgreSQL
database made from the loaded one as its template), so what one run writes never changes what
the next reads. Each is driven by ``wrk -t1 -c8`` on loopback: two searches, a story, the
latest list, and creates of 20-element stories by eight connections (a Lua script, a slug of
its own per request). The table holds the median of the rounds. Never part of the test suite.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, closing, contextmanager
from pathlib import Path
from urllib.parse import quote_plus, urlsplit, urlunsplit

import orjson

from benchmarks.data import DataSet
from benchmarks.http_load import _launched, _record, _wrk
from benchmarks.load import load
from benchmarks.operations import search_words
from storycore import Service, Settings
from storycore.adapters import open_store

__all__ = ["main"]

_CHECKOUT = Path(__file__).resolve().parents[1]
_PASSWORD = "speed-bench-password"
_WEB_URL = "http://bench.example"  # in every permalink: the same whatever port a server has
_CREATE = "POST /v1/stories/:username/create"
#: A copy of the loaded data under a name of its own, its storage URL while the block runs.
Copies = Callable[[str], AbstractContextManager[str]]
#: wrk's limit on an answer's time: on a shared machine a few take over its default of 2 s, and
#: they are counted in the latencies rather than failing the run.
_TIMEOUT = 30
Wrk = tuple[float, float, float]  # requests a second, p50 ms, busier worker's share of CPU


@contextmanager
def _revision(rev: str) -> Iterator[Path]:
    """The code of git revision ``rev`` in a detached worktree, removed when the block ends."""
    folder = Path(tempfile.mkdtemp(prefix="storycore-speed-rev-"))
    git = ["git", "-C", str(_CHECKOUT), "worktree"]
    added = subprocess.run(
        [*git, "add", "--detach", str(folder), rev], capture_output=True, text=True, check=False
    )
    if added.returncode != 0:
        folder.rmdir()
        raise SystemExit(f"--against {rev}: {added.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run([*git, "remove", "--force", str(folder)], check=True)


def _environment(code: Path) -> dict[str, str]:
    """This process's environment with ``import storycore`` taken from ``code``."""
    return {**os.environ, "PYTHONPATH": str(code)}


def _imported_from(code: Path) -> str:
    """Where ``storycore`` comes from in a process run as the servers of ``code`` run; fails
    unless that is inside ``code``."""
    found = subprocess.run(
        [sys.executable, "-c", "import storycore; print(storycore.__file__)"],
        env=_environment(code), cwd=code, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    if not Path(found).is_relative_to(code):
        raise SystemExit(f"storycore comes from {found}, not from {code}")
    return found


def _short(rev: str) -> str:
    """``git rev-parse --short`` of ``rev``; ``HEAD`` marked when the checkout has changes."""
    git = ["git", "-C", str(_CHECKOUT)]

    def output(*command: str) -> str:
        return subprocess.run([*git, *command], capture_output=True, text=True, check=True).stdout

    dirty = rev == "HEAD" and output("status", "--porcelain").strip()
    return output("rev-parse", "--short", rev).strip() + (
        " with uncommitted changes" if dirty else ""
    )


def _prepare(url: str, data: DataSet) -> tuple[str, tuple[str, str]]:
    """Load ``data`` at ``url`` with an editor who may create under any author; their token
    (through an application of its own) and the newest public story (username, slug)."""
    with Service(open_store(url), Settings(password_cost=16)) as service:
        load(service, data)
        service.accounts.create_user("speed_editor", _PASSWORD, editor=True)
        app = service.accounts.create_app("speed bench")
        token = service.accounts.authenticate(app.api_key, "speed_editor", _PASSWORD).token
        newest = service.catalog.latest().items[0]
        return token, (newest.author.username, newest.slug)


@contextmanager
def _sqlite(folder: Path, data: DataSet) -> Iterator[tuple[Copies, str, tuple[str, str]]]:
    """Loaded into ``folder/loaded.db``: copies of that file (checkpointed, so the file alone
    holds everything), the token and the newest story."""
    loaded = folder / "loaded.db"
    token, story = _prepare(f"sqlite:///{loaded}", data)
    with closing(sqlite3.connect(loaded)) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    @contextmanager
    def copy(name: str) -> Iterator[str]:
        path = folder / f"{name}.db"
        shutil.copyfile(loaded, path)
        try:
            yield f"sqlite:///{path}"
        finally:
            for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                leftover.unlink(missing_ok=True)

    yield copy, token, story


@contextmanager
def _postgresql(data: DataSet) -> Iterator[tuple[Copies, str, tuple[str, str]]]:
    """Loaded into the database ``loaded`` of a throwaway cluster (``pg_cluster.py``), then
    vacuumed and analysed: databases made with it as their template, the token and the newest
    story."""
    import psycopg

    from benchmarks.pg_cluster import throwaway_cluster

    with throwaway_cluster() as cluster:
        parts = urlsplit(cluster)

        def database(name: str) -> str:
            return urlunsplit(parts._replace(path=f"/{name}"))

        def admin(statement: str, url: str = cluster) -> None:
            with psycopg.connect(url, autocommit=True) as connection:
                connection.execute(statement.encode())

        admin("CREATE DATABASE loaded")
        token, story = _prepare(database("loaded"), data)
        admin("VACUUM ANALYZE", database("loaded"))

        @contextmanager
        def copy(name: str) -> Iterator[str]:
            admin(f"CREATE DATABASE {name} TEMPLATE loaded")
            try:
                yield database(name)
            finally:
                admin(f"DROP DATABASE {name} WITH (FORCE)")

        yield copy, token, story


def _creates_script(folder: Path, data: DataSet, token: str, prefix: str) -> Path:
    """A Lua script for wrk: POSTs creating published stories of the data set (48 distinct,
    in turn) under their authors, each with the slug ``prefix-N``, N counting the requests of
    wrk's one thread (``-t1``: one Lua state for every connection)."""
    stories = itertools.islice(data.story_inputs(), 48)
    bodies = []
    for author, story, _ in stories:
        body = orjson.dumps({"story": {**story, "slug": "@SLUG@"}, "publish": True}).decode()
        before, after = body.split('"@SLUG@"')
        assert "]==]" not in body
        bodies.append(f"{{'/v1/stories/{author}/create', [==[{before}]==], [==[{after}]==]}}")
    script = folder / f"{prefix}.lua"
    script.write_text(
        f"""local bodies = {{{", ".join(bodies)}}}
local count = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer {token}"
request = function()
  count = count + 1
  local path, before, after = unpack(bodies[count % #bodies + 1])
  return wrk.format(nil, path, nil, before .. '"{prefix}-' .. count .. '"' .. after)
end
"""
    )
    return script


def _check_create(address: str, data: DataSet, token: str, slug: str) -> None:
    """One create through ``address`` answers 200 and its story can be read after."""
    author, story, _ = next(data.story_inputs())
    body = orjson.dumps({"story": {**story, "slug": slug}, "publish": True})
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    create = urllib.request.Request(
        f"{address}/v1/stories/{author}/create", body, headers, method="POST"
    )
    with urllib.request.urlopen(create) as created:
        status = created.status
    with urllib.request.urlopen(f"{address}/v1/stories/{author}/{slug}") as read:
        if (status, read.status) != (200, 200):
            raise SystemExit(f"a create answered {status}, its read {read.status}")


def _cpu_seconds(supervisor: int) -> dict[str, float]:
    """CPU seconds used so far by each child of ``supervisor`` (its workers), by process id."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for task in Path(f"/proc/{supervisor}/task").iterdir():
        for child in (task / "children").read_text().split():
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
            used[child] = (int(fields[11]) + int(fields[12])) / tick
    return used


def _driven(url: str, seconds: int, supervisor: int, script: Path | None = None) -> Wrk:
    """wrk's requests a second and p50 against ``url``, and the busier worker's share of the
    CPU the workers used meanwhile (50%: wrk's connections kept both workers busy alike)."""
    before = _cpu_seconds(supervisor)
    rate, p50, _ = _wrk(url, seconds, 8, script, timeout=_TIMEOUT)
    spent = [used - before.get(child, 0.0) for child, used in _cpu_seconds(supervisor).items()]
    return rate, p50, max(spent) / (sum(spent) or 1)


def _run(
    code: Path,
    url: str,
    reads: dict[str, str],
    creates: Path,
    seconds: int,
    check: Callable[[str], None] | None = None,
) -> tuple[dict[str, Wrk], dict[str, list[object]]]:
    """Serve ``url`` with the code in ``code`` and drive it: each request's figures and the
    answers of the reads (fetched first, once each). ``check`` is given the server's address
    before the creates."""
    command = [sys.executable, "-m", "storycore.contrib.cli", "--db", url]
    command += ["serve", "--port", "0", "--workers", "2", "--web-url", _WEB_URL]
    with _launched(command, _environment(code), code) as (address, process):
        answers = _record(address, list(reads.values()))
        figures = {}
        for name, path in reads.items():
            _wrk(address + path, 1, 8, timeout=_TIMEOUT)  # warm both workers up
            figures[name] = _driven(address + path, seconds, process.pid)
        if check is not None:
            check(address)
        figures[_CREATE] = _driven(address + "/", seconds, process.pid, creates)
    return figures, answers


def _differences(old: dict[str, list[object]], new: dict[str, list[object]]) -> list[str]:
    """The reads whose status, headers (but ``Date`` and ``Server``) or body differ."""
    parts = ("status", "headers", "body")
    differing = {
        path: [part for part, a, b in zip(parts, old[path], new[path], strict=True) if a != b]
        for path in old
    }
    return [f"`{path}`: {', '.join(parts)}" for path, parts in differing.items() if parts]


def _table(results: dict[str, dict[str, list[Wrk]]]) -> list[str]:
    """Markdown rows: each request's medians, per side, and new over old."""
    sides = list(results)
    median = {
        side: {name: [statistics.median(f[i] for f in runs) for i in range(3)]
               for name, runs in figures.items()}
        for side, figures in results.items()
    }  # fmt: skip
    new = median["new"]
    if sides == ["new"]:
        lines = ["| request | req/s | p50 ms | busier worker |", "|---|---:|---:|---:|"]
        for name, (rate, p50, busier) in new.items():
            lines.append(f"| {name} | {rate:,.0f} | {p50:.2f} | {busier:.0%} |")
        return lines
    old = median["old"]
    lines = [
        "| request | old req/s | new req/s | new/old | each round | old p50 ms | new p50 ms"
        " | busier worker |",
        "|---|---:|---:|---:|---|---:|---:|---:|",
    ]
    for name, (rate, p50, busier) in new.items():
        orate, op50, obusier = old[name]
        rounds = zip(results["old"][name], results["new"][name], strict=True)
        each = " ".join(f"{n[0] / o[0]:.2f}" for o, n in rounds)
        lines.append(
            f"| {name} | {orate:,.0f} | {rate:,.0f} | {rate / orate:.2f} | {each} | {op50:.2f} "
            f"| {p50:.2f} | {obusier:.0%} / {busier:.0%} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed")
    parser.add_argument("--stories", type=int, default=10_000)
    parser.add_argument("--against", help="the git revision to compare with (old)")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--seconds", type=int, default=10, help="wrk duration per request")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (apt-get install wrk)")
    load_before = os.getloadavg()
    data = DataSet(stories=args.stories, authors=min(500, max(1, args.stories // 20)))
    singles, common = search_words(data)
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="storycore-speed-")))
        codes = {"new": _CHECKOUT}
        if args.against:
            codes = {"old": stack.enter_context(_revision(args.against)), **codes}
        for side, code in codes.items():
            print(f"{side}: {_short(args.against if side == 'old' else 'HEAD')},"
                  f" storycore from {_imported_from(code)}")  # fmt: skip
        if args.db == "sqlite":
            copies, token, (author, slug) = stack.enter_context(_sqlite(folder, data))
        else:
            copies, token, (author, slug) = stack.enter_context(_postgresql(data))
        reads = {
            "GET a two-word search": f"/v1/stories/search?q={quote_plus(f'{singles[0]} {common}')}",
            "GET a one-word search": f"/v1/stories/search?q={singles[0]}",
            "GET a story": f"/v1/stories/{author}/{slug}",
            "GET latest, page 1": "/v1/stories/browse/latest",
        }
        results: dict[str, dict[str, list[Wrk]]] = {side: {} for side in codes}
        answers: dict[str, dict[str, list[object]]] = {}
        for round_ in range(args.rounds):
            for side in codes if round_ % 2 == 0 else reversed(codes):
                name, prefix = f"r{round_}_{side}", f"r{round_}-{side}"
                script = _creates_script(folder, data, token, prefix)

                def check(address: str, slug: str = f"{prefix}-check") -> None:
                    _check_create(address, data, token, slug)

                with copies(name) as url:
                    figures, answers[side] = _run(
                        codes[side],
                        url,
                        reads,
                        script,
                        args.seconds,
                        check if round_ == 0 else None,
                    )
                for request, figure in figures.items():
                    results[side].setdefault(request, []).append(figure)
                print(f"round {round_ + 1} {side}: done", file=sys.stderr, flush=True)
    print(f"\n{args.stories:,} stories of 20 elements on {args.db}, `storycore serve --workers 2`,")
    print(f"wrk -t1 -c8 -d{args.seconds}s, median of {args.rounds} rounds;")
    print(f"load average before: {' '.join(f'{n:.2f}' for n in load_before)},")
    print(f"after: {' '.join(f'{n:.2f}' for n in os.getloadavg())}\n")
    print("\n".join(_table(results)))
    if "old" in answers:
        differing = _differences(answers["old"], answers["new"])
        print("\nThe reads' answers, old against new (status, headers but Date and Server, body):")
        print("\n".join(f"- differ: {line}" for line in differing) or "- byte for byte the same")


if __name__ == "__main__":
    main()
