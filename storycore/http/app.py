"""The HTTP face of the service, as one pure function from request to response.

It routes, reads parameters, answers in the ``{content, code}`` envelope and the error bodies
of docs/api.md#errors, and never shows a traceback. The ASGI and WSGI bindings only convert.
"""

from __future__ import annotations

import logging

import orjson

from ..errors import (
    InternalError,
    InvalidParameter,
    MethodNotAllowed,
    NotFound,
    PayloadTooLarge,
    StorycoreError,
    StoryMoved,
)
from ..model.resolvers import ContentResolver
from ..model.visibility import Viewer
from ..rules.paths import OPENAPI
from ..service import Service
from .call import Call
from .callers import caller, with_header_key
from .compression import compressed
from .conditional import cached
from .cors import Cors
from .editor import EditorUser, answer
from .hosts import request_web_url
from .messages import HttpRequest, HttpResponse, json_response
from .pages import error_answer, not_found_page
from .params import Params
from .redirects import redirect
from .routing import Cache, Credentials, Kind, Route, Router, in_api, taking
from .table import TABLE

__all__ = ["HttpApp"]

logger = logging.getLogger("storycore.http")

MAX_QUERY_STRING = 8192
_KEPT_ADDRESSES = 64
_OPENAPI_PREFIXES = 8  # the documents an app keeps: one for each prefix it is mounted under
_DOCUMENT = OPENAPI.strip("/")
# the members every request compares with, read once: reading an enum's member from its class
# costs more than finding a path's row
_API, _THE_DOCUMENT, _BY_CALLER, _EDITOR = Kind.API, Kind.DOCUMENT, Cache.BY_CALLER, Kind.EDITOR


