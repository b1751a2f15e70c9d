"""A real storycore server and a host-page server on loopback, and Debian's Chromium.

The browser tests skip, saying why, where Chromium or Playwright is missing; ``.ci/run``
installs both, so CI runs them.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.listen import listening_socket
from tests._serve import in_thread, serving

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@dataclass
class StoryServer:
    """storycore served by uvicorn in a thread."""

    service: Service
    base: str


@pytest.fixture(scope="module")
def story_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StoryServer]:
    from storycore.contrib.asgi import StorycoreASGI

    sock = listening_socket("127.0.0.1", 0)
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    db = tmp_path_factory.mktemp("browser") / "stories.db"
    service = Service(open_store(f"sqlite:///{db}"), Settings(web_url=base, password_cost=2**4))
    with in_thread(StorycoreASGI(service), sock):
        yield StoryServer(service, base)
    service.close()


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``storycore serve --demo`` in its own process on a free loopback port: its address."""
    folder = tmp_path_factory.mktemp("demo-serve")
    with serving(f"sqlite:///{folder / 'stories.db'}", folder, "--demo", "--workers=1") as base:
        yield base


@dataclass
class HostPages:
    """A second origin serving host pages (HTML) and stylesheets put into ``files``."""

    base: str
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)

    def put(self, path: str, content_type: str, body: str) -> str:
        self.files[path] = (content_type, body.encode())
        return self.base + path


@pytest.fixture(scope="module")
def host_pages() -> Iterator[HostPages]:
    pages = HostPages(base="")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            found = pages.files.get(self.path.split("?")[0])
            if found is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", found[0])
            self.send_header("Content-Length", str(len(found[1])))
            self.end_headers()
            self.wfile.write(found[1])

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    pages.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield pages
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        pytest.skip(f"Debian's Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
    )
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


def _loopback_only(route: Any) -> None:
    """Requests stay on this machine: anything not for 127.0.0.1 is aborted unsent."""
    if route.request.url.startswith("http://127.0.0.1:"):
        route.continue_()
    else:
        route.abort()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh tab that records console messages and uncaught errors."""
    context = browser.new_context()
    context.route("**/*", _loopback_only)
    tab = context.new_page()
    tab.console_messages_seen = []
    tab.page_errors_seen = []
    # Playwright needs Python functions here, not bound built-in methods
    tab.on("console", lambda message: tab.console_messages_seen.append(message))  # noqa: PLW0108
    tab.on("pageerror", lambda error: tab.page_errors_seen.append(error))  # noqa: PLW0108
    yield tab
    context.close()


PLAYER_PAGE = "<!doctype html><html lang=en><title>player</title><p>playing</p></html>"


@pytest.fixture(scope="module")
def player() -> Iterator[str]:
    """A fake video player on an origin of its own: the address of its page for ``{id}``."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = PLAYER_PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/player/{{id}}"
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=10)
