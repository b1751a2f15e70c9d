"""Cross-origin calls from browsers (docs/api.md#credentials), on every ``/v1`` path.

An allowed origin gets ``Access-Control-Allow-Origin`` (``*`` when any origin is allowed, else
the request's own origin with ``Vary: Origin``) and the headers a page may read. ``OPTIONS`` is
a preflight. No cookies are used, so credentials mode is never allowed: pages send tokens in
``Authorization``, which preflights permit.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.origins import origin_of
from .messages import HttpRequest, HttpResponse

__all__ = ["Cors"]

_EXPOSE = ("Access-Control-Expose-Headers", "Link, ETag, Location, Retry-After")
_ALLOW_HEADERS = (
    "Access-Control-Allow-Headers",
    "Authorization, Content-Type, If-None-Match, X-Api-Key",
)
_MAX_AGE = ("Access-Control-Max-Age", "600")


class Cors:
    """The CORS headers for one list of allowed origins (``Settings.cors_origins``)."""

    def __init__(self, origins: Sequence[str]) -> None:
        self._any = "*" in origins
        self._origins = frozenset(origins)

    def headers(self, request: HttpRequest) -> list[tuple[str, str]]:
        """What an answer to ``request`` carries for its origin."""
        if self._any:
            return [("Access-Control-Allow-Origin", "*"), _EXPOSE]
        origin = self._allowed(request.header("origin"))
        if origin is None:
            return [("Vary", "Origin")]
        return [("Access-Control-Allow-Origin", origin), _EXPOSE, ("Vary", "Origin")]

    @staticmethod
    def preflight(methods: Sequence[str]) -> HttpResponse:
        """The answer to an ``OPTIONS`` request for a path that takes ``methods``, but for
        the origin's headers, which every ``/v1`` answer gets (``headers``)."""
        allow = ", ".join(methods)
        return HttpResponse(
            204,
            [
                ("Access-Control-Allow-Methods", allow),
                _ALLOW_HEADERS,
                _MAX_AGE,
                ("Allow", f"{allow}, OPTIONS"),
            ],
        )

    def _allowed(self, origin: str | None) -> str | None:
        """``origin`` as sent, when it is one of the allowed ones."""
        if not origin:
            return None
        try:
            return origin if origin_of(origin) in self._origins else None
        except ValueError:  # "null" (a sandboxed page) or garbage: not an allowed origin
            return None
