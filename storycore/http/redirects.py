"""Redirects that keep the query string, safely: nothing outside printable ASCII reaches a
``Location`` header, so no request can split a response with CR or LF.
"""

from __future__ import annotations

import string
from urllib.parse import quote

from .messages import HttpRequest, HttpResponse, json_response

__all__ = ["PLAIN", "redirect"]

_SAFE = "".join(c for c in string.punctuation if c not in '"<>\\^`{|}') + "%"
# a redirect without a JSON body still states its (empty) body's type, as PEP 3333 asks
PLAIN = ("Content-Type", "text/plain; charset=utf-8")


def redirect(request: HttpRequest, path: str, body: object = None) -> HttpResponse:
    """A 301 to ``path`` under the request's ``root_path``, with the request's query string."""
    location = f"{request.root_path}{quote(path, safe='/')}"
    if request.query_string:
        location += "?" + quote(request.query_string, safe=_SAFE)
    if body is None:
        return HttpResponse(301, [PLAIN, ("Location", location)])
    return json_response(body, 301, [("Location", location)])
