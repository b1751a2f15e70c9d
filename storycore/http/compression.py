"""gzip for answers over 1 KiB when the client accepts it (docs/api.md#caching-and-compression).

``storycore serve`` compresses; an app mounted in a host application does when built with
``compress=True`` (a host's own middleware or proxy may do it instead). Only text is
compressed: JSON, JavaScript, HTML and XML.
"""

from __future__ import annotations

import gzip

from .messages import HttpRequest, HttpResponse

__all__ = ["MIN_SIZE", "compressed"]

#: Answers smaller than this go as they are: gzip's header and a round trip cost more.
MIN_SIZE = 1024
# zlib's level 6 is its default; 5 is about as small here and quicker (answers are JSON)
_LEVEL = 5
_TEXT = ("application/json", "application/javascript", "application/atom+xml", "text/")


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether ``Accept-Encoding`` admits gzip (RFC 9110, section 12.5.3):
    named, or ``*``,
    with a quality above zero."""
    if not accept_encoding:
        return False
    qualities: dict[str, float] = {}
    for item in accept_encoding.lower().split(","):
        coding, _, parameters = item.partition(";")
        quality = 1.0
        name, _, value = parameters.strip().partition("=")
        if name.strip() == "q":
            try:
                quality = float(value)
            except ValueError:
                quality = 0.0
        qualities[coding.strip()] = quality
    return qualities.get("gzip", qualities.get("x-gzip", qualities.get("*", 0.0))) > 0


def compressed(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """``response`` gzipped when it is text of ``MIN_SIZE`` or more and the client accepts
    gzip. Every text answer says it varies by ``Accept-Encoding``; a gzipped one's ``ETag``
    becomes weak, as its bytes differ from the identity answer's (RFC 9110, 8.8.1)."""
    kind = next((v for n, v in response.headers if n == "Content-Type"), "")
    if not kind.startswith(_TEXT) and response.status != 304:
        return response
    headers = [*response.headers, ("Vary", "Accept-Encoding")]
    if len(response.body) < MIN_SIZE or not accepts_gzip(request.header("accept-encoding")):
        return HttpResponse(response.status, headers, response.body)
    headers = [
        (name, f"W/{value}" if name == "ETag" and not value.startswith("W/") else value)
        for name, value in headers
    ]
    headers.append(("Content-Encoding", "gzip"))
    body = gzip.compress(response.body, _LEVEL, mtime=0)
    return HttpResponse(response.status, headers, body)
