"""Route templates: ``/v1/stories/{username}/{slug}``, matched segment by segment.

A trailing slash is optional on every path. Where templates overlap, a fixed segment wins
over a parameter at the first segment where they differ: ``/v1/stories/alice/create`` is the
create route alone (never the story ``create``, and no slug is a route word: ``slugs``), and
``/v1/stories/browse/topic/save`` the topic ``save``. So a path means one thing whatever its
method: a path that the winning routes take with another method is a 405 naming their methods.

Every route declares its use of the credentials (``Credentials``); ``HttpApp`` resolves them
by that declaration and the OpenAPI document reads the same one. So with its parameters: each
``Parameter`` says how it is read and under which keyword it reaches the operation, and a
handler takes its arguments from that declaration (``Call.arguments``), which the OpenAPI
document also describes.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import MethodNotAllowed, NotFound
from ..settings import Settings
from .params import Read, Reader, reader

__all__ = [
    "CREDENTIALS",
    "Credentials",
    "Parameter",
    "Route",
    "Schema",
    "methods",
    "resolve",
    "shadowed",
]

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
    """A request parameter: how it is documented, read, and passed to its operation.

    ``schema`` is a JSON schema, or a function of the service's settings for one that holds a
    configured limit. ``read`` says how the parameter is read (``default`` is a boolean's value
    when it is not sent), and ``keyword`` under which keyword it reaches the operation: its
    ``name`` when empty (``containingElement`` is ``containing_element``), and None for one its
    handler reads itself (``Call.read``) and does not pass on.

    A ``required`` parameter sent absent is refused on reading, naming it (text and objects),
    unless ``absent_to_operation``: then the operation receives None and refuses it itself,
    after checks of its own and the reading of the route's other parameters (``q``'s refusal
    says it must not be blank; delegated creation proves the application first).
    """

    name: str
    schema: Schema | Callable[[Settings], Schema]
    description: str = ""
    required: bool = False
    read: Read = Read.TEXT
    keyword: str | None = ""
    default: bool = False
    absent_to_operation: bool = False
    #: reads the parameter from a request, as ``read`` says: made once, with the declaration
    reader: Reader = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        refused_absent = self.required and not self.absent_to_operation
        read = reader(self.read, self.name, required=refused_absent, default=self.default)
        object.__setattr__(self, "reader", read)

    def schema_for(self, settings: Settings) -> Schema:
        """The parameter's JSON schema under ``settings``."""
        return self.schema(settings) if callable(self.schema) else self.schema


# the credentials of docs/api.md#credentials, as the routes that read them take them
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
    from storage requests (docs/decisions.md#serving). ``resolves`` marks one that stores a client's
    elements, which waits on other hosts when the service's resolver fetches (docs/resolver.md).
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
    #: which segments are fixed (True) rather than parameters: the larger wins an overlap
    fixed: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    #: the parameters the operation takes, each as its keyword and its reader, in order
    passed: tuple[tuple[str, Reader], ...] = field(init=False, repr=False, compare=False)
    #: every parameter's reader, by the parameter's name
    readers: dict[str, Reader] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        segments = tuple(self.template.strip("/").split("/"))
        object.__setattr__(self, "segments", segments)
        object.__setattr__(self, "fixed", tuple(segment[0] != "{" for segment in segments))
        passed = tuple(
            (p.keyword or p.name, p.reader) for p in self.parameters if p.keyword is not None
        )
        keywords = [segment[1:-1] for segment in segments if segment[0] == "{"]
        keywords += [keyword for keyword, _ in passed]
        if len(set(keywords)) != len(keywords):
            raise ValueError(f"{self.method} {self.template} passes a keyword twice: {keywords}")
        object.__setattr__(self, "passed", passed)
        object.__setattr__(self, "readers", {p.name: p.reader for p in self.parameters})

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


#: Each route table (by identity, the table kept with it) in the order its paths are tried:
#: one route a template, the most fixed first, with every route of that template in table order.
_TRIED: dict[int, tuple[Sequence[Route], list[tuple[Route, list[Route]]]]] = {}


def _tried(routes: Sequence[Route]) -> list[tuple[Route, list[Route]]]:
    kept = _TRIED.get(id(routes))
    if kept is None or kept[0] is not routes:
        by_template: dict[str, list[Route]] = {}
        for route in routes:
            by_template.setdefault(route.template, []).append(route)
        order = sorted(by_template.values(), key=lambda same: same[0].fixed, reverse=True)
        kept = (routes, [(same[0], same) for same in order])
        _TRIED[id(routes)] = kept
    return kept[1]


def _matches(routes: Sequence[Route], path: str) -> list[tuple[Route, dict[str, str]]]:
    """The routes that ``path`` means, with their arguments, in table order: of the templates
    that fit it, the one fixed where the others take a parameter (templates are tried most
    fixed first, so the first that fits is it)."""
    if path.startswith("//") or path.endswith("//"):
        return []
    parts = path.strip("/").split("/") if path.strip("/") else []
    for first, same in _tried(routes):
        arguments = first.match(parts)
        if arguments is not None:
            return [(route, arguments) for route in same]
    return []


def _overlap(one: Route, other: Route) -> bool:
    """Whether a path fits both templates."""
    return len(one.segments) == len(other.segments) and all(
        a == b or a[0] == "{" or b[0] == "{"
        for a, b in zip(one.segments, other.segments, strict=True)
    )


def shadowed(route: Route, routes: Sequence[Route]) -> bool:
    """Whether some paths of ``route``'s template are another's (fixed where ``route`` takes a
    parameter: ``/v1/stories/alice/create``), which does not take ``route``'s method: such a
    path answers ``route``'s method with a 405."""
    winners = [
        other
        for other in routes
        if other.fixed > route.fixed and _overlap(route, other) and other.method != route.method
    ]
    return any(
        not any(o.template == w.template and o.method == route.method for o in routes)
        for w in winners
    )


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
