"""The bindings only convert (STYLE, "the web layer is a translation"): the HTTP suite runs once,
through ``HttpApp`` (``AppClient``), and this module shows that the ASGI binding (through
``httpx.ASGITransport``) and the WSGI binding (through ``wsgiref.validate``) stand for it.

A representative set of requests (every route's valid request, and one of each transport
feature: query strings, bodies of each media type, percent-encoded and broken paths, HEAD, 304,
301, 405, an error, the web host, a body at the limit, a mount prefix) goes through each binding;
``HttpApp`` must be handed the ``HttpRequest`` that ``AppClient`` builds of it, and the client
must get back the ``HttpResponse`` that ``HttpApp`` answered, status, headers and body. Then what
only a binding does: stop reading a body past the limit, the ASGI lifespan protocol, and the
ASGI worker threads.
"""

from __future__ import annotations

import asyncio
import gzip
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlencode
from wsgiref.validate import validator

import httpx
import orjson
import pytest
from werkzeug.test import Client as WerkzeugClient

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI
from storycore.contrib.wsgi import StorycoreWSGI
from storycore.http import HttpApp, HttpRequest, HttpResponse
from storycore.http.api import ROUTES
from storycore.testing.client import asgi_client
from tests.conftest import TEST_SETTINGS
from tests.http._clients import (
    BINDINGS,
    FORM,
    JSON,
    Answer,
    AppClient,
    Body,
    Client,
    form_fields,
    from_httpx,
    joined_headers,
)
from tests.http._shapes import content_of, error_of
from tests.http.conftest import PREFIX, World
from tests.http.test_endpoints import DELEGATION, VALID_REQUESTS

CREATE = "/v1/stories/alice/create"
OPEN = "/v1/stories/alice/open"


@dataclass(frozen=True)
class Sent:
    """One request of the representative set, and the status it is meant to get."""

    status: int
    method: str
    path: str
    params: dict[str, Any] | str = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    content_type: str | None = None
    prefix: str = ""


def _valid_request(world: World, method: str, template: str) -> Sent:
    """The valid request of ``test_endpoints`` for a route, as sent there."""
    path, params, username = VALID_REQUESTS[method, template]
    path = world.at(path)
    keys = {"api_key": world.partner_key if "delegated" in path else world.api_key}
    values = {**keys, **params, **world.credentials(username)}
    if method == "GET":
        return Sent(200, method, path, values)
    return Sent(200, method, path, headers=DELEGATION, body=orjson.dumps(values), content_type=JSON)


def _form(values: dict[str, Any]) -> bytes:
    return urlencode(form_fields(values)).encode()


def _at_the_limit(world: World) -> bytes:
    body = orjson.dumps({**world.credentials("alice"), "story": {"title": "Just fits"}})
    return body + b" " * (world.service.settings.limits.request_body - len(body))


def _conditional(world: World) -> Sent:
    """A read with the story's current ETag."""
    etag = AppClient(world.service).get(OPEN).headers["etag"]
    return Sent(304, "GET", OPEN, headers={"If-None-Match": etag})


def _shortlink(world: World) -> Sent:
    """A shortlink: a redirect to the story's permalink."""
    sid = content_of(AppClient(world.service).get(OPEN))["id"]
    return Sent(301, "GET", f"/s/{sid}")


def _moved(world: World, prefix: str) -> Sent:
    """A read of a story by the slug it had before an editslug."""
    AppClient(world.service).post_form(
        f"{OPEN}/editslug", {**world.credentials("alice"), "slug": "quay"}
    )
    return Sent(301, "GET", OPEN, prefix=prefix)


