"""The OpenAPI 3.1 document of API v1 (docs/decisions.md#the-api-reference), made from the route
table, the
pydantic shapes and the rules the service applies to what it receives.

Nothing in it is copied: each operation's security follows its route's ``Credentials``; the
limits are the service's ``Settings``; the written shapes are read from the classes that
validate them (``_write_schemas``); the error types are those of ``storycore.errors``, in one
``Error`` schema. What a schema allows, the service accepts, and what it forbids, the service
refuses: ``tests/fuzz/test_api_schema.py`` holds both directions with schemathesis.

The document names its server by the ``root_path`` the app is mounted under (``/stories``), so
a client built from it calls the addresses of the mounted app.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from .. import errors
from ..model.element_kinds import ELEMENT_CLASSES
from ..presentation.embed.oembed import oembed
from ..rules.ids import EVENT_ID_PATTERN, WEBHOOK_ID_PATTERN
from ..rules.usernames import RESERVED_USERNAMES
from ..settings import Settings
from ..usecases.delegation import PROVIDER_HEADER
from . import _schema_rules as rules
from ._openapi_examples import EXAMPLES, OperationExample
from ._write_schemas import write_schemas
from .routing import Credentials, Kind, Route, Router, Schema

__all__ = ["openapi_document"]

_ERROR, _ERROR_DETAIL, _ERROR_TYPE, _OEMBED = "Error", "ErrorDetail", "ErrorType", "OEmbed"
_JSON = "application/json"
_AUTHORIZATION_HEADER = "X-Verify-Credentials-Authorization"
_FORM = "application/x-www-form-urlencoded"


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


# -- errors -----------------------------------------------------------------------------------


def _error_kinds() -> Iterator[type[errors.StorycoreError]]:
    for name in errors.__all__:
        kind = getattr(errors, name)
        if isinstance(kind, type) and issubclass(kind, errors.StorycoreError):
            yield kind


def _error_types() -> dict[int, list[str]]:
    """The error types each status may carry, read from the one exception tree."""
    found: dict[int, list[str]] = {}
    for kind in _error_kinds():
        types = found.setdefault(kind.status, [])
        if kind.type not in types:
            types.append(kind.type)
    return found


_ERROR_TYPES = _error_types()


def _error_components() -> dict[str, Schema]:
    """``Error``, the body of every answer that is not a success (docs/api.md#errors)."""
    every_type = list(dict.fromkeys(t for types in _ERROR_TYPES.values() for t in types))
    return {
        _ERROR: {
            "type": "object",
            "description": "The body of every answer that is not a success; `code` is the status.",
            "required": ["error", "code"],
            "additionalProperties": False,
            "properties": {"error": _ref(_ERROR_DETAIL), "code": {"type": "integer"}},
        },
        _ERROR_DETAIL: {
            "type": "object",
            "required": ["type", "message"],
            "additionalProperties": False,
            "properties": {
                "type": _ref(_ERROR_TYPE),
                "message": {"type": "string"},
                "field": {
                    "type": "string",
                    "description": "the parameter at fault, or a dotted path into `story` or "
                    "`user` (`story.elements.3.permalink`)",
                },
            },
        },
        _ERROR_TYPE: {"type": "string", "enum": every_type},
    }


# what a 401 means on an operation that reads credentials
_CREDENTIAL_FAULTS = {
    Credentials.REQUIRED: "the operation needs a user (a bearer token, or api_key, username "
    "and _token), or the credentials sent were refused",
    Credentials.OPTIONAL: "the credentials sent were refused",
}
# every operation may meet these: a malformed query string or body, a body over the limit, a
# store that cannot be reached in time (docs/decisions.md#serving), a bug
_ANY_OPERATION = (400, 413, 500, 503)
_HEADERS_OF_STATUS: dict[int, dict[str, Schema]] = {
    429: {"Retry-After": {"required": True, "schema": {"type": "integer"}}},
    503: {"Retry-After": {"required": True, "schema": {"type": "integer"}}},
}


def _error_responses(route: Route, router: Router) -> dict[str, Any]:
    reads = route.credentials is not Credentials.NONE
    statuses = {*route.errors, *_ANY_OPERATION, *((401,) if reads else ())}
    if router.shadowed(route):
        statuses.add(405)
    responses: dict[str, Any] = {}
    for status in sorted(s for s in statuses if s >= 400):
        description = " or ".join(_ERROR_TYPES[status])
        if status == 401 and reads:
            description += f": {_CREDENTIAL_FAULTS[route.credentials]}"
        if status == 405:
            description += ": the path is another operation's, whose fixed word wins over a "
            "parameter here (a slug is never a route word: `create`), and takes another method"
        response: dict[str, Any] = {
            "description": description,
            "content": {_JSON: {"schema": _ref(_ERROR)}},
        }
        if status in _HEADERS_OF_STATUS:
            response["headers"] = _HEADERS_OF_STATUS[status]
        responses[str(status)] = response
    return responses


# -- security ---------------------------------------------------------------------------------

_BEARER, _KEY_HEADER = "bearerToken", "apiKeyHeader"
_V1 = ("api_key", "username", "_token")  # the v1 parameters, each a scheme in the query


def _security_schemes() -> dict[str, Schema]:
    text = "text without control characters (others are a 400)"
    return {
        _BEARER: {
            "type": "http",
            "scheme": "bearer",
            "description": "`Authorization: Bearer <_token>`: the token's user, through the "
            "token's application; api_key and username are then not needed, and must match "
            "when sent (docs/api.md#credentials).",
        },
        _KEY_HEADER: {
            "type": "apiKey",
            "in": "header",
            "name": "X-Api-Key",
            "description": f"the application key, in place of the api_key parameter; {text}",
        },
        "api_key": {
            "type": "apiKey",
            "in": "query",
            "name": "api_key",
            "description": f"v1: the application key (also read from the body); {text}",
        },
        "username": {
            "type": "apiKey",
            "in": "query",
            "name": "username",
            "description": f"v1: the user the call is made for, with api_key and _token (also "
            f"read from the body); {text}",
        },
        "_token": {
            "type": "apiKey",
            "in": "query",
            "name": "_token",
            "description": f"v1: the user token from POST /v1/auth, with api_key and username "
            f"(also read from the body); {text}",
        },
    }


# a user: a bearer token alone, or the three v1 parameters together (one requirement object
# holding all three), with the key as a parameter or as X-Api-Key
_A_USER: list[dict[str, list[str]]] = [
    {_BEARER: []},
    {name: [] for name in _V1},
    {_KEY_HEADER: [], **{name: [] for name in _V1[1:]}},
]
# anyone; an application key alone names the application. It is the document's default, which
# operations that need a user or ignore credentials replace: generated clients then let anyone
# call the operations anyone may call (openapi-python-client asks for a token wherever an
# operation names its own security)
_ANYONE: list[dict[str, list[str]]] = [{}, *_A_USER, {"api_key": []}, {_KEY_HEADER: []}]
_SECURITY: dict[Credentials, list[dict[str, list[str]]]] = {
    Credentials.REQUIRED: _A_USER,
    Credentials.NONE: [],
}


# -- parameters -------------------------------------------------------------------------------


def _path_schema(name: str, settings: Settings) -> Schema:
    """A path argument's schema. A username never names a reserved name (docs/api.md#credentials),
    which a fixed route may catch first (``/v1/stories/search``)."""
    if name == "username":
        reserved = rules.any_case(*sorted(RESERVED_USERNAMES))
        return {**rules.username(), "not": {"pattern": f"^{reserved}$"}}
    if name == "slug":
        return rules.slug(settings.limits.slug)
    if name == "revision":
        return {"type": "string", "pattern": "^[1-9][0-9]{0,17}$"}
    if name == "webhook":
        return rules.identifier(WEBHOOK_ID_PATTERN)
    if name == "event":
        return rules.identifier(EVENT_ID_PATTERN)
    return {**rules.path_segment(), "not": {"enum": [".", ".."]}}


def _query_parameter(name: str, schema: Schema, description: str, required: bool) -> Schema:
    value, empty = rules.may_be_empty(schema)
    parameter: Schema = {
        "name": name,
        "in": "query",
        "required": required,
        "description": description + (" (empty: as if not sent)" if empty else ""),
        "schema": value,
    }
    if empty:
        parameter["allowEmptyValue"] = True
    return parameter


def _headers(route: Route, settings: Settings) -> list[Schema]:
    """The headers an operation reads as parameters: ``X-Api-Key``, which any API call may send
    in place of the ``api_key`` parameter (docs/api.md#credentials), and delegated creation's
    own (docs/delegation.md)."""
    key: Schema = {
        "name": "X-Api-Key",
        "in": "header",
        "required": False,
        "description": "the application key, in place of the api_key parameter (both sent "
        "must be the same)",
        "schema": rules.text(),
    }
    if route.handler.__name__ != "delegated_create":
        return [key]
    providers = settings.delegation_providers
    return [
        key,
        {
            "name": PROVIDER_HEADER,
            "in": "header",
            "required": True,
            "description": "the identity provider's verify-credentials address, one of the "
            "allowlist (else a 400)",
            "schema": {"type": "string", **({"enum": list(providers)} if providers else {})},
        },
        {
            "name": _AUTHORIZATION_HEADER,
            "in": "header",
            "required": True,
            "description": "the user's OAuth `Authorization` value for that address",
            "schema": {"type": "string", "minLength": 1},
        },
    ]


def _parameters(route: Route, settings: Settings) -> list[Schema]:
    found: list[Schema] = [
        {"name": name, "in": "path", "required": True, "schema": _path_schema(name, settings)}
        for name in (s[1:-1] for s in route.segments if s.startswith("{"))
    ]
    found += _headers(route, settings)
    if route.method == "GET":
        found += [
            _query_parameter(p.name, p.schema_for(settings), p.description, p.required)
            for p in route.parameters
        ]
        found.append(
            {
                "name": "If-None-Match",
                "in": "header",
                "required": False,
                "description": "entity tags of answers held; a match (weak comparison, `*` "
                "for any) is a 304 (docs/api.md#caching-and-compression)",
                "schema": {"type": "string"},
            }
        )
    return found


def _nullable(schema: Schema) -> Schema:
    """``schema`` or ``null``: in a JSON body, ``null`` counts as not sent, unless the
    parameter's own schema takes ``null`` and says what it means (``publish_at``: a
    cancellation); ``null`` is then one branch, not two, which ``oneOf`` would refuse."""
    branches = schema.get("oneOf", [schema])
    null = {"type": "null"}
    return {"oneOf": [*branches, *([] if null in branches else [null])]}


def _request_body(route: Route, settings: Settings) -> Schema | None:
    if route.method != "POST" or not route.parameters:
        return None
    required = [p.name for p in route.parameters if p.required]
    body: dict[str, Schema] = {}
    for p in route.parameters:
        schema = p.schema_for(settings)
        body[p.name] = {**(schema if p.required else _nullable(schema))}
        if p.description:
            body[p.name]["description"] = p.description
    form = {
        name: {**rules.text_branches(schema), "description": schema.get("description", "")}
        for name, schema in body.items()
    }
    note = (
        "Parameters may also be sent in the query string; the body wins. Credentials may "
        "also be sent as body parameters."
    )
    return {
        "required": bool(required),
        "description": note,
        "content": {
            _JSON: {"schema": {"type": "object", "properties": body, "required": required}},
            _FORM: {"schema": {"type": "object", "properties": form, "required": required}},
        },
    }


# -- answers ----------------------------------------------------------------------------------


def _content_schema(route: Route) -> Schema:
    if route.content is None:
        return _ref(_OEMBED) if route.bare else {"type": "object"}
    item = _ref(route.content.__name__)
    if route.list_key is None:
        return item
    return {
        "type": "object",
        "required": ["page", "per_page", route.list_key],
        "additionalProperties": False,
        "properties": {
            "page": {"type": "integer"},
            "per_page": {"type": "integer"},
            "total": {
                "type": "integer",
                "description": "the items on every page; only when `total=true` was sent",
            },
            route.list_key: {"type": "array", "items": item},
        },
    }


def _envelope(content: Schema) -> Schema:
    return {
        "type": "object",
        "required": ["content", "code"],
        "additionalProperties": False,
        "properties": {"content": content, "code": {"const": 200}},
    }


# every GET answer carries an entity tag (docs/api.md#caching-and-compression)
_ETAG = {"description": "the answer's entity tag", "required": True, "schema": {"type": "string"}}


def _success(route: Route, example: OperationExample) -> dict[str, Any]:
    content = _content_schema(route)
    schema = content if route.bare else _envelope(content)
    media: Schema = {"schema": schema}
    if example.answer is not None:
        media["example"] = (
            example.answer if route.bare else {"content": example.answer, "code": 200}
        )
    response: dict[str, Any] = {"description": "success", "content": {_JSON: media}}
    if route.content is None and route.bare:  # oEmbed, also as XML (``format=xml``)
        response["content"]["text/xml"] = {"schema": {**schema, "xml": {"name": "oembed"}}}
    headers: dict[str, Schema] = {}
    if route.method == "GET":
        headers["ETag"] = _ETAG
        headers["Cache-Control"] = {
            "description": "public for anonymous answers about public content, else private",
            "required": True,
            "schema": {"type": "string"},
        }
    if route.method == "GET" and (route.list_key is not None or "{slug}" in route.template):
        headers["Link"] = {
            "description": 'the next and previous pages: `<address>; rel="next"`',
            "schema": {"type": "string"},
        }
    if headers:
        response["headers"] = headers
    return response


def _redirects(route: Route) -> dict[str, Any]:
    """301 for a route whose story may be asked for by a retired slug, 304 for every GET."""
    found: dict[str, Any] = {}
    if 301 in route.errors:
        found["301"] = {
            "description": "moved: the story was asked for by a retired slug; `Location` is "
            "its address now, with the same query (docs/api.md#slugs)",
            "headers": {"Location": {"required": True, "schema": {"type": "string"}}},
            "content": {_JSON: {"schema": _ref(_ERROR)}},
        }
    if route.method == "GET":
        found["304"] = {
            "description": "not modified: `If-None-Match` holds the answer's entity tag",
            "headers": {"ETag": _ETAG},
        }
    return found


_STORY_TEMPLATE = "/v1/stories/{username}/{slug}"
# the writes whose answer names a story by its slug, now: the calls on that story follow
_NAMES_A_STORY = ("create_story", "save_story", "publish_story", "edit_slug")
_WEBHOOK_TEMPLATE = "/v1/webhooks/{webhook}"


def _links(route: Route, routes: Sequence[Route]) -> dict[str, Any]:
    """What a client can call next with a story a write answers with, or with the webhook a
    registration answers with (OpenAPI links)."""
    name = route.handler.__name__
    if name in _NAMES_A_STORY:
        template = _STORY_TEMPLATE
        named = {"username": "$request.path.username", "slug": "$response.body#/content/slug"}
    elif name == "add_webhook":
        template, named = _WEBHOOK_TEMPLATE, {"webhook": "$response.body#/content/id"}
    else:
        return {}
    return {
        target.handler.__name__: {"operationId": target.handler.__name__, "parameters": named}
        for target in routes
        if target.template.startswith(template)
    }


def _operation(route: Route, router: Router, settings: Settings) -> dict[str, Any]:
    example = EXAMPLES[route.handler.__name__]
    parameters = _parameters(route, settings)
    for parameter in parameters:
        if parameter["name"] in example.parameters:
            parameter["example"] = example.parameters[parameter["name"]]
    operation: dict[str, Any] = {
        "operationId": route.handler.__name__,
        "summary": route.summary,
        "tags": list(route.tags),
        "parameters": parameters,
        "responses": {
            "200": _success(route, example),
            **_redirects(route),
            **_error_responses(route, router),
        },
    }
    if route.credentials in _SECURITY:
        operation["security"] = _SECURITY[route.credentials]
    links = _links(route, router.routes)
    if links:
        operation["responses"]["200"]["links"] = links
    body = _request_body(route, settings)
    if body is not None:
        if example.body is not None:
            body["content"][_JSON]["example"] = example.body
            body["content"][_FORM]["example"] = example.form_body()
        operation["requestBody"] = body
    return operation


def _with_kept(schemas: dict[str, Schema]) -> None:
    """Each element component with the ``kept`` an answer's element has once a picture it
    shows is kept (``shapes.KEPT_ELEMENT_CLASSES``, docs/api.md#kept-pictures), documented as
    the story detail's own ``kept``: an element is read through the classes a write validates
    with, which hold no ``kept``."""
    if "StoryDetail" not in schemas:
        return
    kept = schemas["StoryDetail"]["properties"]["kept"]
    for kind in ELEMENT_CLASSES.values():
        schemas[kind.__name__]["properties"]["kept"] = kept


def _oembed_schema() -> Schema:
    """The oEmbed answer, typed from what ``embed.oembed`` answers: the members it always
    has are required, those of a story with a kept thumbnail are not."""
    sample = oembed(
        title="", author_name="", author_url="", provider_name="", provider_url="",
        script_url="", maxwidth=None, maxheight=None, thumbnails=[("", 1, 1)],
    )  # fmt: skip
    always = oembed(
        title="", author_name="", author_url="", provider_name="", provider_url="",
        script_url="", maxwidth=None, maxheight=None,
    )  # fmt: skip
    kinds = {str: "string", int: "integer"}
    return {
        "type": "object",
        "description": (
            "An oEmbed 1.0 `rich` answer, not in the envelope (docs/api.md#the-web-host)"
        ),
        "required": list(always),
        "properties": {key: {"type": kinds[type(value)]} for key, value in sample.items()},
    }


def openapi_document(
    routes: Sequence[Route], settings: Settings, root_path: str = ""
) -> dict[str, Any]:
    """The OpenAPI 3.1 description of every API route of the table ``routes`` (``Kind.API``:
    the web host's rows are no operations of the API), answer and error, with the limits of
    ``settings`` (the service's), for an app mounted under ``root_path``.
    """
    routes = tuple(route for route in routes if route.kind is Kind.API)
    models: list[type[BaseModel]] = list({r.content for r in routes if r.content is not None})
    _, definitions = models_json_schema(
        [(model, "serialization") for model in models],
        ref_template="#/components/schemas/{model}",
    )
    _with_kept(definitions.get("$defs", {}))
    router = Router(routes)
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        operation = _operation(route, router, settings)
        paths.setdefault(route.template, {})[route.method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "storycore API",
            "version": "1",
            "description": "Curated stories: search, lists, reading, writing, profiles.",
        },
        "servers": [{"url": root_path or "/", "description": "this service"}],
        "security": _ANYONE,
        "paths": paths,
        "components": {
            "schemas": {
                **definitions.get("$defs", {}),
                **write_schemas(settings.limits),
                **_error_components(),
                _OEMBED: _oembed_schema(),
            },
            "securitySchemes": _security_schemes(),
        },
    }
