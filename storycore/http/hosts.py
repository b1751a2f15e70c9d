"""The web host's address a request names (docs/api.md#credentials): its scheme, its ``Host`` and
the prefix the application is mounted under.

A ``Host`` header is the caller's to choose and lands in links and pages, so only a host name or
address and a port pass; anything else is a 400, never text copied into an answer.
"""

from __future__ import annotations

from urllib.parse import quote

from ..errors import InvalidParameter
from ..rules.sites import HOST
from .messages import HttpRequest

__all__ = ["request_web_url"]

_SCHEMES = frozenset({"http", "https"})


def request_web_url(request: HttpRequest) -> str | None:
    """``scheme://host/root_path`` of ``request``; None when it names no host (HTTP/1.0)."""
    host = request.header("host")
    if not host:
        return None
    if len(host) > 260 or not HOST.fullmatch(host):
        raise InvalidParameter("the Host header is not a host name or address and a port")
    scheme = request.scheme if request.scheme in _SCHEMES else "http"
    return f"{scheme}://{host.lower()}{quote(request.root_path, safe='/')}"
