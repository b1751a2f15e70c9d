"""What only one binding has: the ASGI lifespan protocol and chunked ASGI bodies (WSGI has
neither). Everything else is tested once for both bindings, through the ``client`` fixture.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx

from storycore.contrib.asgi import StorycoreASGI

from ._clients import Answer, from_httpx
from ._shapes import error_of
from .conftest import World


def test_the_asgi_app_completes_lifespan_startup_and_shutdown(world: World) -> None:
    app = StorycoreASGI(world.service)
    incoming = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0)

    async def send(message: Any) -> None:
        sent.append(dict(message))

    asyncio.run(app({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send))
    assert sent == [
        {"type": "lifespan.startup.complete"},
        {"type": "lifespan.shutdown.complete"},
    ]


def test_the_asgi_app_stops_reading_a_chunked_body_past_the_limit(world: World) -> None:
    limit = world.service.settings.limits.request_body
    chunk = 64 * 1024
    taken = 0

    async def body() -> AsyncIterator[bytes]:
        nonlocal taken
        for _ in range(4 * limit // chunk):
            taken += chunk
            yield b" " * chunk

    async def post() -> Answer:
        transport = httpx.ASGITransport(app=StorycoreASGI(world.service))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            response = await client.post(
                "/v1/stories/alice/create",
                content=body(),
                headers={"Content-Type": "application/json"},
            )
        return from_httpx(response)

    answer = asyncio.run(post())
    assert (answer.status, error_of(answer)["type"]) == (413, "payload_too_large")
    assert taken <= limit + chunk


def _threads_answering(app: StorycoreASGI, count: int) -> set[str]:
    """The names of the threads that answered ``count`` requests sent all at once."""
    names: set[str] = set()
    handle = app.app.handle

    def recording(request: Any) -> Any:
        names.add(threading.current_thread().name)
        time.sleep(0.01)  # long enough for the requests to overlap
        return handle(request)

    app.app.handle = recording  # type: ignore[method-assign]

    async def send_all() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            await asyncio.gather(*(client.get("/v1/stories/browse/latest") for _ in range(count)))

    asyncio.run(send_all())
    return names


def test_the_asgi_app_answers_in_as_many_threads_as_the_store_can_use(world: World) -> None:
    assert world.service.store.parallel_calls == 1  # SQLite: one connection
    assert len(_threads_answering(StorycoreASGI(world.service), 6)) == 1


def test_the_asgi_app_may_be_given_more_threads(world: World) -> None:
    assert len(_threads_answering(StorycoreASGI(world.service, threads=3), 6)) == 3
