"""Caching of GET answers (docs/api.md#caching-and-compression): entity tags, ``If-None-Match`` and
``Cache-Control``, for the API and the web host alike.

Every 200 answer to GET or HEAD carries an ``ETag``: the one its endpoint set (a story read
derives it from what the answer shows), else a digest of its content, which changes whenever
any byte of it would. ``If-None-Match`` uses the weak comparison of RFC 9110 (section 13.1.2):
``W/"x"`` matches ``"x"``, the header may list several tags, and ``*`` matches any current
answer; a match is a 304 without content. Anonymous answers are about public content, which
shared caches may keep if they ask again each time; answers to a caller who sent credentials
are for that caller alone.
"""

from __future__ import annotations

import hashlib
import re

from .messages import HttpRequest, HttpResponse

__all__ = ["PRIVATE", "PUBLIC", "cached", "none_match"]

PUBLIC = "public, max-age=0, must-revalidate"
PRIVATE = "private, no-cache"

_TAG = re.compile(r'\s*(?:W/)?("[^"]*")\s*(?:,|$)')
_READS = frozenset({"GET", "HEAD"})


def none_match(if_none_match: str | None, etag: str) -> bool:
    """Whether ``If-None-Match: if_none_match`` matches ``etag`` (then the answer is a 304)."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    opaque = etag.removeprefix("W/")
    return any(found.group(1) == opaque for found in _TAG.finditer(if_none_match))


def content_tag(body: bytes) -> str:
    """A strong entity tag of ``body``: 128 bits of its SHA-256 digest (which processors
    compute in hardware: about twice as fast as BLAKE2b on a 6 KB list here)."""
    return f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def cached(request: HttpRequest, response: HttpResponse, *, private: bool) -> HttpResponse:
    """``response`` with its ``ETag`` and ``Cache-Control``, or the 304 it becomes; answers
    to other methods, and other statuses, are left as they are. An ``ETag`` or
    ``Cache-Control`` the endpoint set stays."""
    if response.status != 200 or request.method not in _READS:
        return response
    etag = policy = None
    for name, value in response.headers:
        if name == "ETag":
            etag = value
        elif name == "Cache-Control":
            policy = value
    if etag is None:
        etag = content_tag(response.body)
        response.headers.append(("ETag", etag))
    if policy is None:
        response.headers.append(("Cache-Control", PRIVATE if private else PUBLIC))
    if none_match(request.header("if-none-match"), etag):
        # a 304 has no content, so it names no content type (RFC 9110 15.4.5, PEP 3333)
        return HttpResponse(304, [h for h in response.headers if h[0] != "Content-Type"])
    return response
