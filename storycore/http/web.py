"""The public web host (decisions section 9): embed scripts, permalink pages, shortlinks.

``GET /{username}/{slug}.js`` answers JavaScript, even for errors (a script that only logs);
``GET /{username}/{slug}`` a small HTML page; ``GET /s/{code}`` a 301 to the permalink.
Retired slugs redirect to the new address, keeping the query string.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from urllib.parse import parse_qsl

from ..embed import not_found_script
from ..errors import MethodNotAllowed, NotFound, StoryMoved
from ..service import Service
from .conditional import none_match
from .feeds import feed_handler
from .messages import HttpRequest, HttpResponse
from .redirects import PLAIN, redirect

__all__ = ["handle_web"]

_SCRIPT_HEADERS = [
    ("Content-Type", "application/javascript; charset=utf-8"),
    ("X-Content-Type-Options", "nosniff"),
    ("Cross-Origin-Resource-Policy", "cross-origin"),
    ("Cache-Control", "no-cache"),
]
_HTML_HEADERS = [
    ("Content-Type", "text/html; charset=utf-8"),
    ("X-Content-Type-Options", "nosniff"),
    ("Cache-Control", "no-cache"),
]


def _query(request: HttpRequest) -> dict[str, str]:
    text = request.query_string.decode("utf-8", "replace")
    return dict(parse_qsl(text, keep_blank_values=True))


def _cached(
    request: HttpRequest, status: int, headers: list[tuple[str, str]], body: str
) -> HttpResponse:
    data = body.encode("utf-8")
    etag = f'"{hashlib.sha256(data).hexdigest()[:32]}"'
    headers = [*headers, ("ETag", etag)]
    if none_match(request.header("if-none-match"), etag):
        # a 304 has no content, so it names no content type (RFC 9110 15.4.5, PEP 3333)
        return HttpResponse(304, [h for h in headers if h[0] != "Content-Type"])
    return HttpResponse(status, headers, data)


def _script(service: Service, request: HttpRequest, username: str, slug: str) -> HttpResponse:
    try:
        body = service.embeds.script(
            username, slug, css=_query(request).get("css"), referer=request.header("referer")
        )
    except StoryMoved as moved:
        return redirect(request, f"/{moved.username}/{moved.slug}.js")
    except NotFound:
        return HttpResponse(404, list(_SCRIPT_HEADERS), not_found_script(
            f"there is no public story at {username}/{slug}").encode())  # fmt: skip
    return _cached(request, 200, list(_SCRIPT_HEADERS), body)


def _page(service: Service, request: HttpRequest, username: str, slug: str) -> HttpResponse:
    try:
        body = service.embeds.page(username, slug)
    except StoryMoved as moved:
        return redirect(request, f"/{moved.username}/{moved.slug}")
    except NotFound:
        page = "<!doctype html><title>Not found</title><p>There is no such story.</p>\n"
        return HttpResponse(404, list(_HTML_HEADERS), page.encode())
    return _cached(request, 200, list(_HTML_HEADERS), body)


def _shortlink(service: Service, request: HttpRequest, code: str) -> HttpResponse:
    return HttpResponse(301, [PLAIN, ("Location", service.embeds.shortlink(code))])


def handle_web(service: Service, request: HttpRequest) -> HttpResponse:
    """The answer to a request outside ``/v1``."""
    parts = request.path.strip("/").split("/")
    handler: Callable[[], HttpResponse] | None = None
    if len(parts) == 2 and parts[0] == "s" and parts[1]:
        handler = lambda: _shortlink(service, request, parts[1])  # noqa: E731
    elif (feed := feed_handler(service, request, parts, _cached)) is not None:
        handler = feed  # decisions section 19; no slug is "feed.atom" (slugs hold no dot)
    elif len(parts) == 2 and parts[1].endswith(".js") and len(parts[1]) > 3:
        handler = lambda: _script(service, request, parts[0], parts[1][:-3])  # noqa: E731
    elif len(parts) == 2 and all(parts):
        handler = lambda: _page(service, request, parts[0], parts[1])  # noqa: E731
    if handler is None:
        raise NotFound(f"no such path: {request.path}")
    if request.method not in ("GET", "HEAD"):
        raise MethodNotAllowed(f"{request.path} takes GET, HEAD", allowed=("GET", "HEAD"))
    return handler()