# name -> the request, made for the world
TRANSPORT: dict[str, Callable[[World], Sent]] = {
    "query-parameters": lambda w: Sent(200, "GET", "/v1/stories", {"per_page": 1, "page": 2}),
    "query-credentials": lambda w: Sent(
        200, "GET", "/v1/stories/alice", {"filter": "working,published", **w.credentials("alice")}
    ),
    "query-utf8": lambda w: Sent(200, "GET", "/v1/stories/search", "q=caf%C3%A9+harbour"),
    "query-not-utf8": lambda w: Sent(400, "GET", "/v1/stories/search", "q=%FF%FE"),
    "path-utf8": lambda w: Sent(200, "GET", "/v1/stories/browse/topic/%C3%A9t%C3%A9"),
    "path-not-utf8": lambda w: Sent(404, "GET", "/v1/users/%FF%FE"),
    "path-web-host-with-referer": lambda w: Sent(
        200, "GET", "/alice/open.js", {"css": "https://a.example/s.css"}, {"Referer": "https://b"}
    ),
    "path-permalink-page": lambda w: Sent(200, "GET", "/alice/open"),
    "path-unknown": lambda w: Sent(404, "GET", "/v1/nothing"),
    "path-openapi": lambda w: Sent(200, "GET", "/v1/openapi.json"),
    "method-head": lambda w: Sent(200, "HEAD", OPEN),
    "method-not-allowed": lambda w: Sent(405, "DELETE", "/v1/stories"),
    "conditional-304": _conditional,
    "shortlink-301": _shortlink,
    "body-form": lambda w: Sent(
        200,
        "POST",
        CREATE,
        body=_form({**w.credentials("alice"), "story": {"title": "From a form"}}),
        content_type=FORM,
    ),
    "body-form-charset": lambda w: Sent(
        200,
        "POST",
        CREATE,
        body=_form({**w.credentials("alice"), "story": {"title": "Été"}}),
        content_type=f"{FORM}; charset=utf-8",
    ),
    "body-json-with-query": lambda w: Sent(
        200,
        "POST",
        CREATE,
        w.credentials("alice"),
        body=b'{"story": {"title": "From JSON"}}',
        content_type="application/json; charset=utf-8",
    ),
    "body-not-utf8": lambda w: Sent(
        400, "POST", CREATE, w.credentials("alice"), body=b"\xff\xfe", content_type=JSON
    ),
    "body-at-the-limit": lambda w: Sent(
        200, "POST", CREATE, body=_at_the_limit(w), content_type=JSON
    ),
    "error-401": lambda w: Sent(
        401, "POST", "/v1/auth", {"api_key": w.api_key, "username": "alice", "password": "no"}
    ),
    "mounted-links": lambda w: Sent(200, "GET", "/v1/stories", {"per_page": 1}, prefix=PREFIX),
    "moved-301": lambda w: _moved(w, prefix=""),
    "mounted-moved-301": lambda w: _moved(w, prefix=PREFIX),
    "mounted-openapi": lambda w: Sent(200, "GET", "/v1/openapi.json", prefix=PREFIX),
    "mounted-create": lambda w: Sent(
        200,
        "POST",
        CREATE,
        body=orjson.dumps({**w.credentials("alice"), "story": {"title": "Mounted"}}),
        content_type=JSON,
        prefix=PREFIX,
    ),
}
SENT: dict[str, Callable[[World], Sent]] = {
    **{
        f"{route.method} {route.template}": partial(
            _valid_request, method=route.method, template=route.template
        )
        for route in ROUTES
    },
    **TRANSPORT,
}


@dataclass
class Exchanges:
    """Every request ``HttpApp`` handled, with its response as it left ``HttpApp``."""

    seen: list[tuple[HttpRequest, HttpResponse]] = field(default_factory=list)


@pytest.fixture
def exchanges(monkeypatch: pytest.MonkeyPatch) -> Exchanges:
    recorded = Exchanges()
    handle = HttpApp.handle

    def recording(app: HttpApp, request: HttpRequest) -> HttpResponse:
        response = handle(app, request)
        recorded.seen.append(
            (request, HttpResponse(response.status, list(response.headers), response.body))
        )
        return response

    monkeypatch.setattr(HttpApp, "handle", recording)
    return recorded


