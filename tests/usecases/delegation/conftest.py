"""Fake identity providers: real HTTP servers on 127.0.0.1 that record every request."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.identity import HttpProviderClient
from storycore.http import HttpApp, HttpRequest, HttpResponse
from tests.conftest import TEST_SETTINGS

SECRET = 'OAuth oauth_consumer_key="app", oauth_signature="s3cr3t-signature-value"'


@dataclass
class Reply:
    """What a fake provider answers next."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Trickle:
    """A raw answer sent piece by piece, ``gap`` seconds before each piece: a provider that is
    never silent for long but never done either.
    """

    pieces: list[bytes]
    gap: float


@dataclass
class FakeProvider:
    """One fake provider; ``requests`` holds (path, Authorization) of everything it received."""

    base: str
    reply: Reply = field(default_factory=Reply)
    requests: list[tuple[str, str | None]] = field(default_factory=list)
    trickle: Trickle | None = None

    @property
    def verify_url(self) -> str:
        return f"{self.base}/1.1/account/verify_credentials.json"

    def answer_user(self, user_id: str = "42", screen_name: str = "alice_a", **extra: Any) -> None:
        data = {"id_str": user_id, "screen_name": screen_name, "name": "Alice A.", **extra}
        self.reply = Reply(200, orjson.dumps(data), {"Content-Type": "application/json"})


def _serve(provider: FakeProvider) -> Callable[[], None]:
    stopping = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        timeout = 10  # a client that connects and sends nothing holds a handler this long

        def do_GET(self) -> None:
            provider.requests.append((self.path, self.headers.get("Authorization")))
            if provider.trickle is not None:
                self._trickle(provider.trickle)
                return
            reply = provider.reply
            if reply.delay and stopping.wait(reply.delay):
                return
            self.send_response(reply.status)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def _trickle(self, trickle: Trickle) -> None:
            self.close_connection = True
            for piece in trickle.pieces:
                if stopping.wait(trickle.gap):
                    return
                try:
                    self.wfile.write(piece)
                except OSError:  # the client gave up and closed the connection
                    return

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = False  # so server_close() joins every handler
    provider.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()

    def stop() -> None:
        stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)

    return stop


@pytest.fixture
def provider() -> Iterator[FakeProvider]:
    """The allowlisted provider."""
    fake = FakeProvider(base="")
    stop = _serve(fake)
    yield fake
    stop()


@pytest.fixture
def elsewhere() -> Iterator[FakeProvider]:
    """A provider that is not allowlisted: it must never receive anything."""
    fake = FakeProvider(base="")
    stop = _serve(fake)
    yield fake
    stop()


@dataclass
class Delegating:
    """A service whose allowlist holds ``provider``, with a granted application."""

    service: Service
    app: HttpApp
    api_key: str

    def create(
        self, provider_header: str | None, story: object = None, **params: Any
    ) -> HttpResponse:
        headers = [("content-type", "application/json")]
        if provider_header is not None:
            headers.append(("x-auth-service-provider", provider_header))
        headers.append(("x-verify-credentials-authorization", params.pop("authorization", SECRET)))
        body = {
            "api_key": params.pop("api_key", self.api_key),
            "story": story or {"title": "From afar"},
        }
        request = HttpRequest(
            "POST", "/v1/delegated/create", b"", headers, orjson.dumps({**body, **params})
        )
        return self.app.handle(request)


def _delegating(provider: FakeProvider, provider_timeout: float) -> Iterator[Delegating]:
    settings = TEST_SETTINGS.model_copy(
        update={
            "delegation_providers": (provider.verify_url,),
            "provider_timeout": provider_timeout,
        }
    )
    service = Service(open_store("memory://"), settings, provider_client=HttpProviderClient())
    key = service.accounts.create_app("partner", delegation=True).api_key
    yield Delegating(service, HttpApp(service), key)
    service.close()


@pytest.fixture
def delegating(provider: FakeProvider) -> Iterator[Delegating]:
    yield from _delegating(provider, 0.5)


PATIENT_TIMEOUT = 0.6


@pytest.fixture
def patient(provider: FakeProvider) -> Iterator[Delegating]:
    """Delegation whose provider timeout (0.6 s) is longer than a trickling provider's pauses."""
    yield from _delegating(provider, PATIENT_TIMEOUT)
