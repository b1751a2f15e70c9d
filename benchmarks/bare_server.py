"""The HTTP floor: a bare ASGI app that answers recorded bytes from memory, under uvicorn.

It runs with the same server, socket and settings as ``storycore serve``, so the only difference
measured is storycore's work per request.

    python -m benchmarks.bare_server ANSWERS.json
"""

from __future__ import annotations

import base64
import json
import socket
import sys
from typing import Any

import uvicorn

from storycore.contrib.listen import listening_socket

Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


def bare_app(answers: dict[str, Answer]) -> Any:
    """An ASGI app answering each recorded path with its recorded status, headers and body."""
    missing: Answer = (404, [(b"content-type", b"text/plain")], b"not recorded")

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        status, headers, body = answers.get(scope["path"], missing)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return app


def _load(path: str) -> dict[str, Answer]:
    with open(path, encoding="utf-8") as file:
        raw = json.load(file)
    return {
        key: (
            status,
            [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers],
            base64.b64decode(body),
        )
        for key, (status, headers, body) in raw.items()
    }


def main() -> None:
    sock = listening_socket("127.0.0.1", 0)
    address = f"http://127.0.0.1:{sock.getsockname()[1]}"

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:
                print(f"listening on {address}", flush=True)

    config = uvicorn.Config(bare_app(_load(sys.argv[1])), log_level="warning", lifespan="on")
    Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
