"""Webhook receivers for the tests: real HTTP servers on 127.0.0.1 that record every request
they get and answer as the test tells them.

    with Receiver() as receiver:
        receiver.answer(500)            # 500 to every request, until told otherwise
        ...                             # register receiver.url, deliver
        assert receiver.received[0].verified(secret)["type"] == "story.created"

A receiver answers 204 until told otherwise: ``answer(status)`` (``location=`` for a redirect),
``hang()`` (never answers), ``drop()`` (closes the connection without answering),
``slow(seconds)`` (answers 204 after that long), ``endless()`` (200 and a body that never ends,
as fast as the sender takes it) and ``trickle()`` (200 and a body that never ends, a byte at a
time). It records a request before it acts, so a dropped or hung one is recorded too. It speaks
HTTP/1.1 and keeps connections open between requests, as real receivers do. Closing it ends
the hung and endless answers under way.
"""

from __future__ import annotations

import socket
import ssl
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

from standardwebhooks import Webhook

__all__ = ["Received", "Receiver", "closed_port", "self_signed_tls"]

#: The longest a hung answer waits (closing the receiver ends it sooner).
HANG_SECONDS = 30.0
#: What an endless body is sent in.
_CHUNK = b"x" * 65536
#: How often a trickling body sends a byte.
_TRICKLE_SECONDS = 0.1
#: The longest ``wait_for`` waits for requests: a thread's turn, not time passing.
_WAIT_SECONDS = 10.0

Behaviour = Literal["answer", "hang", "drop", "endless", "trickle"]


@dataclass(frozen=True)
class Received:
    """One request a receiver got: its method, path, headers (names lowercased) and body."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def verified(self, secret: str) -> Any:
        """The body as ``standardwebhooks`` reads it once it has verified the request with
        ``secret`` (its signature and its time, within 5 minutes of the real time);
        ``WebhookVerificationError`` otherwise."""
        return Webhook(secret).verify(self.body, self.headers)

    def signed_with(self, secret: str) -> bool:
        """Whether the signature is ``standardwebhooks``' own for ``secret`` over this id,
        timestamp and body, whenever it was made (``verified`` also wants it recent, which a
        request made at a clock moved days on is not)."""
        stamp = datetime.fromtimestamp(int(self.headers["webhook-timestamp"]), tz=UTC)
        expected = Webhook(secret).sign(self.headers["webhook-id"], stamp, self.body.decode())
        return expected in self.headers["webhook-signature"].split(" ")


@dataclass(frozen=True)
class _Answer:
    behaviour: Behaviour = "answer"
    status: int = 204
    location: str | None = None
    delay: float = 0.0


class _Server(ThreadingHTTPServer):
    daemon_threads = True


class Receiver:
    """A webhook endpoint on 127.0.0.1 (a port of its own) at ``url``; ``received`` holds every
    request it got, in order; ``streamed`` the body bytes its endless answers sent."""

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self._lock = threading.Condition()
        self._received: list[Received] = []
        self._answer = _Answer()
        self._stopping = threading.Event()
        self.streamed = 0
        self._open = 0  # connections open now
        self._server = _Server(("127.0.0.1", 0), _handler(self))
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
        self.port: int = self._server.server_address[1]
        scheme = "https" if tls is not None else "http"
        self.url = f"{scheme}://127.0.0.1:{self.port}/hook"
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.02,), name="webhook-receiver", daemon=True
        )
        self._thread.start()

    # -- what it does --------------------------------------------------------------------

    def answer(self, status: int, *, location: str | None = None) -> None:
        """Answer ``status`` (with an empty body, and ``Location`` when given)."""
        self._set(_Answer(status=status, location=location))

    def hang(self) -> None:
        """Never answer (until the receiver closes)."""
        self._set(_Answer("hang"))

    def drop(self) -> None:
        """Close the connection without answering."""
        self._set(_Answer("drop"))

    def slow(self, seconds: float) -> None:
        """Answer 204 after ``seconds``."""
        self._set(_Answer(delay=seconds))

    def endless(self) -> None:
        """Answer 200 and a body that never ends, sent as fast as it is read."""
        self._set(_Answer("endless", status=200))

    def trickle(self) -> None:
        """Answer 200 at once, then a body that never ends, a byte every 0.1 s."""
        self._set(_Answer("trickle", status=200))

    def _set(self, answer: _Answer) -> None:
        with self._lock:
            self._answer = answer

    # -- what it got ---------------------------------------------------------------------

    @property
    def received(self) -> list[Received]:
        """Every request so far, in the order they came."""
        with self._lock:
            return list(self._received)

    def wait_for(self, count: int) -> list[Received]:
        """The requests once there are at least ``count`` (10 s of real time at most: the
        turn of the thread that sends them, not time passing)."""
        with self._lock:
            self._lock.wait_for(lambda: len(self._received) >= count, _WAIT_SECONDS)
            return list(self._received)

    @property
    def connections(self) -> int:
        """How many connections to it are open now."""
        with self._lock:
            return self._open

    def wait_closed(self) -> bool:
        """Whether every connection to it is closed, by its client, within 10 s of real time
        (it closes none itself in that time, unless told to drop one)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._open == 0, _WAIT_SECONDS)

    def _connected(self, change: int) -> None:
        with self._lock:
            self._open += change
            self._lock.notify_all()

    def _record(self, request: Received) -> _Answer:
        with self._lock:
            self._received.append(request)
            self._lock.notify_all()
            return self._answer

    # -- its life ------------------------------------------------------------------------

    def close(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    def __enter__(self) -> Receiver:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    """The request handler of ``receiver``'s server."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = HANG_SECONDS  # an idle kept connection, at most

        def setup(self) -> None:
            super().setup()
            receiver._connected(+1)

        def finish(self) -> None:
            try:
                super().finish()
            finally:
                receiver._connected(-1)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = Received(
                method=self.command,
                path=self.path,
                headers={name.lower(): value for name, value in self.headers.items()},
                body=self.rfile.read(length),
            )
            answer = receiver._record(request)
            if answer.behaviour == "drop":
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
            elif answer.behaviour == "hang":
                self.close_connection = True
                receiver._stopping.wait(HANG_SECONDS)
            elif answer.behaviour in ("endless", "trickle"):
                self.close_connection = True
                self.send_response(answer.status)
                self.send_header("Connection", "close")
                self.end_headers()
                self._never_ending(answer.behaviour == "trickle")
            elif answer.delay and receiver._stopping.wait(answer.delay):
                self.close_connection = True
            else:
                self.send_response(answer.status)
                if answer.location is not None:
                    self.send_header("Location", answer.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

        do_GET = do_PUT = do_DELETE = do_PATCH = do_POST

        def _never_ending(self, trickle: bool) -> None:
            """A body until the client closes the connection or the receiver closes."""
            chunk = b"x" if trickle else _CHUNK
            while not receiver._stopping.is_set():
                try:
                    self.wfile.write(chunk)
                except OSError:  # the client stopped reading and closed
                    return
                with receiver._lock:
                    receiver.streamed += len(chunk)
                if trickle:
                    receiver._stopping.wait(_TRICKLE_SECONDS)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


def closed_port() -> int:
    """A port of 127.0.0.1 where nothing listens: a connection to it is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def self_signed_tls(folder: Path, host: str) -> ssl.SSLContext:
    """A server TLS context with a certificate for ``host`` that nobody vouches for (signed by
    its own key), its files kept in ``folder``."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "receiver.crt", folder / "receiver.key"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)
    return context
