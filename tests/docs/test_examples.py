"""The mount examples run as written (docs/api.md#credentials): storycore under ``/stories`` of a
Starlette, FastAPI, Flask or Django application, with no ``web_url`` configured, answers its
addresses under the host and prefix each request names, and the host's own page still answers.

Each example is loaded once per module in a temporary directory (its SQLite file lands there)
and called in process: httpx over ASGI, werkzeug's test client over WSGI. Every rule is one
test, run once per example.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from werkzeug.test import Client

HOST = "news.example"
WEB = f"http://{HOST}/stories"
#: each example: the module-level name of its application, and the interface it speaks
EXAMPLES = {
    "starlette_mount": ("app", "asgi"),
    "fastapi_mount": ("app", "asgi"),
    "flask_mount": ("app", "wsgi"),
    "django_mount": ("application", "asgi"),
}
# each example is loaded once, on one worker: Django's settings are configured once a process
pytestmark = pytest.mark.xdist_group("examples")


@dataclass(frozen=True)
class Answer:
    status: int
    headers: httpx.Headers
    text: str


Get = Callable[[str], Answer]


@dataclass(frozen=True)
class Mounted:
    """An example's host application, called with ``Host: news.example``; ``sid`` is the id of
    alice's published story ``two``."""

    get: Get
    sid: str

    def ask(self, path: str, **params: str) -> Answer:
        return self.get(f"{path}?{urlencode(params)}" if params else path)


def _asgi(app: Any) -> Get:
    def get(target: str) -> Answer:
        async def ask() -> httpx.Response:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url=f"http://{HOST}") as client:
                return await client.get(target)

        response = asyncio.run(ask())
        return Answer(response.status_code, response.headers, response.text)

    return get


def _wsgi(app: Any) -> Get:
    client = Client(app)

    def get(target: str) -> Answer:
        response = client.get(target, base_url=f"http://{HOST}")
        headers = httpx.Headers(response.headers.to_wsgi_list())
        return Answer(response.status_code, headers, response.get_data(as_text=True))

    return get


def _seed(module: Any) -> str:
    """alice with two published stories, ``one`` and ``two``; the id of ``two``. No test
    depends on which was published first: the latest list is read for its ``Link`` header (two
    pages of one), the search finds ``two`` alone."""
    service = module.service
    service.accounts.create_user("alice", "a-password")
    alice = service.accounts.as_user("alice")
    sid = ""
    for title in ("One", "Two"):
        sid = service.stories.create("alice", {"title": title}, viewer=alice, publish=True).id
    return sid


@pytest.fixture(scope="module", params=list(EXAMPLES))
def host(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Mounted]:
    name: str = request.param
    attribute, interface = EXAMPLES[name]
    directory: Path = tmp_path_factory.mktemp(name)
    sys.modules.pop(f"examples.{name}", None)
    with contextlib.chdir(directory):
        module = importlib.import_module(f"examples.{name}")
    app = getattr(module, attribute)
    sid = _seed(module)
    yield Mounted(_asgi(app) if interface == "asgi" else _wsgi(app), sid)
    module.service.close()


def test_the_host_applications_own_page_still_answers(host: Mounted) -> None:
    answer = host.ask("/")
    assert (answer.status, answer.text) == (200, "host page")


def test_permalinks_are_under_the_host_and_prefix(host: Mounted) -> None:
    answer = host.ask("/stories/v1/stories/search", q="two")
    assert answer.status == 200
    stories = json.loads(answer.text)["content"]["stories"]
    assert [story["permalink"] for story in stories] == [f"{WEB}/alice/two"]


def test_the_permalink_page_answers_under_the_prefix(host: Mounted) -> None:
    answer = host.ask("/stories/alice/two")
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/html")


def test_the_shortlink_redirects_to_the_permalink_under_the_prefix(host: Mounted) -> None:
    answer = host.ask(f"/stories/s/{host.sid}")
    assert answer.status == 301
    assert answer.headers["location"] == f"{WEB}/alice/two"


def _oembed(host: Mounted) -> Answer:
    return host.ask("/stories/v1/oembed", url=f"{WEB}/alice/two", format="json")


def _embed_address(host: Mounted) -> str:
    html: str = json.loads(_oembed(host).text)["html"]
    found = re.search(r'src="([^"]+)"', html)
    assert found is not None, html
    return found.group(1)


def test_oembed_of_the_mounted_permalink_answers(host: Mounted) -> None:
    assert _oembed(host).status == 200


def test_oembed_gives_the_embed_script_under_the_prefix(host: Mounted) -> None:
    assert _embed_address(host) == f"{WEB}/alice/two.js"


def test_the_embed_script_loads_at_the_address_oembed_gives(host: Mounted) -> None:
    address = _embed_address(host)
    answer = host.ask(address.removeprefix(f"http://{HOST}"))
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("application/javascript")


def test_the_link_header_of_a_list_stays_under_the_prefix(host: Mounted) -> None:
    answer = host.ask("/stories/v1/stories/browse/latest", per_page="1")
    assert answer.status == 200
    link = answer.headers["link"]
    assert link.startswith("</stories/v1/stories/browse/latest?")
    assert re.search(r"[?&]page=2\b[^>]*>; rel=\"next\"", link), link
