"""A webhook receiver on 127.0.0.1: a real HTTP endpoint that keeps every delivery it is sent
and answers each with ``status``, for the tests that deliver events (docs/webhooks.md)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["Received", "Receiver", "receiving"]


@dataclass(frozen=True)
class Received:
    """One delivery as the receiver got it: its path, headers (lowercase names) and body."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """``url`` takes every POST; ``received`` holds them in order; each is answered
    ``status``."""

    url: str
    status: int = 204
    received: list[Received] = field(default_factory=list)


class _Server(ThreadingHTTPServer):
    daemon_threads = True


@contextmanager
def receiving(path: str = "/hooks/storycore") -> Iterator[Receiver]:
    """A receiver listening on a free port of 127.0.0.1 until the ``with`` ends."""
    lock = threading.Lock()
    receiver: Receiver

    class Handler(BaseHTTPRequestHandler):
        timeout = 10

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            headers = {name.lower(): value for name, value in self.headers.items()}
            with lock:
                receiver.received.append(Received(self.path, headers, body))
            self.send_response(receiver.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = _Server(("127.0.0.1", 0), Handler)
    receiver = Receiver(f"http://127.0.0.1:{server.server_address[1]}{path}")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
