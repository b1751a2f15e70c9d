"""One endpoint cannot hold up another: how soon a healthy endpoint gets each event while
other endpoints hang or drip (docs/webhooks.md).

    python -m benchmarks.starving --creates 30 --workers 1,2
    python -m benchmarks.starving --creates 30 --pause 0.5   # the creates over 15 s

For each number of ``--workers``, twice: a real ``storycore serve`` on a SQLite file in a
temporary directory (``STORYCORE_WEBHOOK_KEY`` set, ``--resolve-allow-host 127.0.0.1``), a
webhook for ``story.created`` to a healthy endpoint on 127.0.0.1 that answers ``204`` at
once; in the second run, two more beside it, to an endpoint that never answers and to one
that drips a byte of its answer every 0.3 s and never ends it. Then ``--creates`` stories,
one after another, through ``POST /v1/stories/:username/create``. For each create: the time
from its answer to the healthy endpoint's receiving its event; and the time from the first
create's request to the healthy endpoint's having them all.

The three endpoints are asyncio servers on a thread of this process, each on a port of its
own; the healthy one notes the time (``time.monotonic``) each delivery is complete, by its
story's slug. Prints a Markdown table. Never part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from benchmarks.http_load import _launched
from storycore.contrib.compose import compose
from storycore.model.visibility import OPERATOR
from storycore.rules.webhook_secrets import new_key

__all__ = ["main"]

HOST = "127.0.0.1"
#: What the delivery contract promises a healthy endpoint, from a write to its event.
TARGET_SECONDS = 5.0
#: Seconds between the bytes of the dripping endpoint's answer.
DRIP_SECONDS = 0.3
#: A ceiling on waiting for the healthy endpoint's deliveries, not a measure.
CEILING_SECONDS = 600.0
_SERVE = "from storycore.contrib.cli import main; main()"
_USER, _PASSWORD = "starving", "a long enough password"
#: The dripping endpoint's answer, begun and never finished: its header's value goes on.
_DRIP_HEAD = b"HTTP/1.1 200 OK\r\nX-Drip: "


class _Healthy(asyncio.Protocol):
    """A connection to the healthy endpoint: each request answered ``204`` once complete,
    its story's slug noted with the time."""

    def __init__(self, received: dict[str, float]) -> None:
        self.received = received
        self._buffer = b""
        self._transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        while (end := self._buffer.find(b"\r\n\r\n")) >= 0:
            head = self._buffer[:end].decode("latin-1").lower()
            length = 0
            for line in head.split("\r\n")[1:]:
                name, _, value = line.partition(":")
                if name.strip() == "content-length":
                    length = int(value)
            if len(self._buffer) < end + 4 + length:
                return
            body = self._buffer[end + 4 : end + 4 + length]
            self._buffer = self._buffer[end + 4 + length :]
            slug = json.loads(body)["data"]["slug"]
            self.received.setdefault(slug, time.monotonic())
            assert self._transport is not None
            self._transport.write(b"HTTP/1.1 204 No Content\r\n\r\n")


class _Hanging(asyncio.Protocol):
    """A connection to the endpoint that reads every request and never answers."""

    def __init__(self, opened: list[str]) -> None:
        opened.append("hanging")


class _Dripping(asyncio.Protocol):
    """A connection to the endpoint that answers a byte every ``DRIP_SECONDS``, forever."""

    def __init__(self, opened: list[str]) -> None:
        opened.append("dripping")
        self._sent = 0
        self._transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        if self._sent == 0:
            self._drip()

    def _drip(self) -> None:
        assert self._transport is not None
        if self._transport.is_closing():
            return
        byte = _DRIP_HEAD[self._sent : self._sent + 1] or b"a"
        self._transport.write(byte)
        self._sent += 1
        asyncio.get_running_loop().call_later(DRIP_SECONDS, self._drip)


@dataclass
class _Endpoints:
    """The three endpoints' addresses, what the healthy one received, and the connections
    the other two were opened (their names, once each)."""

    healthy: str
    hanging: str
    dripping: str
    received: dict[str, float]
    opened: list[str]


@contextmanager
def _endpoints() -> Iterator[_Endpoints]:
    """The three endpoints, served on a thread of their own until the block ends."""
    received: dict[str, float] = {}
    opened: list[str] = []
    loop = asyncio.new_event_loop()
    factories: dict[str, Callable[[], asyncio.Protocol]] = {
        "healthy": lambda: _Healthy(received),
        "hanging": lambda: _Hanging(opened),
        "dripping": lambda: _Dripping(opened),
    }
    servers = {
        name: loop.run_until_complete(loop.create_server(factory, HOST, 0))
        for name, factory in factories.items()
    }
    addresses = {
        name: f"http://{HOST}:{server.sockets[0].getsockname()[1]}/{name}"
        for name, server in servers.items()
    }
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield _Endpoints(**addresses, received=received, opened=opened)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        for server in servers.values():
            server.close()
        loop.close()


