"""The public web host (docs/api.md#the-web-host): embed scripts, permalink pages, shortlinks
and feeds (docs/feeds.md).

``GET /{username}/{slug}.js`` answers JavaScript, even for errors (a script that only logs);
``GET /s/{code}`` a 301 to the permalink; ``GET /static/demo/{name}`` a file of the demo
(``static``); the pages people read (the front page, ``/{username}``, ``/{username}/{slug}``,
``/topics/{topic}``, ``/tags/{tag}``, ``/search``: docs/api.md#the-web-host) are ``pages``'.
Any other path is the web host's HTML 404.
Retired slugs redirect to the new address, keeping the query string. ``HttpApp`` gives every
200 its ``ETag`` and ``Cache-Control`` (``conditional``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import MethodNotAllowed, NotFound, StoryMoved
from ..presentation.embed import not_found_script
from ..service import Service
from .apidocs import DOCS, apidocs_answer
from .feeds import feed_handler
from .messages import HttpRequest, HttpResponse
from .pages import not_found_page, page_handler
from .redirects import PLAIN, redirect
from .static import STATIC, static_answer

__all__ = ["handle_web"]

_SCRIPT_HEADERS = [
    ("Content-Type", "application/javascript; charset=utf-8"),
    ("X-Content-Type-Options", "nosniff"),
    ("Cross-Origin-Resource-Policy", "cross-origin"),
]


def _script(service: Service, request: HttpRequest, username: str, slug: str) -> HttpResponse:
    try:
        body = service.embeds.script(
            username, slug, css=request.query().get("css"), referer=request.header("referer")
        )
    except StoryMoved as moved:
        return redirect(request, f"/{moved.username}/{moved.slug}.js")
    except NotFound:
        return HttpResponse(404, list(_SCRIPT_HEADERS), not_found_script(
            f"there is no public story at {username}/{slug}").encode())  # fmt: skip
    return HttpResponse(200, list(_SCRIPT_HEADERS), body.encode())


def _shortlink(service: Service, request: HttpRequest, code: str) -> HttpResponse:
    try:
        return HttpResponse(301, [PLAIN, ("Location", service.embeds.shortlink(code))])
    except NotFound:
        return not_found_page(service, "story")


def handle_web(service: Service, request: HttpRequest) -> HttpResponse:
    """The answer to a request outside ``/v1``."""
    parts = request.path.strip("/").split("/")
    handler: Callable[[], HttpResponse] | None = None
    if len(parts) == 2 and parts[0] == "s" and parts[1]:
        handler = lambda: _shortlink(service, request, parts[1])  # noqa: E731
    elif parts[0] == STATIC:  # the files of the package (``static``); a reserved username
        handler = lambda: static_answer(service, parts)  # noqa: E731
    elif parts[0] == DOCS:  # the API reference (``apidocs``); a reserved username
        handler = lambda: apidocs_answer(service, request, parts)  # noqa: E731
    elif (feed := feed_handler(service, parts)) is not None:
        handler = feed  # docs/feeds.md; no slug is "feed.atom" (slugs hold no dot)
    elif len(parts) == 2 and parts[1].endswith(".js") and len(parts[1]) > 3:
        handler = lambda: _script(service, request, parts[0], parts[1][:-3])  # noqa: E731
    else:
        handler = page_handler(service, request, parts)
    if handler is None:
        return not_found_page(service, "page")
    if request.method not in ("GET", "HEAD"):
        raise MethodNotAllowed(f"{request.path} takes GET, HEAD", allowed=("GET", "HEAD"))
    return handler()
