"""HTTP throughput: storycore's ASGI app under uvicorn against the bare floor, driven by wrk.

Both servers run as separate processes started the same way (uvicorn, one worker, the same
pre-bound socket, access log off); wrk runs on loopback for a bounded time. The floor answers
the exact bytes storycore answered for the same path, recorded just before. ``storycore serve``
runs with ``--workers 1`` (``serve_command``): its default, a worker per core, measures how
wrk's connections happened to split between the workers more than what an answer costs.

The pages people read (``operations.page_paths``) run against the same storycore server, in
the same run, and are compared with their API counterparts' figures.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from benchmarks.operations import PAGE_TARGETS, page_paths

__all__ = ["http_table", "serve_command"]

_SERVE = "from storycore.contrib.cli import main; main()"
_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


@contextmanager
def _server(command: list[str]) -> Iterator[str]:
    """Starts a server that prints ``listening on ADDRESS``; yields the address."""
    with _launched(command) as (address, _):
        yield address


@contextmanager
def _launched(
    command: list[str], env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``_server`` with the environment ``env`` (default: this process's), in the folder
    ``cwd`` (default: this process's); yields the address and the process."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env, cwd=cwd)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("listening on "):
            raise SystemExit(f"server did not start: {line!r}")
        yield line.removeprefix("listening on ").strip(), process
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def _record(address: str, paths: list[str]) -> dict[str, list[object]]:
    answers: dict[str, list[object]] = {}
    for path in paths:
        with urllib.request.urlopen(address + path) as response:
            skip = ("date", "server")
            headers = [(k, v) for k, v in response.getheaders() if k.lower() not in skip]
            body = response.read()
        answers[path] = [response.status, headers, base64.b64encode(body).decode()]
    return answers


def serve_command(db_url: str) -> list[str]:
    """``storycore serve`` as this benchmark runs it: in one process, as the bare app runs.

    With serve's default of a worker per core, the workers share one socket and the one that
    wakes first accepts every connection waiting: wrk's eight connections, opened at once,
    often all went to one worker while the other idled (8 to 0 in about a quarter of the runs
    on two cores), and such a run's req/s fell by chance, whatever path it measured. Two
    workers are ``benchmarks.serving``'s to measure.
    """
    return [sys.executable, "-c", _SERVE, "--db", db_url, "serve", "--port", "0", "--workers", "1"]


def _milliseconds(text: str) -> float:
    found = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if found is None:
        raise SystemExit(f"cannot read the latency {text!r} in wrk's report")
    number, unit = found.groups()
    return float(number) * _UNITS[unit]


def _wrk(
    url: str, seconds: int, connections: int, script: Path | None = None, timeout: int = 2
) -> tuple[float, float, float]:
    """Requests a second, p50 and p99 latency in milliseconds; GETs of ``url``, or the requests
    the Lua ``script`` makes (``wrk -s``). Any answer but a 2xx, and any answer taking over
    ``timeout`` seconds (wrk's default: 2), fails the run."""
    scripted = ["-s", str(script)] if script is not None else []
    options = ["-t1", f"-c{connections}", f"-d{seconds}s", f"--timeout={timeout}s", "--latency"]
    out = subprocess.run(
        ["wrk", *options, *scripted, url],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    if "Non-2xx" in out or "Socket errors" in out:
        raise SystemExit(f"wrk saw errors against {url}:\n{out}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    # a line of its own: "+/- Stdev" figures elsewhere may end in "50%" too
    p50 = _milliseconds(re.search(r"^\s*50%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    p99 = _milliseconds(re.search(r"^\s*99%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    return rate, p50, p99


def http_table(db_url: str, story: tuple[str, str], seconds: int = 10, connections: int = 8) -> str:
    """Markdown tables: GET a story and GET a list, storycore against the bare app; then each
    page people read against its API counterpart."""
    if shutil.which("wrk") is None:
        return "HTTP: skipped, `wrk` is not installed (apt-get install wrk)"
    paths = {
        "GET a story": f"/v1/stories/{story[0]}/{story[1]}",
        "GET a list (latest)": "/v1/stories/browse/latest",
    }
    rows = []
    with _server(serve_command(db_url)) as address:
        answers = _record(address, list(paths.values()))
        ours = {name: _wrk(address + path, seconds, connections) for name, path in paths.items()}
        pages = {
            name: _wrk(address + path, seconds, connections) for name, path, _ in page_paths(story)
        }
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(answers, file)
    bare = [sys.executable, "-m", "benchmarks.bare_server", file.name]
    with _server(bare) as address:
        floor = {name: _wrk(address + path, seconds, connections) for name, path in paths.items()}
    Path(file.name).unlink()
    lines = [
        f"HTTP through uvicorn, wrk -t1 -c{connections} -d{seconds}s on loopback:",
        "",
        "| request | storycore req/s | p50 ms | p99 ms | bare req/s | p50 ms | p99 ms | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in paths:
        (rate, p50, p99), (frate, fp50, fp99) = ours[name], floor[name]
        rows.append(
            f"| {name} | {rate:,.0f} | {p50:.2f} | {p99:.2f} | {frate:,.0f} | {fp50:.2f} "
            f"| {fp99:.2f} | {rate / frate:.2f} |"
        )
    api = {path: ours[name] for name, path in paths.items()}
    lines += [*rows]
    rows = []
    lines += [
        "",
        "The pages against their API counterparts, on the same server in the same run:",
        "",
        "| page | req/s | p50 ms | p99 ms | API req/s | p50 ms | p99 ms | ratio | target |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, _, api_path in page_paths(story):
        (rate, p50, p99), (arate, ap50, ap99) = pages[name], api[api_path]
        target = PAGE_TARGETS[name]
        met = "met" if rate / arate >= target else "**not met**"
        rows.append(
            f"| {name} | {rate:,.0f} | {p50:.2f} | {p99:.2f} | {arate:,.0f} | {ap50:.2f} "
            f"| {ap99:.2f} | {rate / arate:.2f} | ≥ {target}: {met} |"
        )
    return "\n".join(lines + rows)