def _post(url: str, data: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, json.dumps(data).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        found: dict[str, Any] = json.loads(answer.read())
        return found


@dataclass
class _Run:
    """One run: each create's seconds from its answer to the healthy endpoint's receiving
    its event, the seconds from the first create's request to the last delivery, and the
    connections the hanging and the dripping endpoint were opened meanwhile."""

    latencies: list[float]
    total: float
    stuck: int


def _run(workers: int, creates: int, pause: float, stuck: bool) -> _Run:
    """``creates`` stories made through a fresh ``serve``, the healthy endpoint alone or
    (``stuck``) beside the hanging and the dripping one."""
    with tempfile.TemporaryDirectory(prefix="storycore-starving-") as directory:
        url = f"sqlite:///{Path(directory) / 'bench.db'}"
        key = new_key()
        with _endpoints() as endpoints:
            with compose(url, resolver_allowed_hosts=(HOST,), webhook_key=key) as service:
                service.accounts.create_user(_USER, _PASSWORD, editor=True)
                api_key = service.accounts.create_app("starving").api_key
                hooks = [endpoints.healthy]
                if stuck:
                    hooks += [endpoints.hanging, endpoints.dripping]
                for address in hooks:
                    service.webhooks.add(address, ["story.created"], viewer=OPERATOR)
            serve = [
                sys.executable, "-c", _SERVE, "--db", url, "serve", "--port", "0",
                "--workers", str(workers), "--log-level", "warning",
                "--resolve-allow-host", HOST,
            ]  # fmt: skip
            environment = {**os.environ, "STORYCORE_WEBHOOK_KEY": key}
            with _launched(serve, environment) as (server, _):
                auth = {"api_key": api_key, "username": _USER, "password": _PASSWORD}
                token = _post(server + "/v1/auth", auth)["content"]["_token"]
                answered: dict[str, float] = {}
                start = time.monotonic()
                for n in range(creates):
                    slug = f"starving-{n}"
                    story = {"story": {"title": f"Starving {n}", "slug": slug}}
                    _post(f"{server}/v1/stories/{_USER}/create", story, token)
                    answered[slug] = time.monotonic()
                    time.sleep(pause)
                ceiling = time.monotonic() + CEILING_SECONDS
                while len(endpoints.received) < creates:
                    if time.monotonic() > ceiling:
                        raise SystemExit(
                            f"{len(endpoints.received)} of {creates} delivered in time"
                        )
                    time.sleep(0.01)
            received, stuck_connections = dict(endpoints.received), len(endpoints.opened)
    if stuck and stuck_connections == 0:
        raise SystemExit("the hanging and the dripping endpoint were never called")
    latencies = [received[slug] - at for slug, at in answered.items()]
    return _Run(latencies, max(received.values()) - start, stuck_connections)


def _row(workers: int, name: str, run: _Run) -> str:
    ordered = sorted(run.latencies)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    met = "met" if ordered[-1] <= TARGET_SECONDS else "**not met**"
    return (
        f"| {workers} | {name} | {len(ordered)} | {ordered[0]:.3f} |"
        f" {statistics.median(ordered):.3f} | {p95:.3f} | {ordered[-1]:.3f} | {run.total:.2f}"
        f" | {run.stuck} | ≤ {TARGET_SECONDS:g} s: {met} |"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.starving")
    parser.add_argument("--creates", type=int, default=30, help="stories created a run")
    parser.add_argument(
        "--workers", default="1,2", help="serve's workers, comma-separated: a pair of runs each"
    )
    parser.add_argument("--pause", type=float, default=0.0, help="seconds between creates")
    args = parser.parse_args(argv)
    lines = [
        f"`storycore serve` on a SQLite file, {args.creates} creates one after another through"
        f" the API, {args.pause:g} s apart; seconds from each create's answer to the healthy"
        " endpoint's receiving its event:",
        "",
        "| workers | endpoints | creates | min s | median s | p95 s | max s"
        " | all delivered after s | connections to the stuck endpoints | target |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for workers in (int(w) for w in args.workers.split(",")):
        for name, stuck in (("healthy alone", False), ("beside hanging and dripping", True)):
            lines.append(_row(workers, name, _run(workers, args.creates, args.pause, stuck)))
    print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
