"""Make docs/embed.png: a demo story embedded in a host page, as Chromium shows it.

    python scripts/screenshot_embed.py

Starts storycore with the demo data and a host page on loopback, opens the page in Debian's
Chromium through Playwright, and writes the screenshot. The demo's pictures are storycore's own
(``/static/demo/``); nothing is fetched from another host.
"""

from __future__ import annotations

import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Route, sync_playwright

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI
from storycore.contrib.demo import SITE_NAME, load_demo
from storycore.contrib.listen import listening_socket

OUT = Path(__file__).resolve().parent.parent / "docs" / "embed.png"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
HOST_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>A host page</title>
<style>body{{margin:0;background:#f4f1ea;font-family:Georgia,serif;color:#333}}
header{{padding:1.2em 2em;background:#2f3e46;color:#fff;font-size:1.3em}}
main{{max-width:760px;margin:0 auto;padding:1em 2em}}</style></head>
<body><header>The Harbour Gazette</header><main>
<p>Our reporter's story, embedded from storycore:</p>
<script src="{script}"></script>
<p>More news below the story.</p></main></body></html>"""


def _serve_story(service: Service, sock: socket.socket) -> uvicorn.Server:
    server = uvicorn.Server(uvicorn.Config(StorycoreASGI(service), log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server


def _loopback_only(route: Route) -> None:
    """The page and storycore are on this machine; nothing else is asked for."""
    if route.request.url.startswith("http://127.0.0.1:"):
        route.continue_()
    else:
        route.abort()


# every picture, those of quotes in their shadow roots included, has loaded
_PICTURES_LOADED = """() => {
  const all = [...document.images];
  for (const host of document.querySelectorAll("*")) {
    if (host.shadowRoot) { all.push(...host.shadowRoot.querySelectorAll("img")); }
  }
  return all.length > 0 && all.every(img => img.complete && img.naturalWidth > 0);
}"""


def main() -> None:
    sock = listening_socket("127.0.0.1", 0)
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    service = Service(
        open_store("sqlite://"), Settings(web_url=base, site_name=SITE_NAME, password_cost=2**4)
    )
    load_demo(service)
    server = _serve_story(service, sock)
    story = next(s for s in service.catalog.latest().items if s.author.username == "alice")
    page_html = HOST_PAGE.format(script=f"{base}/{story.author.username}/{story.slug}.js")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(page_html.encode())

        def log_message(self, format: str, *args: Any) -> None:
            pass

    host = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=host.serve_forever, daemon=True).start()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 900, "height": 1400})
        page.route("**/*", _loopback_only)
        page.goto(f"http://127.0.0.1:{host.server_address[1]}/", wait_until="load")
        page.wait_for_selector(".s-story")
        for img in page.locator("img").all():  # lazy images load once scrolled to
            img.scroll_into_view_if_needed()
        page.wait_for_function(_PICTURES_LOADED)
        page.evaluate("window.scrollTo(0, 0)")
        OUT.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(OUT), full_page=True)
        browser.close()
    host.shutdown()
    server.should_exit = True
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
