"""The web host's own answers that are neither pages nor feeds (docs/api.md#the-web-host): a
story's embed script and its shortlink.

``GET /{username}/{slug}.js`` answers JavaScript, even for errors (a script that only logs);
``GET /s/{code}`` a 301 to the permalink. A retired slug's script redirects to the new address,
keeping the query string. Which path each answers is the route table's (``table``).
"""

from __future__ import annotations

from ..errors import NotFound, StoryMoved
from ..presentation.embed import not_found_script
from ..service import Service
from .messages import HttpRequest, HttpResponse
from .pages import not_found_page
from .redirects import PLAIN, redirect

__all__ = ["script", "shortlink"]

_SCRIPT_HEADERS = [
    ("Content-Type", "application/javascript; charset=utf-8"),
    ("X-Content-Type-Options", "nosniff"),
    ("Cross-Origin-Resource-Policy", "cross-origin"),
]


def script(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """The embed script of the story ``username``/``slug``; a script that only logs when there
    is no such public story."""
    username, slug = arguments["username"], arguments["slug"]
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


def shortlink(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """A 301 to the permalink of the story whose shortlink code is ``code``."""
    try:
        return HttpResponse(301, [PLAIN, ("Location", service.embeds.shortlink(arguments["code"]))])
    except NotFound:
        return not_found_page(service, "story")