@pytest.fixture(params=sorted(BINDINGS))
def binding_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("name", SENT)
def test_a_binding_hands_httpapp_the_request_and_sends_back_its_response(
    binding_name: str, world: World, exchanges: Exchanges, name: str
) -> None:
    sent = SENT[name](world)
    client = BINDINGS[binding_name](world.service, sent.prefix)
    prepared = client.prepare(
        sent.method,
        sent.path,
        params=sent.params,
        headers=sent.headers,
        body=sent.body,
        content_type=sent.content_type,
    )
    exchanges.seen.clear()
    try:
        answer = client.send(prepared)
    finally:
        client.close()
    [(handed, response)] = exchanges.seen
    expected = AppClient(world.service, sent.prefix).http_request(*prepared)
    assert (handed.method, handed.path, handed.query_string, handed.root_path) == (
        expected.method,
        expected.path,
        expected.query_string,
        expected.root_path,
    )
    assert handed.body == expected.body
    assert set(expected.headers) <= set(handed.headers)
    assert answer.status == response.status == sent.status, answer.body[:300]
    assert answer.headers == joined_headers(response.headers)
    assert answer.body == response.body


# -- what only a binding does ----------------------------------------------------------------


class CountedChunks:
    """A request body sent in chunks, counting how much of it the server took."""

    def __init__(self, size: int, chunk: int = 64 * 1024) -> None:
        self.size = size
        self.chunk = chunk
        self.taken = 0

    def __iter__(self) -> Iterator[bytes]:
        sent = 0
        while sent < self.size:
            piece = b" " * min(self.chunk, self.size - sent)
            sent += len(piece)
            self.taken = sent
            yield piece


def test_a_body_declared_over_the_limit_is_413_before_it_is_read(
    binding: Client, world: World
) -> None:
    limit = world.service.settings.limits.request_body
    body: Body = CountedChunks(limit * 4)
    answer = binding.request(
        "POST",
        CREATE,
        headers={"Content-Length": str(limit * 4)},
        body=body,
        content_type=JSON,
    )
    assert (answer.status, error_of(answer)["type"]) == (413, "payload_too_large")
    assert isinstance(body, CountedChunks)
    assert body.taken <= limit


