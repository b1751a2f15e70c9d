"""Make docs/embed.png: a demo story embedded in a host page, as Chromium shows it.

    python scripts/screenshot_embed.py

Starts storycore with the demo data and a host page on loopback, opens the page in Debian's
Chromium through Playwright, and writes the screenshot.
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
from storycore.contrib.demo import load_demo
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


def _serve_story(service: Service) -> tuple[uvicorn.Server, socket.socket]:
    sock = listening_socket("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(StorycoreASGI(service), log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server, sock


def _placeholder_image(route: Route) -> None:
    """Demo images live on example hosts; draw a calm gradient for them instead."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">'
        '<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#9ec5d8"/><stop offset="1" stop-color="#2f5d73"/>'
        '</linearGradient></defs><rect width="1200" height="800" fill="url(#g)"/></svg>'
    )
    if route.request.url.startswith("http://127.0.0.1:"):
        route.continue_()
    elif route.request.resource_type == "image":
        route.fulfill(status=200, content_type="image/svg+xml", body=svg)
    else:
        route.abort()


def main() -> None:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    base = f"http://127.0.0.1:{probe.getsockname()[1]}"
    probe.close()
    service = Service(open_store("sqlite://"), Settings(web_url=base, password_cost=2**4))
    load_demo(service)
    server, sock = _serve_story(service)
    actual = f"http://127.0.0.1:{sock.getsockname()[1]}"
    story = next(s for s in service.catalog.latest().items if s.author.username == "alice")
    page_html = HOST_PAGE.format(script=f"{actual}/{story.author.username}/{story.slug}.js")

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
        page.route("**/*", _placeholder_image)
        page.goto(f"http://127.0.0.1:{host.server_address[1]}/", wait_until="load")
        page.wait_for_selector(".s-story")
        OUT.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(OUT), full_page=True)
        browser.close()
    host.shutdown()
    server.should_exit = True
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
