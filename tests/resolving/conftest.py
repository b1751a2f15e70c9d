"""Fake sites for the online resolver: real HTTP servers on the loopback interface that count
every request they get, and the resolver, fetcher and service that reach them.

Nothing leaves the machine: every site listens on 127.0.0.1 (or ::1), and a test that needs a
"public" name maps it to an address of its choice through the fetcher's injected lookup.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
import pytest

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.clocks import Clock
from storycore.contrib.fetch import HttpFetcher, NameLookup
from storycore.resolving.fetching import HTML_CAP, Fetched
from storycore.resolving.online_resolver import OnlineResolver
from storycore.rules.oembed_providers import OEmbedProvider
from tests.conftest import TEST_SETTINGS

#: The longest a handler waits for a site that never answers (the site's stop ends it sooner).
HANG_SECONDS = 30
#: The most an endless body sends before giving up, whatever the client does.
ENDLESS_BYTES = 64 * 1024 * 1024


@dataclass
class Reply:
    """What a fake site answers at one path."""

    body: bytes = b""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    hang: bool = False  # never answers, until the site stops or is released
    gather: int = 0  # held until this many requests were in flight at once (then answered)
    endless: bool = False  # a body that never ends


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # twenty permalinks connect at once
    daemon_threads = True


class FakeSite:
    """One site: ``replies`` by path; ``requests`` holds the path (and query) of every request
    it got, in order; ``in_flight`` counts those not answered yet, and ``most_at_once`` the most
    that were in flight at one moment."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.replies: dict[str, Reply] = {}
        self.requests: list[str] = []
        self.hosts: list[str] = []  # the Host header of each request
        self.in_flight = 0
        self.most_at_once = 0
        self._counting = threading.Lock()
        self._gathered = threading.Event()
        self._stopping = threading.Event()
        site = self

        class Handler(BaseHTTPRequestHandler):
            timeout = 10

            def do_GET(self) -> None:
                site.requests.append(self.path)
                site.hosts.append(self.headers.get("Host", ""))
                reply = site.replies.get(urlsplit(self.path).path, Reply(b"", status=404))
                try:
                    site._arrived(reply.gather)
                    if reply.hang:
                        site._stopping.wait(HANG_SECONDS)
                        return
                    if reply.gather:
                        site._gathered.wait(HANG_SECONDS)
                    if reply.delay and site._stopping.wait(reply.delay):
                        return
                finally:  # before the answer: a client that has it never sees this one in flight
                    site._left()
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                if reply.endless:
                    self.end_headers()
                    self._endless()
                    return
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

            def _endless(self) -> None:
                chunk = b"<p>" + b"x" * 65536 + b"</p>"
                sent = 0
                while sent < ENDLESS_BYTES and not site._stopping.is_set():
                    try:
                        self.wfile.write(chunk)
                    except OSError:  # the client stopped reading and closed
                        return
                    sent += len(chunk)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        _Server.address_family = family
        self._server = _Server((host, 0), Handler)
        self.port: int = self._server.server_address[1]
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        self.base = f"http://{shown}:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,))
        self._thread.daemon = True
        self._thread.start()

    def _arrived(self, gather: int) -> None:
        with self._counting:
            self.in_flight += 1
            self.most_at_once = max(self.most_at_once, self.in_flight)
            if gather and self.in_flight >= gather:
                self._gathered.set()

    def _left(self) -> None:
        with self._counting:
            self.in_flight -= 1

    def url(self, path: str) -> str:
        return f"{self.base}{path}"

    def page(self, path: str, html: str, **reply: Any) -> str:
        """Serve ``html`` at ``path``; its address."""
        self.replies[path] = Reply(html.encode(), **reply)
        return self.url(path)

    def json(self, path: str, data: object, **reply: Any) -> str:
        self.replies[path] = Reply(orjson.dumps(data), content_type="application/json", **reply)
        return self.url(path)

    def redirect(self, path: str, to: str, status: int = 302) -> str:
        self.replies[path] = Reply(status=status, headers={"Location": to})
        return self.url(path)

    def release(self) -> None:
        """End every hang now: each hanging request is closed, unanswered."""
        self._stopping.set()

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)


@pytest.fixture
def sites() -> Iterator[Callable[..., FakeSite]]:
    """Starts fake sites (``sites()``, ``sites("::1")``); stops them all after the test."""
    started: list[FakeSite] = []

    def start(host: str = "127.0.0.1") -> FakeSite:
        site = FakeSite(host)
        started.append(site)
        return site

    yield start
    for site in started:
        site.stop()


@pytest.fixture
def site(sites: Callable[..., FakeSite]) -> FakeSite:
    """A fake site on 127.0.0.1."""
    return sites()


def mapped(names: dict[str, Sequence[str]]) -> NameLookup:
    """A name lookup that knows only ``names``: each name's addresses."""

    async def lookup(host: str, port: int) -> list[str]:
        if host not in names:
            raise OSError(f"unknown name {host}")
        return list(names[host])

    return lookup


def fetch(fetcher: HttpFetcher, url: str, max_bytes: int = HTML_CAP) -> Fetched | None:
    """One fetch, run to its end (bounded at 10 s, as a test's safety net)."""

    async def bounded() -> Fetched | None:
        async with asyncio.timeout(10):
            return await fetcher.fetch(url, accept="text/html", max_bytes=max_bytes)

    return asyncio.run(bounded())


class Everywhere(httpx.AsyncHTTPTransport):
    """A network on which every address leads to one site: what a request to a private address
    would reach if the fetcher let it go. ``asked`` holds the addresses requests were sent to."""

    def __init__(self, site: FakeSite) -> None:
        super().__init__(trust_env=False)
        self.site = site
        self.asked: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.asked.append(request.url.host)
        request.url = request.url.copy_with(host="127.0.0.1", port=self.site.port)
        return await super().handle_async_request(request)


def online_settings(*providers: OEmbedProvider, **changes: Any) -> Settings:
    """The test settings, online, the loopback address allowed, with ``providers`` as the
    oEmbed table."""
    return TEST_SETTINGS.model_copy(
        update={
            "resolver": "online",
            "resolver_allowed_hosts": ("127.0.0.1",),
            "oembed_providers": providers,
            **changes,
        }
    )


def online_resolver(
    settings: Settings, fetcher: HttpFetcher | None = None, *, clock: Clock | None = None
) -> OnlineResolver:
    return OnlineResolver(
        settings,
        fetcher or HttpFetcher(allowed_hosts=settings.resolver_allowed_hosts),
        clock=clock,
    )


@pytest.fixture
def service_with() -> Iterator[Callable[[OnlineResolver], Service]]:
    """Makes a service (in memory) resolving through the given resolver, with a user alice."""
    made: list[Service] = []

    def make(resolver: OnlineResolver) -> Service:
        service = Service(open_store("memory://"), resolver.settings, resolver=resolver)
        service.accounts.create_user("alice", "alice-password")
        made.append(service)
        return service

    yield make
    for service in made:
        service.close()
