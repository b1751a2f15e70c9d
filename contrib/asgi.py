"""An ASGI 3 application for storycore (http and lifespan scopes).

Mount it under a prefix in Starlette, FastAPI or a Django ASGI application: it honours
``root_path``. It converts messages and nothing else; every rule lives in
``storycore.http.HttpApp``. Reads (GET, HEAD) of a store whose reads never wait
(``Store.reads_never_wait``: a SQLite file) are answered on the event loop: a hand-off to a
thread and back cost more than the read. Other requests are answered in worker threads of the
application's own, as storage calls block: as many as the store can use at once
(``Store.parallel_calls``). A request that may wait on another host (a delegated creation asks
its identity provider) is answered on threads of its own, so no storage request waits behind
it (docs/decisions.md#serving).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from storycore.http import HttpApp, HttpRequest, HttpResponse, raw_path_of
from storycore.http.editor import EditorUser
from storycore.service import Service

__all__ = ["EDITOR_VARIABLE", "StorycoreASGI", "editor_wanted", "from_environment"]

#: Off (``off``, ``0``, ``false``, ``no``), the app serves no editor (docs/editor.md).
EDITOR_VARIABLE = "STORYCORE_EDITOR"

#: Requests waiting on other hosts at once (delegated creations are rate-limited per app).
_OUTBOUND_THREADS = 8
#: The methods that only read: HttpApp answers them without a storage write.
_READS = frozenset({"GET", "HEAD"})
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class StorycoreASGI:
    """``StorycoreASGI(service)``: the HTTP API as an ASGI application.

    ``threads`` sets how many requests are answered at once (default: the store's
    ``parallel_calls``). ``owns_service``: the lifespan's shutdown closes the service (the
    app's server is what the service lives for); else it writes the counted views only, and
    the host closes the service. ``compress``: text answers over 1 KiB go gzipped to clients
    that accept it (docs/api.md#caching-and-compression); leave it off where the host application or
    a proxy
    compresses already. ``schedule``: the lifespan's startup starts the service's scheduler,
    which publishes scheduled stories when they are due (docs/api.md#scheduled-publishing); turn it
    off
    where the host runs ``service.scheduler`` or ``storycore publish-due`` itself.
    ``deliver``: the startup also starts the service's deliverer, which sends events to
    webhooks (docs/webhooks.md), and its keeper, which keeps the pictures stories show
    (docs/media.md#how-pictures-are-kept), each in a thread of its own, never in the request
    workers.
    ``editor``: serve the editor's pages (docs/editor.md); ``editor_user``: the host
    application's own sign-in, naming the user of a request (then no sign-in form is shown).
    """

    def __init__(
        self,
        service: Service | HttpApp,
        *,
        threads: int | None = None,
        owns_service: bool = False,
        compress: bool = False,
        schedule: bool = True,
        deliver: bool = True,
        editor: bool = True,
        editor_user: EditorUser | None = None,
    ) -> None:
        self.app = (
            service
            if isinstance(service, HttpApp)
            else HttpApp(service, compress=compress, editor=editor, editor_user=editor_user)
        )
        self._owns_service = owns_service
        self._schedule = schedule
        self._deliver = deliver
        self._workers = ThreadPoolExecutor(
            threads or self.app.service.store.parallel_calls, thread_name_prefix="storycore"
        )
        #: Requests that may wait on another host (``HttpApp.calls_out``), apart from the
        #: storage requests' threads, so that none of those waits behind them.
        self._outbound = ThreadPoolExecutor(_OUTBOUND_THREADS, thread_name_prefix="storycore-out")
        self._reads_here = self.app.service.store.reads_never_wait

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        """Startup starts publishing scheduled stories when they are due
        (docs/api.md#scheduled-publishing: every process that serves the store does, unless
        ``schedule`` is off); shutdown
        stops that and writes the views counted so far (docs/decisions.md#serving), as a server
        stopped by a signal may end the process before the host closes the service, and closes
        a service the app owns."""
        service = self.app.service
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if self._schedule:
                    service.scheduler.start()
                if self._deliver:
                    service.deliverer.start()
                    service.keeper.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                end = service.close if self._owns_service else self._stop
                await asyncio.get_running_loop().run_in_executor(self._workers, end)
                await send({"type": "lifespan.shutdown.complete"})
                return

    def _stop(self) -> None:
        """What shutdown does to a service the host owns: no more scheduled publishing from
        this app, and the views counted so far written."""
        service = self.app.service
        if self._schedule:
            service.scheduler.close()
        if self._deliver:
            service.deliverer.close()
            service.keeper.close()
        service.flush_views()

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in scope["headers"]]
        body = await self._body(headers, receive)
        if body is None:
            await self._send(send, self.app.too_large())
            return
        root_path: str = scope.get("root_path", "")
        path: str = scope["path"]
        if root_path and path.startswith(root_path):
            path = path[len(root_path) :]
        path = path or "/"
        raw: bytes | None = scope.get("raw_path")
        request = HttpRequest(
            method=scope["method"],
            path=path,
            query_string=scope.get("query_string", b""),
            headers=headers,
            body=body,
            root_path=root_path,
            scheme=scope.get("scheme", "http"),
            raw_path=None if raw is None else raw_path_of(raw.decode("utf-8", "replace"), path),
            client=_client(scope),
        )
        if self.app.calls_out(request.method, path):
            response = await self._in(self._outbound, request)
        elif self._reads_here and request.method in _READS:
            response = self.app.handle(request)
        else:
            response = await self._in(self._workers, request)
        await self._send(send, response)

    async def _in(self, pool: ThreadPoolExecutor, request: HttpRequest) -> HttpResponse:
        return await asyncio.get_running_loop().run_in_executor(pool, self.app.handle, request)

    async def _body(self, headers: list[tuple[str, str]], receive: Receive) -> bytes | None:
        """The request body, or None as soon as it is known to be over the limit."""
        limit = self.app.body_limit
        declared = dict(headers).get("content-length", "")
        # isdigit alone also takes "²", which int() refuses
        if declared.isascii() and declared.isdigit() and int(declared) > limit:
            return None
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return bytes(body)
            body += message.get("body", b"")
            if len(body) > limit:
                return None
            if not message.get("more_body", False):
                return bytes(body)

    @staticmethod
    async def _send(send: Send, response: HttpResponse) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": response.status,
                "headers": [
                    (name.lower().encode("latin-1"), value.encode("latin-1"))
                    for name, value in response.headers
                ],
            }
        )
        await send({"type": "http.response.body", "body": response.body})


def from_environment(*, deliver: bool = True, up_to_date: bool = True) -> StorycoreASGI:
    """The app for any ASGI server, on the service the environment describes
    (``STORYCORE_DB`` and the other ``STORYCORE_*`` of ``storycore.contrib.compose``), which the
    app closes when its lifespan shuts down. It serves on its own, so it compresses, as
    ``storycore serve`` does, and it keeps secrets out of uvicorn's log as ``serve`` does
    (``storycore.rules.redaction``; uvicorn has set up its logging when it calls the factory)::

        STORYCORE_DB=sqlite:///stories.db \\
            uvicorn --factory storycore.contrib.asgi:from_environment --workers 2

    Each process brings the store up to date as it composes its service (one read when it is
    current); ``storycore serve`` does it once before its workers start and turns
    ``up_to_date`` off in them (``storycore.contrib.compose``). ``STORYCORE_EDITOR=off``
    serves no editor (``editor_wanted``).
    """
    from ._logs import redact_uvicorn_logs
    from .compose import from_environment as service_from_environment

    redact_uvicorn_logs()
    return StorycoreASGI(
        service_from_environment(up_to_date=up_to_date),
        owns_service=True,
        compress=True,
        deliver=deliver,
        editor=editor_wanted(),
    )


def editor_wanted(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the editor is served: unless ``STORYCORE_EDITOR`` is ``off`` (or ``0``,
    ``false``, ``no``), which ``storycore serve --no-editor`` sets for its workers."""
    return environ.get(EDITOR_VARIABLE, "").strip().lower() not in ("off", "0", "false", "no")


def _client(scope: Scope) -> str | None:
    """The client's address in ``scope``, when the server gives one."""
    client = scope.get("client")
    return str(client[0]) if client else None