def test_the_asgi_app_built_to_compress_sends_gzip(world: World) -> None:
    with asgi_client(StorycoreASGI(world.service, compress=True)) as client:
        answer = client.get("/v1/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert answer.headers["content-encoding"] == "gzip"
    assert answer.json()["openapi"].startswith("3.")  # httpx decoded it


def test_the_wsgi_app_built_to_compress_sends_gzip(world: World) -> None:
    client = WerkzeugClient(validator(StorycoreWSGI(world.service, compress=True)))
    answer = client.get("/v1/openapi.json", headers={"Accept-Encoding": "gzip"}, buffered=True)
    try:
        assert answer.headers["Content-Encoding"] == "gzip"
        assert orjson.loads(gzip.decompress(answer.data))["openapi"].startswith("3.")
    finally:
        answer.close()


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


def test_the_asgi_app_writes_the_views_it_counted_when_the_lifespan_shuts_down(
    world: World,
) -> None:
    """A server stopped by a signal may end the process right after the lifespan's shutdown,
    before anything closes the service: the counts of the last second are written then."""
    (slug,) = world.publish("Counted at shutdown")
    app = StorycoreASGI(world.service)
    incoming = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]

    async def receive() -> dict[str, Any]:
        if incoming[0]["type"] == "lifespan.shutdown":
            world.service.stories.open("alice", slug)  # counted, not yet written
        return incoming.pop(0)

    async def send(message: Any) -> None:
        pass

    asyncio.run(app({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send))
    store = world.service.store
    alice = store.users.get_by_username("alice")
    assert alice is not None
    assert store.stories.get_by_slug(alice.id, slug).views == 1  # type: ignore[union-attr]


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


def test_a_request_waiting_on_another_host_holds_up_no_storage_request(world: World) -> None:
    """docs/decisions.md#serving: while a delegated creation waits on its identity provider, a read
    on a store that answers one call at a time (``memory://``) is answered at once."""
    assert world.service.store.parallel_calls == 1
    asked, released = threading.Event(), threading.Event()
    answer = world.provider.answer

    def slow_provider(*args: Any, **kwargs: Any) -> Any:
        asked.set()
        released.wait(timeout=5)
        return answer

    world.provider.get = slow_provider  # type: ignore[method-assign]

    async def both() -> tuple[httpx.Response, bool, httpx.Response]:
        transport = httpx.ASGITransport(app=StorycoreASGI(world.service))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            body = {"api_key": world.partner_key, "story": {"title": "Slow provider"}}
            create = asyncio.ensure_future(
                client.post("/v1/delegated/create", json=body, headers=DELEGATION)
            )
            assert await asyncio.to_thread(asked.wait, 5)  # the creation waits on the provider
            read = await client.get("/v1/stories/browse/latest")
            waiting = not create.done()
            released.set()
            return read, waiting, await create

    read, waiting, created = asyncio.run(both())
    assert (read.status_code, waiting) == (200, True)  # answered while the creation waits
    assert created.status_code == 200


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
    assert world.service.store.parallel_calls == 1  # the reference store: one call at a time
    assert len(_threads_answering(StorycoreASGI(world.service), 6)) == 1


def test_the_asgi_app_may_be_given_more_threads(world: World) -> None:
    assert len(_threads_answering(StorycoreASGI(world.service, threads=3), 6)) == 3


@pytest.fixture
def on_file(tmp_path: Path) -> Iterator[tuple[Service, dict[str, str], Path]]:
    """A service on a SQLite file (whose reads never wait), alice's credentials and the file."""
    path = tmp_path / "stories.db"
    with Service(open_store(f"sqlite:///{path}"), TEST_SETTINGS) as service:
        service.accounts.create_user("alice", "alice-password")
        api_key = service.accounts.create_app("tests").api_key
        token = service.accounts.authenticate(api_key, "alice", "alice-password").token
        yield service, {"api_key": api_key, "username": "alice", "_token": token}, path


def test_the_asgi_app_answers_reads_of_a_store_whose_reads_never_wait_where_they_arrive(
    on_file: tuple[Service, dict[str, str], Path],
) -> None:
    service = on_file[0]
    assert service.store.reads_never_wait
    answered_in = _threads_answering(StorycoreASGI(service, threads=3), 4)
    assert answered_in == {threading.current_thread().name}  # the event loop's: no hand-off


def test_a_read_of_a_sqlite_file_is_answered_while_a_write_waits_for_the_lock(
    on_file: tuple[Service, dict[str, str], Path],
) -> None:
    """Reads are WAL snapshots: one the event loop answers never queues behind a write,
    even when the app's one thread holds a create that waits for another writer."""
    service, credentials, path = on_file
    other_writer = sqlite3.connect(path, isolation_level=None)
    other_writer.execute("BEGIN IMMEDIATE")  # holds SQLite's write lock

    async def both() -> tuple[httpx.Response, bool, httpx.Response]:
        transport = httpx.ASGITransport(app=StorycoreASGI(service, threads=1))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            body = {**credentials, "story": {"title": "Waiting"}}
            create = asyncio.ensure_future(client.post(CREATE, json=body))
            await asyncio.sleep(0.2)  # the creation now waits for the lock, in the one thread
            read = await client.get("/v1/stories/browse/latest")
            waiting = not create.done()
            other_writer.execute("ROLLBACK")
            return read, waiting, await create

    read, waiting, created = asyncio.run(both())
    other_writer.close()
    assert (read.status_code, waiting) == (200, True)  # answered while the creation waits
    assert created.status_code == 200
