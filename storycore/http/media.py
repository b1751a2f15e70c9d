"""The pictures storycore keeps, served by the web host at ``{web_url}/media/<sha256>.<ext>``
(docs/media.md#how-a-kept-picture-is-served).

A kept file never changes at its address (its name is the SHA-256 of its bytes), so caches keep
it a year and its ``ETag`` is its name. It is served as a picture and nothing else: its type,
``nosniff``, and a policy under which a browser that opened it as a document would run, load and
frame nothing (``default-src 'none'; sandbox``). Any other path under ``/media`` is the HTML 404.
"""

from __future__ import annotations

from ..service import Service
from .messages import HttpRequest, HttpResponse
from .pages import not_found_page
from .static import IMMUTABLE

__all__ = ["POLICY", "kept_file", "no_kept_file"]

#: The ``Content-Security-Policy`` of a kept file.
POLICY = "default-src 'none'; sandbox"


def kept_file(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """The kept file ``arguments["name"]``, or the HTML 404."""
    kept = service.media.file(arguments["name"])
    if kept is None:
        return no_kept_file(service, request, arguments)
    file, content = kept
    headers = [
        ("Content-Type", file.media_type),
        ("ETag", f'"{file.name}"'),
        ("Cache-Control", IMMUTABLE),
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", POLICY),
        ("Cross-Origin-Resource-Policy", "cross-origin"),
    ]
    return HttpResponse(200, headers, content)


def no_kept_file(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """The HTML 404 of a path under ``/media`` that names no kept file."""
    return not_found_page(service, "file")
