"""A page on another origin calls the API with ``fetch`` in a real browser
(docs/api.md#credentials).

The page is served from one loopback port and the API from another, so every call is
cross-origin: Chromium itself decides, from the API's CORS headers, what the page may send and
read. A bearer token or a JSON body makes it ask first with a preflight (``OPTIONS``), which the
server here records, to show the preflight was real. The tabs of this module intercept no
request: Playwright answers preflights itself for a context that routes requests, which would
hide the server's own answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.listen import listening_socket
from storycore.errors import NotFound
from tests._serve import in_thread
from tests.browser.conftest import HostPages

# Chromium and the servers start once, on one worker
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-cors")]

PASSWORD = "pages-password"
AUTHOR = "reader"
#: A page's script, and so each ``page.evaluate``, gives up after this.
CALL_TIMEOUT_MS = 10_000
ELSEWHERE = "http://elsewhere.example"

#: A user token from ``POST /v1/auth`` with a form body (a simple request: no preflight).
AUTHENTICATE = """async ({api, key, username, password}) => {
    const answer = await fetch(api + "/v1/auth", {
        method: "POST", body: new URLSearchParams({api_key: key, username, password}),
    });
    return (await answer.json()).content._token;
}"""


@dataclass
class Api:
    """storycore served by uvicorn in a thread, recording each request that reaches it."""

    service: Service
    base: str
    api_key: str
    seen: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)

    def preflights(self, path: str) -> list[dict[str, str]]:
        """The headers of each ``OPTIONS`` request for ``path`` (and query) the server got."""
        wanted = ("OPTIONS", path)
        return [headers for method, target, headers in self.seen if (method, target) == wanted]


class _Recording:
    """An ASGI app that notes (method, path and query, headers) of each request it passes on."""

    def __init__(self, app: Any, seen: list[tuple[str, str, dict[str, str]]]) -> None:
        self.app, self.seen = app, seen

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            query = scope["query_string"].decode()
            target = scope["path"] + (f"?{query}" if query else "")
            headers = {name.decode().lower(): value.decode() for name, value in scope["headers"]}
            self.seen.append((scope["method"], target, headers))
        await self.app(scope, receive, send)


@contextmanager
def _serving(folder: Path, origins: tuple[str, ...]) -> Iterator[Api]:
    """An API on a free loopback port allowing ``origins``, with the user ``reader``."""
    from storycore.contrib.asgi import StorycoreASGI

    sock = listening_socket("127.0.0.1", 0)
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    settings = Settings(web_url=base, password_cost=2**4, cors_origins=origins)
    service = Service(open_store(f"sqlite:///{folder / 'stories.db'}"), settings)
    service.accounts.create_user(AUTHOR, PASSWORD)
    api = Api(service, base, service.accounts.create_app("pages").api_key)
    try:
        with in_thread(_Recording(StorycoreASGI(service), api.seen), sock):
            yield api
    finally:
        service.close()


@pytest.fixture(scope="module")
def api(host_pages: HostPages, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """An API whose list of allowed origins holds the host pages' one (so it is echoed)."""
    with _serving(tmp_path_factory.mktemp("cors"), (ELSEWHERE, host_pages.base)) as served:
        writer = served.service.accounts.as_user(AUTHOR)
        for title in ("First draft", "Second draft"):
            served.service.stories.create(AUTHOR, {"title": title}, viewer=writer)
        yield served


@pytest.fixture(scope="module")
def any_origin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """An API with the default origins: any (``*``)."""
    with _serving(tmp_path_factory.mktemp("cors-any"), Settings().cors_origins) as served:
        yield served


@pytest.fixture(scope="module")
def closed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """An API that allows only an origin other than the host pages'."""
    with _serving(tmp_path_factory.mktemp("cors-closed"), (ELSEWHERE,)) as served:
        yield served


@pytest.fixture
def tab(browser: Any, host_pages: HostPages) -> Iterator[Any]:
    """A fresh tab showing a blank page of the host pages' origin (no request interception)."""
    context = browser.new_context()
    context.set_default_timeout(CALL_TIMEOUT_MS)
    page = context.new_page()
    page.goto(host_pages.put("/caller.html", "text/html; charset=utf-8", "<!doctype html><p>"))
    yield page
    context.close()


def _token(tab: Any, api: Api) -> str:
    """A token the page got for ``reader`` with ``fetch``."""
    args = {"api": api.base, "key": api.api_key, "username": AUTHOR, "password": PASSWORD}
    token = tab.evaluate(AUTHENTICATE, args)
    assert isinstance(token, str)
    assert token
    return token


