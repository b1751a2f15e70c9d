"""Route templates: ``/v1/stories/{username}/{slug}``, matched segment by segment.

A trailing slash is optional on every path. Routes are tried in order, so fixed paths
(``/v1/stories/search``) come before the templates they would also match. A path that some
route matches with another method is a 405 naming the methods it takes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import MethodNotAllowed, NotFound

__all__ = ["Parameter", "Route", "resolve"]


@dataclass(frozen=True, slots=True)
class Parameter:
    """A documented request parameter (for the OpenAPI document)."""

    name: str
    schema: dict[str, Any]
    description: str = ""
    required: bool = False


@dataclass(frozen=True, slots=True)
class Route:
    """One operation: method and path template, the handler, and what documents it."""

    method: str
    template: str
    handler: Callable[..., Any]
    summary: str
    parameters: Sequence[Parameter] = ()
    content: Any = None
    list_key: str | None = None
    errors: Sequence[int] = ()
    authenticated: bool = False
    bare: bool = False
    tags: Sequence[str] = field(default=())

    @property
    def segments(self) -> list[str]:
        """The template's path segments."""
        return self.template.strip("/").split("/")

    def match(self, parts: Sequence[str]) -> dict[str, str] | None:
        """The path arguments when ``parts`` fit this template, else None."""
        segments = self.segments
        if len(parts) != len(segments):
            return None
        arguments: dict[str, str] = {}
        for segment, part in zip(segments, parts, strict=True):
            if segment.startswith("{"):
                if not part:
                    return None
                arguments[segment[1:-1]] = part
            elif segment != part:
                return None
        return arguments


def resolve(routes: Sequence[Route], method: str, path: str) -> tuple[Route, dict[str, str]]:
    """The route for ``method`` and ``path`` with its arguments; ``NotFound`` or
    ``MethodNotAllowed`` otherwise. HEAD is answered like GET.
    """
    parts = path.strip("/").split("/") if path.strip("/") else []
    if path.startswith("//") or path.endswith("//"):
        raise NotFound(f"no such path: {path}")
    wanted = "GET" if method == "HEAD" else method
    allowed: list[str] = []
    for route in routes:
        arguments = route.match(parts)
        if arguments is None:
            continue
        if route.method == wanted:
            return route, arguments
        allowed.append(route.method)
    if allowed:
        methods = tuple(dict.fromkeys(allowed + (["HEAD"] if "GET" in allowed else [])))
        raise MethodNotAllowed(f"{path} takes {', '.join(methods)}", allowed=methods)
    raise NotFound(f"no such path: {path}")