class HttpApp:
    """Answers HTTP requests for one service. With ``compress``, text answers over 1 KiB go
    gzipped to clients that accept it (``storycore serve`` does;
    docs/api.md#caching-and-compression).

    The editor's pages are served unless ``editor`` is off (docs/editor.md). A host
    application that signs its users in itself gives ``editor_user``, which names the user of
    a request (or None): then storycore shows no sign-in form.
    """

    def __init__(
        self,
        service: Service,
        routes: tuple[Route, ...] = TABLE,
        *,
        compress: bool = False,
        editor: bool = True,
        editor_user: EditorUser | None = None,
    ) -> None:
        if not editor:
            routes = tuple(route for route in routes if route.kind is not Kind.EDITOR)
        self.service = service
        self.compress = compress
        self.editor_user = editor_user
        #: the route table answered (``table``), compiled for finding a path's row
        self.routes = routes
        self._router = Router(routes)
        self._openapi: dict[str, bytes] = {}  # the document, by the root_path it names
        # a write that stores a client's elements waits on other hosts when the resolver
        # fetches what they point to (docs/decisions.md#serving, docs/resolver.md)
        fetches = isinstance(service.resolver, ContentResolver)
        self._calling_out = tuple(r for r in routes if r.calls_out or (fetches and r.resolves))
        self._cors = Cors(service.settings.cors_origins)
        #: the service for each (scheme, Host, root_path) seen lately: checking a Host and
        #: finding its service once, not on every request
        self._addressed: dict[tuple[str, str | None, str], Service] = {}

    @property
    def body_limit(self) -> int:
        """The largest request body accepted; the bindings stop reading past it."""
        return self.service.settings.limits.request_body

    def calls_out(self, method: str, path: str) -> bool:
        """Whether answering may wait on another host (a route marked ``calls_out``): bindings
        answer such requests on threads of their own, so that no storage request waits behind
        them (docs/decisions.md#serving)."""
        parts = path.strip("/").split("/")
        return any(r.method == method and r.match(parts) is not None for r in self._calling_out)

    def too_large(self) -> HttpResponse:
        """The answer to a body over ``body_limit``."""
        return self.error(
            PayloadTooLarge(f"the request body is over the limit of {self.body_limit} bytes")
        )

    @staticmethod
    def error(exc: StorycoreError) -> HttpResponse:
        """The response an error renders itself as."""
        return json_response(exc.body(), exc.status, exc.headers())

    def handle(self, request: HttpRequest) -> HttpResponse:
        """The response to ``request``."""
        api = in_api(request.path)
        try:
            if api and request.method == "OPTIONS":
                response = self._preflight(request)
            else:
                response = self._dispatch(request, api)
        except StoryMoved as moved:
            response = self._moved(request, moved)
        except StorycoreError as exc:
            response = self.error(exc) if api else self._page_error(request, exc)
        except Exception:
            logger.exception("internal error answering %s %s", request.method, request.path)
            internal = InternalError("an internal error occurred; it has been logged")
            response = self.error(internal) if api else self._page_error(request, internal)
        if self.compress:
            response = compressed(request, response)
        if api:
            response.headers += self._cors.headers(request)
        if response.status != 304:
            response.headers.append(("Content-Length", str(len(response.body))))
        if request.method == "HEAD":
            response.body = b""
        return response

    def _page_error(self, request: HttpRequest, exc: StorycoreError) -> HttpResponse:
        """The web host's page for ``exc``: its paths answer browsers, which get no JSON. The
        OpenAPI document's path, under ``/v1``, is the API's."""
        try:
            return error_answer(self._service_for(request), exc)
        except StorycoreError:  # no service for this Host: the error as it is
            return self.error(exc)

    def _preflight(self, request: HttpRequest) -> HttpResponse:
        """A CORS preflight: what the path takes, for the origin asking
        (docs/api.md#credentials)."""
        if request.path.strip("/") == _DOCUMENT:  # however many slashes lead or end it
            return self._cors.preflight(("GET", "HEAD"))
        return self._cors.preflight(self._router.methods(request.encoded_path))

    def _service_for(self, request: HttpRequest) -> Service:
        """The service whose addresses are those of the request's web host, unless
        ``Settings.web_url`` names one (docs/api.md#credentials)."""
        if self.service.settings.web_url is not None:
            return self.service
        key = (request.scheme, request.header("host"), request.root_path)
        found = self._addressed.get(key)
        if found is None:
            web_url = request_web_url(request)
            found = self.service if web_url is None else self.service.at(web_url)
            if len(self._addressed) >= _KEPT_ADDRESSES:  # a Host is the caller's to choose
                self._addressed.clear()
            self._addressed[key] = found
        return found

    def _dispatch(self, request: HttpRequest, api: bool) -> HttpResponse:
        if len(request.query_string) > MAX_QUERY_STRING:
            raise InvalidParameter(
                f"the query string is over the limit of {MAX_QUERY_STRING} bytes"
            )
        if len(request.body) > self.body_limit:
            return self.too_large()
        found = self._router.find(request.encoded_path, api)
        if found is not None and found[0][0].kind is _THE_DOCUMENT:
            if request.method not in ("GET", "HEAD"):
                raise MethodNotAllowed(f"/{_DOCUMENT} takes GET", allowed=("GET", "HEAD"))
            document = self._openapi_response(found[0][0], request.root_path)
            return cached(request, document, private=False)
        service = self._service_for(request)
        if found is None:
            if api:
                raise NotFound(f"no such path: {request.path}")
            # the web host's answers are all about public content
            return cached(request, not_found_page(service, "page"), private=False)
        rows, arguments = found
        route = taking(rows, request.method, request.path)
        if route.kind is _EDITOR:
            return answer(service, route, request, arguments, self.editor_user)
        if route.kind is not _API:
            response: HttpResponse = route.handler(service, request, arguments)
            return cached(request, response, private=False)
        params = with_header_key(request, Params.of(request))
        viewer = self._caller(service, route, request, params)
        response = route.handler(Call(service, request, route, params, arguments, viewer))
        sent = viewer is not None and (viewer.user is not None or viewer.app is not None)
        return cached(request, response, private=sent and route.cache is _BY_CALLER)

    @staticmethod
    def _caller(
        service: Service, route: Route, request: HttpRequest, params: Params
    ) -> Viewer | None:
        """The viewer the credentials prove, resolved once, before the handler runs; None for
        a route that ignores them. Credentials sent are checked here (decisions, "HTTP"): a
        malformed one is a 400 naming it, a refused one a 401. That an operation needs a user
        (``Credentials.REQUIRED``) is the service's rule, which answers 401 without one.
        """
        if route.credentials is Credentials.NONE:
            return None
        return caller(service, request, params)

    @staticmethod
    def _moved(request: HttpRequest, moved: StoryMoved) -> HttpResponse:
        return redirect(request, f"/v1/stories/{moved.username}/{moved.slug}", moved.body())

    def _openapi_response(self, route: Route, root_path: str) -> HttpResponse:
        """The OpenAPI document of the table's API rows, made by ``route``'s handler, its server
        the prefix the app is mounted under (docs/decisions.md#the-api-reference): made once for
        each of the few prefixes an app is reached by."""
        document = self._openapi.get(root_path)
        if document is None:
            made = route.handler(self.routes, self.service.settings, root_path)
            document = orjson.dumps(made)
            if len(self._openapi) < _OPENAPI_PREFIXES:
                self._openapi[root_path] = document
        return HttpResponse(200, [("Content-Type", "application/json; charset=utf-8")], document)
