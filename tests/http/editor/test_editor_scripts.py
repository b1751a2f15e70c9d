"""The editor page's scripts (docs/editor.md#with-javascript): files of the web host, loaded
deferred, named for their content, within 40 KB compressed in all."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator

import httpx
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI
from storycore.testing.client import asgi_client
from tests.conftest import TEST_SETTINGS

#: The most an editor page's scripts may weigh, compressed (gzip -9), in all.
MOST_COMPRESSED = 40 * 1024


@pytest.fixture
def browser() -> Iterator[httpx.Client]:
    service = Service(open_store("memory://"), settings=TEST_SETTINGS)
    service.accounts.create_user("alice", "alice-password")
    with asgi_client(StorycoreASGI(service)) as client:
        yield client


def _token(page: httpx.Response) -> str:
    found = re.search(r'name="form_token" value="([^"]+)"', page.text)
    assert found is not None
    return found.group(1)


def _editor(browser: httpx.Client) -> httpx.Response:
    """The editor of a new story, signed in as a browser signs in."""
    token = _token(browser.get("/signin"))
    form = {"form_token": token, "username": "alice", "password": "alice-password", "next": "/me"}
    browser.post("/signin", data=form)
    created = browser.post(
        "/me/new", data={"form_token": _token(browser.get("/me")), "title": "Fog"}
    )
    return browser.get(created.headers["location"])


def _scripts(page: httpx.Response) -> list[str]:
    return re.findall(r"<script\b[^>]*>", page.text)


def test_the_editor_loads_its_script_as_a_deferred_file_of_the_web_host(
    browser: httpx.Client,
) -> None:
    page = _editor(browser)
    [script] = _scripts(page)
    assert re.fullmatch(
        r'<script src="http://testserver/static/editor\.[0-9a-f]{16}\.js" defer>', script
    )
    served = browser.get(script.split('"')[1])
    assert served.status_code == 200
    assert served.headers["content-type"] == "application/javascript; charset=utf-8"
    assert "immutable" in served.headers["cache-control"]


def test_an_editor_pages_scripts_weigh_at_most_40_kb_compressed_in_all(
    browser: httpx.Client,
) -> None:
    page = _editor(browser)
    sources = re.findall(r'<script\b[^>]*\bsrc="([^"]+)"', page.text)
    assert len(sources) == len(_scripts(page)) >= 1  # no inline script among them
    served = [browser.get(source).content for source in sources]
    assert sum(len(gzip.compress(body, compresslevel=9)) for body in served) <= MOST_COMPRESSED
