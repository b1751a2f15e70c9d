"""A webhook receiver that answers ``204`` at once and counts what it receives, for
``benchmarks.events``.

    python -m benchmarks.receiver          # prints "listening on http://127.0.0.1:PORT"

The fastest receiver we could write in Python: asyncio on uvloop, each connection parsed by
httptools (what uvicorn runs underneath, without its ASGI layer), no framework. Every ``POST``
is a delivery: counted, with the time it was complete (``time.monotonic``, the system's
monotonic clock, which other processes on the machine read alike) and its ``webhook-id``
(distinct ids tell a delivery made twice); so are the connections opened. It verifies no
signature: a receiver that did would measure itself. ``GET /count`` answers the counts as
JSON; ``POST /reset`` forgets them (not counted); any other ``GET`` answers 204 (for wrk: what
the receiver answers at most).
"""

from __future__ import annotations

import asyncio
import socket
import time
from typing import cast

import httptools
import orjson
import uvloop

__all__ = ["Counts", "main"]

_NO_CONTENT = b"HTTP/1.1 204 No Content\r\n\r\n"
_BAD = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


class Counts:
    """The deliveries received since the last reset."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.received = 0
        self.first: float | None = None
        self.last: float | None = None
        self.ids: set[bytes] = set()
        self.connections = 0

    def add(self, webhook_id: bytes | None) -> None:
        now = time.monotonic()
        if self.first is None:
            self.first = now
        self.last = now
        self.received += 1
        if webhook_id is not None:
            self.ids.add(webhook_id)

    def json(self) -> bytes:
        return orjson.dumps(
            {
                "received": self.received,
                "distinct": len(self.ids),
                "first": self.first,
                "last": self.last,
                "connections": self.connections,
            }
        )


class _Connection(asyncio.Protocol):
    """One keep-alive connection: each request answered when its body is complete."""

    def __init__(self, counts: Counts) -> None:
        self._counts = counts
        self._parser = httptools.HttpRequestParser(self)
        self._transport: asyncio.Transport | None = None
        self._url = b""
        self._webhook_id: bytes | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self._counts.connections += 1
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data: bytes) -> None:
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserError:
            assert self._transport is not None
            self._transport.write(_BAD)
            self._transport.close()

    # httptools' callbacks

    def on_message_begin(self) -> None:
        self._url = b""
        self._webhook_id = None

    def on_url(self, url: bytes) -> None:
        self._url += url

    def on_header(self, name: bytes, value: bytes) -> None:
        if name.lower() == b"webhook-id":
            self._webhook_id = value

    def on_message_complete(self) -> None:
        assert self._transport is not None
        method = self._parser.get_method()
        if method == b"GET" and self._url == b"/count":
            body = self._counts.json()
            head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
            self._transport.write(head + str(len(body)).encode() + b"\r\n\r\n" + body)
            return
        if method == b"POST" and self._url == b"/reset":
            self._counts.reset()
        elif method == b"POST":
            self._counts.add(self._webhook_id)
        self._transport.write(_NO_CONTENT)


async def _serve() -> None:
    counts = Counts()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: _Connection(counts), sock=sock, backlog=1024)
    print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


def main() -> None:
    uvloop.run(_serve())


if __name__ == "__main__":
    main()
