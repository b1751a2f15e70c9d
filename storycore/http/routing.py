"""The one route table's rows and how a path finds its row (docs/architecture.md#routes).

Everything the app answers is a row (``Route``): a method and a path template, the handler, what
kind of answer it is (``Kind``: an operation of the API, or the web host's page, feed, script,
file, redirect or document), its use of the credentials and its caching. ``storycore.http.table``
holds the table; ``Router`` compiles one, so a request finds its row by its segment count and
first segment among a few candidates, never by trying every row.

A template is a path with parameters in braces: ``{slug}`` takes one segment (never an empty
one), ``{slug}.js`` one segment ending in ``.js`` (and more), ``{rest:path}``, last, the rest
of the path, none or more segments. A trailing slash is optional on every path. A path is
matched as it was sent, percent-encoded (``HttpRequest.encoded_path``): it is split at its
slashes, then each segment is decoded, so ``/topics/a%2Fb`` is the topic ``a/b``.

The table's order decides: the first row whose template fits a path is what the path means,
whatever its method, so a path that the rows of that template take with another method is a
405 naming their methods. The API's rows are written so that a fixed segment wins over a
parameter at the first segment where templates differ: ``/v1/stories/alice/create`` is the
create route alone (never the story ``create``, and no slug is a route word: ``slugs``), and
``/v1/stories/browse/topic/save`` the topic ``save``. Every path under ``/v1`` is the API's
(``in_api``): a path there that no row of the API fits is the API's 404, never a page.

Every API route declares its use of the credentials (``Credentials``); ``HttpApp`` resolves them
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
from urllib.parse import unquote

from ..errors import MethodNotAllowed, NotFound
from ..rules.paths import API
from ..service import Service
from ..settings import Settings
from .messages import HttpRequest, HttpResponse
from .params import Read, Reader, reader

__all__ = [
    "CREDENTIALS",
    "Cache",
    "Credentials",
    "Kind",
    "Parameter",
    "Route",
    "Router",
    "Schema",
    "WebHandler",
    "in_api",
    "taking",
    "web_route",
]

Schema = dict[str, Any]


class Kind(enum.Enum):
    """What a row answers, which says how its handler is called and what surrounds its answer."""

    #: an operation of API v1: its handler takes a ``Call`` and answers in the envelope, with
    #: CORS; it is in the OpenAPI document
    API = "api"
    #: the OpenAPI document of the API's rows, made by the app (``openapi``)
    DOCUMENT = "document"
    #: the web host's answers, whose handlers take the service, the request and the path's
    #: arguments (``WebHandler``): an HTML page, an Atom feed, an embed script, a file, a
    #: redirect
    PAGE = "page"
    FEED = "feed"
    SCRIPT = "script"
    FILE = "file"
    REDIRECT = "redirect"
    #: what crawlers read: robots.txt and the sitemaps, answered as the web host's others
    CRAWLERS = "crawlers"
    #: the editor's pages, whose handlers take an ``editor.EditorCall``: never cached,
    #: never framed, every form's token checked (docs/editor.md)
    EDITOR = "editor"


class Cache(enum.Enum):
    """Who may keep a row's 200 (``conditional.cached``; docs/api.md#caching-and-compression)."""

    #: any cache: the answer is the same for everyone (the web host's public content)
    PUBLIC = "public"
    #: any cache, unless the call carried credentials: then the caller's alone
    BY_CALLER = "by caller"


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
    """One row: method and path template, the handler, and what documents it.

    ``credentials`` has no default: every route states its use of them. ``errors`` are the
    statuses of the operation's own faults; those of the credentials follow from ``credentials``.
    ``calls_out`` marks an operation that may wait on another host: bindings answer it apart
    from storage requests (docs/decisions.md#serving). ``resolves`` marks one that stores a client's
    elements, which waits on other hosts when the service's resolver fetches (docs/resolver.md).
    ``kind`` says how the handler is called (``Kind``) and ``cache`` who may keep its answer;
    the web host's rows are made by ``web_route``.
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
    kind: Kind = field(default=Kind.API, kw_only=True)
    cache: Cache = field(default=Cache.BY_CALLER, kw_only=True)
    #: an editor page for a signed-in writer: others go to the sign-in page first
    signed_in: bool = field(default=False, kw_only=True)
    #: the template's path segments, split once
    segments: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: the template compiled: every request is matched against it
    pattern: _Pattern = field(init=False, repr=False, compare=False)
    #: the parameters the operation takes, each as its keyword and its reader, in order
    passed: tuple[tuple[str, Reader], ...] = field(init=False, repr=False, compare=False)
    #: every parameter's reader, by the parameter's name
    readers: dict[str, Reader] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        segments = tuple(self.template.strip("/").split("/"))
        object.__setattr__(self, "segments", segments)
        pattern = _Pattern.of(segments)
        object.__setattr__(self, "pattern", pattern)
        passed = tuple(
            (p.keyword or p.name, p.reader) for p in self.parameters if p.keyword is not None
        )
        keywords = [*pattern.names, *(keyword for keyword, _ in passed)]
        if len(set(keywords)) != len(keywords):
            raise ValueError(f"{self.method} {self.template} passes a keyword twice: {keywords}")
        object.__setattr__(self, "passed", passed)
        object.__setattr__(self, "readers", {p.name: p.reader for p in self.parameters})

    def match(self, parts: Sequence[str]) -> dict[str, str] | None:
        """The path arguments when ``parts`` (the path split at its slashes) fit this template,
        else None."""
        return self.pattern.match(parts)


#: A web host's handler: the service, the request and the path's arguments in, the answer out.
WebHandler = Callable[[Service, HttpRequest, dict[str, str]], HttpResponse]


def web_route(
    template: str,
    handler: Callable[..., Any],
    kind: Kind,
    *,
    method: str = "GET",
    cache: Cache = Cache.PUBLIC,
    signed_in: bool = False,
) -> Route:
    """A row of the web host: ``handler`` (a ``WebHandler``, the document's maker for
    ``Kind.DOCUMENT``, an editor page's handler for ``Kind.EDITOR``) answers ``method`` (GET
    and HEAD by default) at ``template``; public content unless ``cache`` says otherwise,
    credentials ignored; ``signed_in``: an editor page for writers only."""
    return Route(
        method,
        template,
        handler,
        "",
        credentials=Credentials.NONE,
        kind=kind,
        cache=cache,
        signed_in=signed_in,
    )


@dataclass(frozen=True, slots=True)
class _Pattern:
    """A template compiled: its fixed segments, parameters and suffixed parameters by index,
    and the index where the rest of the path begins (``{rest:path}``)."""

    length: int
    literals: tuple[tuple[int, str], ...]
    params: tuple[tuple[int, str], ...]
    suffixed: tuple[tuple[int, str, str], ...]
    rest: tuple[int, str] | None
    names: tuple[str, ...]

    @classmethod
    def of(cls, segments: Sequence[str]) -> _Pattern:
        literals, params, suffixed, names = [], [], [], []
        rest = None
        for index, segment in enumerate(segments):
            if not segment.startswith("{"):
                literals.append((index, segment))
                continue
            name, _, after = segment[1:].partition("}")
            if name.endswith(":path"):
                if after or index != len(segments) - 1:
                    raise ValueError(f"{segment} must be a template's last segment, alone")
                rest = (index, name.removesuffix(":path"))
                names.append(rest[1])
            elif after:
                suffixed.append((index, name, after))
                names.append(name)
            else:
                params.append((index, name))
                names.append(name)
        length = len(segments) if rest is None else rest[0]
        return cls(length, tuple(literals), tuple(params), tuple(suffixed), rest, tuple(names))

    def fits_length(self, count: int) -> bool:
        """Whether a path of ``count`` segments may fit."""
        return count == self.length if self.rest is None else count >= self.length

    def match(self, parts: Sequence[str]) -> dict[str, str] | None:
        """The arguments when ``parts`` fit, else None."""
        count = len(parts)
        if count != self.length and (self.rest is None or count < self.length):
            return None
        for index, text in self.literals:
            if parts[index] != text:
                return None
        arguments: dict[str, str] = {}
        for index, name in self.params:
            part = parts[index]
            if not part:
                return None
            arguments[name] = part
        for index, name, suffix in self.suffixed:
            part = parts[index]
            if len(part) <= len(suffix) or not part.endswith(suffix):
                return None
            arguments[name] = part[: -len(suffix)]
        if self.rest is not None:
            arguments[self.rest[1]] = "/".join(parts[self.rest[0] :])
        return arguments

    def first(self) -> str | None:
        """The fixed first segment, or None when a parameter comes first."""
        return self.literals[0][1] if self.literals and self.literals[0][0] == 0 else None


_API_WORD = API.strip("/")
_API_PREFIX = _API_WORD + "/"


def in_api(path: str) -> bool:
    """Whether ``path`` is in the API's part (``/v1``), however many slashes lead it: an API
    path that no row fits is the API's JSON 404, not the web host's page (docs/api.md#limits).
    """
    bare = path.lstrip("/")
    return bare == _API_WORD or bare.startswith(_API_PREFIX)


#: one template of a table: its rows (one per method, in table order) and its pattern
_Template = tuple[tuple[Route, ...], _Pattern]


class Router:
    """A route table compiled for finding a path's row: its templates in table order, grouped
    by the number of segments a path has and by its first segment, for the API's part and the
    web host's apart. A path is tried only against the templates of its group."""

    def __init__(self, routes: Sequence[Route]) -> None:
        self.routes = tuple(routes)
        by_template: dict[str, list[Route]] = {}
        for route in routes:
            by_template.setdefault(route.template, []).append(route)
        templates = [(tuple(same), same[0].pattern) for same in by_template.values()]
        self._templates: tuple[_Template, ...] = tuple(templates)
        #: a path of more segments than this fits only templates that take the rest of a path
        self._longest = max((p.length for _, p in templates), default=0) + 1
        #: for the API's part (True) and the web host's: the fixed first segments of its
        #: templates, and its templates grouped by (segment count, first segment or None)
        self._words: dict[bool, frozenset[str | None]] = {}
        self._groups: dict[bool, dict[tuple[int, str | None], tuple[_Template, ...]]] = {}
        for api in (True, False):
            part = [t for t in templates if in_api(t[0][0].template) == api]
            words = self._words[api] = frozenset(p.first() for _, p in part) - {None}
            self._groups[api] = {
                (count, word): tuple(
                    (rows, p)
                    for rows, p in part
                    if p.fits_length(count) and p.first() in (word, None)
                )
                for count in range(1, self._longest + 1)
                for word in (*words, None)
            }

    def find(
        self, path: str, api: bool | None = None
    ) -> tuple[tuple[Route, ...], dict[str, str]] | None:
        """The rows of the template ``path`` (percent-encoded) means (the first that fits),
        in table order, with the path's arguments, decoded; None when no template fits.
        ``api`` is ``in_api(path)``, when the caller knows it already."""
        if api is None:
            api = in_api(path)
        if api and (path.startswith("//") or path.endswith("//")):
            return None
        parts = path.strip("/").split("/")
        if "%" in path:
            parts = [unquote(part) for part in parts]
        count = len(parts)
        first = parts[0]
        key = (
            count if count < self._longest else self._longest,
            first if first in self._words[api] else None,
        )
        for rows, pattern in self._groups[api][key]:
            arguments = pattern.match(parts)
            if arguments is not None:
                return rows, arguments
        return None

    def methods(self, path: str) -> tuple[str, ...]:
        """The methods ``path`` takes (HEAD beside GET); ``NotFound`` for a path no row has."""
        found = self.find(path)
        if found is None:
            raise NotFound(f"no such path: {path}")
        return _methods(found[0])

    def resolve(self, method: str, path: str) -> tuple[Route, dict[str, str]]:
        """The row for ``method`` and ``path`` with its arguments; ``NotFound`` or
        ``MethodNotAllowed`` otherwise. HEAD is answered like GET.
        """
        found = self.find(path)
        if found is None:
            raise NotFound(f"no such path: {path}")
        rows, arguments = found
        return taking(rows, method, path), arguments

    def shadowed(self, route: Route) -> bool:
        """Whether some paths of ``route``'s template are another's, which comes first in the
        table (fixed where ``route`` takes a parameter: ``/v1/stories/alice/create``) and does
        not take ``route``'s method: such a path answers ``route``'s method with a 405."""
        for rows, pattern in self._templates:
            if rows[0].template == route.template:
                return False
            if _overlap(pattern, route.pattern) and all(r.method != route.method for r in rows):
                return True
        return False


def taking(rows: Sequence[Route], method: str, path: str) -> Route:
    """The row of ``rows`` (one template's) that takes ``method`` (HEAD as GET), or
    ``MethodNotAllowed`` naming ``path`` and the methods they take."""
    wanted = "GET" if method == "HEAD" else method
    if rows[0].method == wanted:  # most templates take one method
        return rows[0]
    for route in rows:
        if route.method == wanted:
            return route
    allowed = _methods(rows)
    raise MethodNotAllowed(f"{path} takes {', '.join(allowed)}", allowed=allowed)


def _methods(rows: Sequence[Route]) -> tuple[str, ...]:
    taken = [route.method for route in rows]
    return tuple(dict.fromkeys(taken + (["HEAD"] if "GET" in taken else [])))


def _overlap(one: _Pattern, other: _Pattern) -> bool:
    """Whether a path may fit both patterns (fixed segments and segment counts compared;
    suffixes and the rest of a path taken as any segment)."""
    if one.rest is None and other.rest is None and one.length != other.length:
        return False
    if one.rest is None and other.rest is not None and one.length < other.length:
        return False
    if other.rest is None and one.rest is not None and other.length < one.length:
        return False
    fixed_one, fixed_other = dict(one.literals), dict(other.literals)
    return all(fixed_other.get(i, text) == text for i, text in fixed_one.items())
