"""Make docs/story-page.png and docs/front-page.png: a demo story's page and the front page,
as Debian's Chromium shows them (docs/api.md#the-web-host).

    python scripts/screenshot_pages.py

Starts storycore with the demo data on loopback and opens its pages through Playwright; nothing
is fetched from another host (the demo's pictures are storycore's own, ``/static/demo/``).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import Route, sync_playwright

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI
from storycore.contrib.demo import SITE_NAME, load_demo
from storycore.contrib.listen import listening_socket

DOCS = Path(__file__).resolve().parent.parent / "docs"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
_PICTURES_LOADED = (
    """() => [...document.images].every(img => img.complete && img.naturalWidth > 0)"""
)


def _loopback_only(route: Route) -> None:
    """storycore is on this machine; nothing else is asked for."""
    if route.request.url.startswith("http://127.0.0.1:"):
        route.continue_()
    else:
        route.abort()


def main() -> None:
    sock = listening_socket("127.0.0.1", 0)
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    service = Service(
        open_store("sqlite://"), Settings(web_url=base, site_name=SITE_NAME, password_cost=2**4)
    )
    load_demo(service)
    server = uvicorn.Server(uvicorn.Config(StorycoreASGI(service), log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    story = next(s for s in service.catalog.latest().items if s.author.username == "alice")
    shots = {
        "story-page.png": f"{base}/{story.author.username}/{story.slug}",
        "front-page.png": f"{base}/",
    }
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 1400})
            page.route("**/*", _loopback_only)
            for name, address in shots.items():
                page.goto(address)
                for _ in range(40):  # lazy pictures load as they scroll into view
                    page.mouse.wheel(0, 600)
                    page.wait_for_timeout(50)
                page.evaluate("window.scrollTo(0, 0)")
                page.wait_for_function(_PICTURES_LOADED, timeout=10000)
                page.screenshot(path=str(DOCS / name), full_page=True)
            browser.close()
    finally:
        server.should_exit = True


if __name__ == "__main__":
    main()
