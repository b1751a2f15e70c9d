"""The API reference in a real browser (docs/api.md#the-web-host): ``/docs/api`` shows the
operations of the OpenAPI document in Swagger UI, logs nothing to the console, and asks no host
but the server's own for anything. Twice, neither with ``web_url``: a real ``storycore serve``
process at the root of its address, and a host application (Starlette) that mounts storycore's
ASGI application under ``/stories``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.listen import listening_socket
from tests._serve import in_thread, serving

# Chromium and the servers start once, on one worker
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-api-reference")]

PREFIX = "/stories"
#: The summary of ``GET /v1/stories/search`` in the document: an operation the viewer lists.
OPERATION = "Search public stories"
LOAD_TIMEOUT_MS = 20_000


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``storycore serve`` on a free loopback port, without ``--web-url``: the page's address."""
    folder = tmp_path_factory.mktemp("apidocs-serve")
    with serving(f"sqlite:///{folder / 'stories.db'}", folder, "--workers=1") as base:
        yield f"{base}/docs/api"


@pytest.fixture(scope="module")
def mounted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """storycore mounted under ``PREFIX`` in a Starlette application served by uvicorn, without
    ``web_url``: the page's address."""
    from starlette.applications import Starlette
    from starlette.routing import Mount

    from storycore.contrib.asgi import StorycoreASGI

    folder = tmp_path_factory.mktemp("apidocs-mounted")
    service = Service(open_store(f"sqlite:///{folder / 'stories.db'}"), Settings())
    host = Starlette(routes=[Mount(PREFIX, app=StorycoreASGI(service))])
    sock = listening_socket("127.0.0.1", 0)
    address = f"http://127.0.0.1:{sock.getsockname()[1]}{PREFIX}/docs/api"
    try:
        with in_thread(host, sock):
            yield address
    finally:
        service.close()


@pytest.mark.parametrize("server", ["served", "mounted"])
def test_the_api_reference_shows_the_operations_asking_only_its_own_host(
    browser: Any, request: pytest.FixtureRequest, server: str
) -> None:
    address: str = request.getfixturevalue(server)
    context = browser.new_context()
    tab = context.new_page()
    asked: list[str] = []
    logged: list[str] = []
    failed: list[str] = []
    tab.on("request", lambda sent: asked.append(sent.url))
    tab.on("console", lambda message: logged.append(f"{message.type}: {message.text}"))
    tab.on("pageerror", lambda error: logged.append(f"uncaught: {error}"))
    tab.on("requestfailed", lambda sent: failed.append(sent.url))
    try:
        tab.goto(address)
        tab.get_by_text(OPERATION, exact=True).wait_for(timeout=LOAD_TIMEOUT_MS)
        tab.wait_for_load_state("networkidle")
        shown = tab.locator(".opblock-summary-description").all_inner_texts()
    finally:
        context.close()
    assert OPERATION in shown
    assert len(shown) > 20  # every operation of the document, not one
    origin = urlsplit(address)
    assert [url for url in asked if urlsplit(url).netloc != origin.netloc] == []
    root = address.removesuffix("/docs/api")
    assert f"{root}/v1/openapi.json" in asked
    assert (logged, failed) == ([], [])
