"""The web host's HTML answers that are not a story: its 404 page."""

from __future__ import annotations

from .messages import HttpResponse

__all__ = ["HTML_HEADERS", "not_found_page"]

HTML_HEADERS = [("Content-Type", "text/html; charset=utf-8"), ("X-Content-Type-Options", "nosniff")]


def not_found_page(what: str) -> HttpResponse:
    """The 404 page for a missing ``what`` (a story, a user, a topic)."""
    page = f"<!doctype html><title>Not found</title><p>There is no such {what}.</p>\n"
    return HttpResponse(404, list(HTML_HEADERS), page.encode())
