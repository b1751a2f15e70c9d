"""The online resolver (docs/resolver.md): how long a create of a story of 20
permalinks takes when each permalink's site answers after ``--delay`` ms, and when none ever
answers.

    python -m benchmarks.resolving --permalinks 20 --delay 200 --repeat 10

A fake site on 127.0.0.1 (``http.server``, one thread a connection) serves each permalink an
OpenGraph page after the delay; the service (in memory) resolves through the real fetcher
(``storycore.contrib.fetch.HttpFetcher``) with 127.0.0.1 allowed. Every create uses permalinks
of its own, so none is answered from the resolver's cache. Prints a Markdown table. Never part
of the test suite.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.fetch import HttpFetcher
from storycore.resolving.online_resolver import OnlineResolver

__all__ = ["main"]

_HANG_SECONDS = 30


class _Server(ThreadingHTTPServer):
    request_queue_size = 128
    daemon_threads = True


@contextmanager
def _site(delay: float) -> Iterator[tuple[str, threading.Event]]:
    """A site answering every ``/page/...`` after ``delay`` s and never answering ``/hang/...``;
    yields its address and the event that ends the hanging answers."""
    stopping = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.startswith("/hang/"):
                stopping.wait(_HANG_SECONDS)
                return
            if stopping.wait(delay):
                return
            body = f'<meta property="og:title" content="Page {self.path}">'.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = _Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", stopping
    finally:
        stopping.set()
        server.shutdown()
        server.server_close()


def _creates(
    service: Service, addresses: Iterator[list[str]], repeat: int
) -> tuple[list[float], int]:
    """The seconds each of ``repeat`` creates took, each with the next list of permalinks, and
    how many elements of the last one have a title (were resolved)."""
    alice = service.accounts.as_user("alice")
    seconds = []
    slug = ""
    for number in range(repeat):
        story = {"title": f"Resolved {number}", "elements": next(addresses)}
        started = time.perf_counter()
        slug = service.stories.create("alice", story, viewer=alice).slug
        seconds.append(time.perf_counter() - started)
    read = service.stories.read("alice", slug, viewer=alice, per_page=100).to_json_dict()
    return seconds, sum(1 for e in read["elements"] if e["data"].get("link", {}).get("title"))


def _row(name: str, seconds: list[float], resolved: str) -> str:
    p50 = statistics.median(seconds)
    return (
        f"| {name} | {len(seconds)} | {p50 * 1000:,.0f} | {max(seconds) * 1000:,.0f} | {resolved} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--permalinks", type=int, default=20)
    parser.add_argument("--delay", type=float, default=200.0, help="each answer's delay, in ms")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--hang-repeat", type=int, default=3)
    args = parser.parse_args()
    settings = Settings(resolver="online", resolver_allowed_hosts=("127.0.0.1",), password_cost=16)
    resolver = OnlineResolver(settings, HttpFetcher(allowed_hosts=settings.resolver_allowed_hosts))
    with (
        _site(args.delay / 1000) as (base, _),
        Service(open_store("memory://"), settings, resolver=resolver) as service,
    ):
        service.accounts.create_user("alice", "alice-password")
        counter = itertools.count()

        def permalinks(kind: str) -> Iterator[list[str]]:
            while True:
                yield [f"{base}/{kind}/{next(counter)}" for _ in range(args.permalinks)]

        answering, titled = _creates(service, permalinks("page"), args.repeat)
        hanging, _ = _creates(service, permalinks("hang"), args.hang_repeat)
    print(
        f"{args.permalinks} permalinks a create; {settings.resolver_at_once} at once,"
        f" {settings.resolver_timeout:g} s each, {settings.resolver_budget:g} s a write\n"
    )
    print("| sites | creates | p50 ms | max ms | resolved |\n|---|---:|---:|---:|---|")
    print(_row(f"answer after {args.delay:g} ms", answering, f"{titled}/{args.permalinks}"))
    print(_row("never answer", hanging, "none: offline elements"))


if __name__ == "__main__":
    main()
