"""Route templates: ``/v1/stories/{username}/{slug}``, matched segment by segment.

A trailing slash is optional on every path. Routes are tried in order, so fixed paths
(``/v1/stories/search``) come before the templates they would also match. A path that some
route matches with another method is a 405 naming the methods it takes.

Every route declares its use of the credentials (``Credentials``); ``HttpApp`` resolves them
by that declaration and the OpenAPI document reads the same one.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import MethodNotAllowed, NotFound
from ..settings import Settings

__all__ = ["CREDENTIALS", "Credentials", "Parameter", "Route", "Schema", "methods", "resolve"]

Schema = dict[str, Any]


class Credentials(enum.Enum):
    """What an operation does with ``api_key``, ``username`` and ``_token``."""

    #: the operation needs a user: without one (anonymous, or an api key alone) it is a 401
    REQUIRED = "required"
    #: anyone may call it; credentials sent are checked (decisions, "HTTP") and name the caller
    OPTIONAL = "optional"
    #: ignored: the operation takes its own parameters (``/v1/auth``, delegation) or none
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Parameter:
    """A documented request parameter (for the OpenAPI document). ``schema`` is a JSON schema,
    or a function of the service's settings for one that holds a configured limit.
    """

    name: str
    schema: Schema | Callable[[Settings], Schema]
    description: str = ""
    required: bool = False

    def schema_for(self, settings: Settings) -> Schema:
        """The parameter's JSON schema under ``settings``."""
        return self.schema(settings) if callable(self.schema) else self.schema


# the credentials of decisions section 5, as the routes that read them take them
CREDENTIALS = (
    Parameter("api_key", {"type": "string"}, "application key"),
    Parameter("username", {"type": "string"}, "the user on whose behalf the call is made"),
    Parameter("_token", {"type": "string"}, "user token from POST /v1/auth"),
)


@dataclass(frozen=True, slots=True)
class Route:
    """One operation: method and path template, the handler, and what documents it.

    ``credentials`` has no default: every route states its use of them. ``errors`` are the
    statuses of the operation's own faults; those of the credentials follow from ``credentials``.
    ``calls_out`` marks an operation that may wait on another host: bindings answer it apart
    from storage requests (decisions section 14). ``resolves`` marks one that stores a client's
    elements, which waits on other hosts when the service's resolver fetches (section 18).
    """

    method: str
    template: str
    handler: Callable[..., Any]
    summary: str
    parameters: Sequence[Parameter] = ()
    content: Any = None
    list_key: str | None = None
    errors: Sequence[int] = ()
    bare: bool = False
    tags: Sequence[str] = field(default=())
    credentials: Credentials = field(kw_only=True)
    calls_out: bool = field(default=False, kw_only=True)
    resolves: bool = field(default=False, kw_only=True)
    #: the template's path segments, split once: every request is matched against them
    segments: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "segments", tuple(self.template.strip("/").split("/")))

    def match(self, parts: Sequence[str]) -> dict[str, str] | None:
        """The path arguments when ``parts`` fit this template, else None."""
        segments = self.segments
        if len(parts) != len(segments):
            return None
        arguments: dict[str, str] = {}
        for segment, part in zip(segments, parts, strict=True):
            if segment[0] == "{":
                if not part:
                    return None
                arguments[segment[1:-1]] = part
            elif segment != part:
                return None
        return arguments


def _matches(routes: Sequence[Route], path: str) -> Iterator[tuple[Route, dict[str, str]]]:
    """The routes whose template fits ``path``, with their arguments, in table order."""
    if path.startswith("//") or path.endswith("//"):
        return
    parts = path.strip("/").split("/") if path.strip("/") else []
    for route in routes:
        arguments = route.match(parts)
        if arguments is not None:
            yield route, arguments


def methods(routes: Sequence[Route], path: str) -> tuple[str, ...]:
    """The methods ``path`` takes (HEAD beside GET); ``NotFound`` for a path no route has."""
    taken = [route.method for route, _ in _matches(routes, path)]
    if not taken:
        raise NotFound(f"no such path: {path}")
    return tuple(dict.fromkeys(taken + (["HEAD"] if "GET" in taken else [])))


def resolve(routes: Sequence[Route], method: str, path: str) -> tuple[Route, dict[str, str]]:
    """The route for ``method`` and ``path`` with its arguments; ``NotFound`` or
    ``MethodNotAllowed`` otherwise. HEAD is answered like GET.
    """
    wanted = "GET" if method == "HEAD" else method
    for route, arguments in _matches(routes, path):
        if route.method == wanted:
            return route, arguments
    allowed = methods(routes, path)
    raise MethodNotAllowed(f"{path} takes {', '.join(allowed)}", allowed=allowed)