def _get(tab: Any, url: str, token: str) -> dict[str, Any]:
    """Status, ``Link`` header and body the page read from a bearer ``GET`` of ``url``."""
    script = """async ({url, token}) => {
        const answer = await fetch(url, {headers: {Authorization: "Bearer " + token}});
        return {status: answer.status, link: answer.headers.get("Link"), body: await answer.json()};
    }"""
    answer: dict[str, Any] = tab.evaluate(script, {"url": url, "token": token})
    return answer


def test_a_page_on_another_origin_reads_the_working_stories_with_a_bearer_token(
    tab: Any, api: Api
) -> None:
    path = "/v1/stories/reader?filter=working&sort=title&order=asc"
    answer = _get(tab, api.base + path, _token(tab, api))
    assert answer["status"] == 200
    stories = answer["body"]["content"]["stories"]
    assert [(s["title"], s["status"]) for s in stories] == [
        ("First draft", "working"),
        ("Second draft", "working"),
    ]
    [preflight] = api.preflights(path)
    assert preflight["origin"] == tab.evaluate("location.origin")
    assert preflight["access-control-request-headers"] == "authorization"


def test_the_page_reads_the_link_header_of_a_list(tab: Any, api: Api) -> None:
    answer = _get(tab, api.base + "/v1/stories/reader?filter=working&per_page=1", _token(tab, api))
    assert answer["status"] == 200
    assert 'rel="next"' in (answer["link"] or "")


def test_the_page_creates_a_story_with_a_json_body(tab: Any, api: Api) -> None:
    script = """async ({api, token}) => {
        const answer = await fetch(api + "/v1/stories/reader/create", {
            method: "POST",
            headers: {Authorization: "Bearer " + token, "Content-Type": "application/json"},
            body: JSON.stringify({story: {title: "Made by a page", slug: "made-by-a-page"}}),
        });
        return {status: answer.status, body: await answer.json()};
    }"""
    answer = tab.evaluate(script, {"api": api.base, "token": _token(tab, api)})
    assert answer["status"] == 200, answer
    assert answer["body"]["content"]["slug"] == "made-by-a-page"
    writer = api.service.accounts.as_user(AUTHOR)
    assert api.service.stories.read(AUTHOR, "made-by-a-page", viewer=writer).title == (
        "Made by a page"
    )
    [preflight] = api.preflights("/v1/stories/reader/create")
    assert preflight["access-control-request-method"] == "POST"


def test_after_the_page_revokes_its_token_the_next_call_is_a_readable_401(
    tab: Any, api: Api
) -> None:
    token = _token(tab, api)
    script = """async ({api, token}) => {
        const answer = await fetch(api + "/v1/auth/revoke", {
            method: "POST", headers: {Authorization: "Bearer " + token},
        });
        return {status: answer.status, body: await answer.json()};
    }"""
    revoked = tab.evaluate(script, {"api": api.base, "token": token})
    assert (revoked["status"], revoked["body"]["content"]) == (200, {"revoked": True})
    refused = _get(tab, api.base + "/v1/stories/reader?filter=working", token)
    assert refused["status"] == 401
    assert refused["body"]["error"]["type"] == "unauthorized"


def test_a_server_allowing_any_origin_answers_the_page(tab: Any, any_origin: Api) -> None:
    answer = _get(tab, any_origin.base + "/v1/stories/reader", _token(tab, any_origin))
    assert answer["status"] == 200
    assert answer["body"]["content"]["stories"] == []


def test_a_server_allowing_another_origin_keeps_its_answer_from_the_page(
    tab: Any, closed: Api
) -> None:
    script = """async (url) => {
        try { await fetch(url); return "read"; } catch (error) { return error.name; }
    }"""
    assert tab.evaluate(script, closed.base + "/v1/stories/browse/latest") == "TypeError"


def test_a_server_allowing_another_origin_gets_no_preflighted_write_from_the_page(
    tab: Any, closed: Api
) -> None:
    token = closed.service.accounts.authenticate(closed.api_key, AUTHOR, PASSWORD).token
    script = """async ({api, token}) => {
        try {
            await fetch(api + "/v1/stories/reader/create", {
                method: "POST",
                headers: {Authorization: "Bearer " + token, "Content-Type": "application/json"},
                body: JSON.stringify({story: {title: "Blocked", slug: "blocked"}}),
            });
            return "sent";
        } catch (error) { return error.name; }
    }"""
    assert tab.evaluate(script, {"api": closed.base, "token": token}) == "TypeError"
    assert len(closed.preflights("/v1/stories/reader/create")) == 1
    assert ("POST", "/v1/stories/reader/create") not in {(m, p) for m, p, _ in closed.seen}
    with pytest.raises(NotFound):
        closed.service.stories.read(
            AUTHOR, "blocked", viewer=closed.service.accounts.as_user(AUTHOR)
        )
