"""A synchronous ``httpx.Client`` over an ASGI application, in process.

httpx's ``ASGITransport`` is asynchronous only; ``SyncASGITransport`` runs it on an event loop
of its own, so plain (synchronous) tests can call an ASGI application, storycore's own
``StorycoreASGI`` or a host application with storycore mounted in it::

    with asgi_client(StorycoreASGI(service)) as client:
        assert client.get("/v1/stories").json()["code"] == 200

In an ``async`` test, use ``httpx.AsyncClient(transport=httpx.ASGITransport(app))`` instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from typing import Any

from storycore.extras import imported_from

with imported_from("testing"):
    import httpx

__all__ = ["ASGIApp", "SyncASGITransport", "asgi_client"]

ASGIApp = Callable[
    [
        MutableMapping[str, Any],
        Callable[[], Awaitable[MutableMapping[str, Any]]],
        Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ],
    Awaitable[None],
]
"""An ASGI 3 application."""


class _AsyncChunks(httpx.AsyncByteStream):
    """A synchronous request body, handed to the application chunk by chunk as it comes."""

    def __init__(self, stream: httpx.SyncByteStream) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self._stream:
            yield chunk


class SyncASGITransport(httpx.BaseTransport):
    """Sends each request to ``app`` through ``httpx.ASGITransport``, on a private event loop.

    ``root_path`` is the mount point the application is told about (ASGI ``root_path``);
    ``client`` the (host, port) it sees as the caller. A body sent as an iterable (``content=``
    a generator) reaches the application chunk by chunk; the response is read whole.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        root_path: str = "",
        client: tuple[str, int] = ("127.0.0.1", 123),
    ) -> None:
        self._transport = httpx.ASGITransport(app=app, root_path=root_path, client=client)
        self._loop = asyncio.new_event_loop()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not isinstance(request.stream, httpx.AsyncByteStream):  # an iterable ``content``
            request = httpx.Request(
                request.method,
                request.url,
                headers=request.headers,
                stream=_AsyncChunks(request.stream),
                extensions=request.extensions,
            )
        return self._loop.run_until_complete(self._send(request))

    async def _send(self, request: httpx.Request) -> httpx.Response:
        response = await self._transport.handle_async_request(request)
        raw = [chunk async for chunk in response.aiter_raw()]
        await response.aclose()
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=httpx.ByteStream(b"".join(raw)),
            extensions=response.extensions,
        )

    def close(self) -> None:
        if self._loop.is_closed():
            return
        self._loop.run_until_complete(self._transport.aclose())
        self._loop.run_until_complete(self._loop.shutdown_default_executor())
        self._loop.close()


def asgi_client(
    app: ASGIApp,
    *,
    base_url: str = "http://testserver",
    root_path: str = "",
    follow_redirects: bool = False,
) -> httpx.Client:
    """An ``httpx.Client`` whose requests go to ``app`` in process; close it (or use ``with``)."""
    return httpx.Client(
        transport=SyncASGITransport(app, root_path=root_path),
        base_url=base_url,
        follow_redirects=follow_redirects,
    )
