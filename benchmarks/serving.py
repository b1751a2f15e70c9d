"""Serving: one process against its ideal, two workers against one, sequential
keep-alive latency, and what counting a view costs a read.

    python -m benchmarks.serving --stories 10000

- **One process against its ideal.** ``t_inproc`` is the request through ``HttpApp.handle``
  (the app alone), ``t_bare`` a bare ASGI app's time per request under the same uvicorn
  (``1 / its req/s`` with ``wrk -t1 -c8``). One process can at best answer
  ``1 / (t_inproc + t_bare)`` requests a second; the ratio is storycore's req/s over that.
- **Workers.** ``storycore serve --workers 2`` against ``--workers 1``, and plain
  ``uvicorn --factory storycore.contrib.asgi:from_environment --workers 2``: req/s with
  ``wrk -t1 -c8``, and p50 of sequential keep-alive requests (``wrk -t1 -c1``).
- **Reads do not write.** A story read that counts its view (written once a second, in a
  batch) over the same read that does not.

Prints Markdown tables. Never part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from benchmarks.data import DataSet
from benchmarks.http_load import _record, _server, _wrk
from benchmarks.load import load
from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.http import HttpApp, HttpRequest

_SERVE = [sys.executable, "-m", "storycore.contrib.cli"]
_FACTORY = "storycore.contrib.asgi:from_environment"


def _per_request(call: Callable[[], object], repeat: int) -> float:
    """Mean seconds a call takes, after a few to warm up."""
    for _ in range(20):
        call()
    start = time.perf_counter()
    for _ in range(repeat):
        call()
    return (time.perf_counter() - start) / repeat


def _get(app: HttpApp, path: str) -> Callable[[], object]:
    """A GET of ``path`` answered by ``app`` in process, a new request each call."""
    return lambda: app.handle(HttpRequest("GET", path))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextmanager
def _uvicorn(
    db: str, workers: int, factory: str = _FACTORY, env: dict[str, str] | None = None
) -> Iterator[str]:
    """Plain uvicorn running the app ``factory`` makes (default: the app from the environment,
    ``env`` or this process's); yields its address once it answers."""
    port = _free_port()
    env = {**(os.environ if env is None else env), "STORYCORE_DB": db}
    command = [sys.executable, "-m", "uvicorn", "--factory", factory, "--port", str(port)]
    command += ["--workers", str(workers), "--log-level", "warning"]
    process = subprocess.Popen(command, env=env)
    address = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        time.sleep(2)  # every worker started, not just the first
        yield address
    finally:
        process.terminate()
        process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.serving")
    parser.add_argument("--stories", type=int, default=10_000)
    parser.add_argument("--seconds", type=int, default=10, help="wrk duration per run")
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (apt-get install wrk)")

    folder = Path(tempfile.mkdtemp(prefix="storycore-serving-"))
    db = f"sqlite:///{folder / 'bench.db'}"
    data = DataSet(stories=args.stories, authors=min(500, max(1, args.stories // 20)))
    service = Service(open_store(db), Settings())
    load(service, data)
    first = service.catalog.latest().items[0]
    paths = {
        "GET a story": f"/v1/stories/{first.author.username}/{first.slug}",
        "GET latest, page 1": "/v1/stories/browse/latest",
    }

    # in process: the app alone, and a read with and without counting its view
    app = HttpApp(service)
    inproc = {name: _per_request(_get(app, path), args.repeat) for name, path in paths.items()}
    author, slug = first.author.username, first.slug
    counted = _per_request(lambda: service.stories.open(author, slug), args.repeat)
    uncounted = _per_request(
        lambda: service.stories.open(author, slug, count_view=False), args.repeat
    )
    service.close()

    seconds, rows = args.seconds, []
    one_process: dict[str, tuple[float, float, float]] = {}
    serve = [*_SERVE, "--db", db, "serve", "--port", "0"]
    with _server([*serve, "--workers", "1"]) as address:
        answers = _record(address, list(paths.values()))
        for name, path in paths.items():
            one_process[name] = _wrk(address + path, seconds, 8)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(answers, file)
    with _server([sys.executable, "-m", "benchmarks.bare_server", file.name]) as address:
        bare = {name: _wrk(address + path, seconds, 8) for name, path in paths.items()}
    Path(file.name).unlink()
    print(f"\n## One process over HTTP, {args.stories:,} stories: wrk -t1 -c8 -d{seconds}s\n")
    print("| request | t_inproc ms | bare req/s | ideal req/s | storycore req/s | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in paths:
        ideal = 1 / (inproc[name] + 1 / bare[name][0])
        rate = one_process[name][0]
        print(
            f"| {name} | {inproc[name] * 1000:.3f} | {bare[name][0]:,.0f} | {ideal:,.0f} "
            f"| {rate:,.0f} | {rate / ideal:.2f} |"
        )

    servers: list[tuple[str, Callable[[], AbstractContextManager[str]]]] = [
        ("storycore serve --workers 2", lambda: _server([*serve, "--workers", "2"])),
        ("uvicorn --factory ... --workers 2", lambda: _uvicorn(db, 2)),
    ]
    for label, run in servers:
        with run() as address:
            for name, path in paths.items():
                rate = _wrk(address + path, seconds, 8)[0]
                p50 = _wrk(address + path, seconds, 1)[1]
                rows.append((label, name, rate, p50))
    print("\n## Two workers: wrk -t1 -c8 (req/s) and -c1 (sequential keep-alive p50)\n")
    print("| server | request | req/s | over one worker | sequential p50 ms |")
    print("|---|---|---:|---:|---:|")
    for label, name, rate, p50 in rows:
        over = rate / one_process[name][0]
        print(f"| {label} | {name} | {rate:,.0f} | {over:.2f} | {p50:.2f} |")

    print("\n## Reads do not write (in process)\n")
    print("| read a story | ms | ratio |")
    print("|---|---:|---:|")
    print(f"| without counting its view | {uncounted * 1000:.3f} | 1.00 |")
    print(f"| counting its view | {counted * 1000:.3f} | {uncounted / counted:.2f} |")
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
