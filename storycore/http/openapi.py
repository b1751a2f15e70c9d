"""The OpenAPI 3.1 document of API v1, generated from the route table and the pydantic shapes.

Nothing in it is copied: each operation's security requirement, credential parameters and 401
follow its route's ``Credentials``; limits come from the service's ``Settings`` when the
document is made; the error types under each status come from ``storycore.errors``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from .. import errors
from ..settings import Settings
from .routing import CREDENTIALS, Credentials, Parameter, Route, Schema

__all__ = ["openapi_document"]


def _error_types() -> dict[int, list[str]]:
    """The error types each status may carry, read from the one exception tree."""
    found: dict[int, list[str]] = {}
    for name in errors.__all__:
        kind = getattr(errors, name)
        if isinstance(kind, type) and issubclass(kind, errors.StorycoreError):
            types = found.setdefault(kind.status, [])
            if kind.type not in types:
                types.append(kind.type)
    return found


_ERROR_TYPES = _error_types()

# what a 401 means on an operation that reads credentials
_CREDENTIAL_FAULTS = {
    Credentials.REQUIRED: "the operation needs the api_key, username and _token of a user, "
    "or the credentials sent were refused",
    Credentials.OPTIONAL: "the credentials sent were refused",
}

# the security requirement of each declaration: alternatives, any one of which will do
_ALL_THREE: dict[str, list[str]] = {p.name: [] for p in CREDENTIALS}
_APP_ONLY: dict[str, list[str]] = {CREDENTIALS[0].name: []}  # an api key alone names the app
_SECURITY: dict[Credentials, list[dict[str, list[str]]]] = {
    Credentials.REQUIRED: [_ALL_THREE],
    Credentials.OPTIONAL: [{}, _APP_ONLY, _ALL_THREE],
    Credentials.NONE: [],
}


def _error_body(types: list[str]) -> Schema:
    return {
        "type": "object",
        "required": ["error", "code"],
        "additionalProperties": False,
        "properties": {
            "error": {
                "type": "object",
                "required": ["type", "message"],
                "additionalProperties": False,
                "properties": {
                    "type": {"type": "string", "enum": types},
                    "message": {"type": "string"},
                    "field": {"type": "string"},
                },
            },
            "code": {"type": "integer"},
        },
    }


def _envelope(content: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["content", "code"],
        "additionalProperties": False,
        "properties": {"content": content, "code": {"const": 200}},
    }


def _content_schema(route: Route) -> dict[str, Any]:
    if route.content is None:
        return {"type": "object"}
    name = route.content.__name__
    item = {"$ref": f"#/components/schemas/{name}"}
    if route.list_key is None:
        return item
    return {
        "type": "object",
        "required": ["page", "per_page", route.list_key],
        "additionalProperties": False,
        "properties": {
            "page": {"type": "integer"},
            "per_page": {"type": "integer"},
            route.list_key: {"type": "array", "items": item},
        },
    }


def _errors(route: Route) -> dict[str, Any]:
    reads = route.credentials is not Credentials.NONE
    # a route that reads credentials refuses malformed ones (a 400) and refused ones (a 401)
    statuses = sorted({*route.errors, *((400, 401) if reads else ()), 405, 413, 500})
    responses: dict[str, Any] = {}
    for status in statuses:
        types = _ERROR_TYPES[status]
        description = " or ".join(types)
        if status == 401 and reads:
            description += f": {_CREDENTIAL_FAULTS[route.credentials]}"
        responses[str(status)] = {
            "description": description,
            "content": {"application/json": {"schema": _error_body(types)}},
        }
    return responses


def _query_parameter(parameter: Parameter, settings: Settings) -> Schema:
    return {
        "name": parameter.name,
        "in": "query",
        "required": parameter.required,
        "description": parameter.description,
        "schema": parameter.schema_for(settings),
    }


def _operation(route: Route, settings: Settings) -> dict[str, Any]:
    credentials = CREDENTIALS if route.credentials is not Credentials.NONE else ()
    path = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in (s[1:-1] for s in route.segments if s.startswith("{"))
    ]
    query = [
        *(_query_parameter(p, settings) for p in route.parameters if route.method == "GET"),
        *(_query_parameter(p, settings) for p in credentials),
    ]
    operation: dict[str, Any] = {
        "operationId": route.handler.__name__,
        "summary": route.summary,
        "tags": list(route.tags),
        "parameters": path + query,
        "security": _SECURITY[route.credentials],
        "responses": {
            "200": {
                "description": "success",
                "content": {
                    "application/json": {
                        "schema": _content_schema(route)
                        if route.bare
                        else _envelope(_content_schema(route))
                    }
                },
            },
            **_errors(route),
        },
    }
    if route.method == "POST":
        properties = {p.name: p.schema_for(settings) for p in (*route.parameters, *credentials)}
        required = [p.name for p in route.parameters if p.required]
        body = {"type": "object", "properties": properties, "required": required}
        # in a form every value is a string: objects arrive as serialized JSON
        form = {
            "type": "object",
            "properties": {
                name: {"type": "string"} if "oneOf" in schema else schema
                for name, schema in properties.items()
            },
            "required": required,
        }
        operation["requestBody"] = {
            "required": bool(required),
            "content": {
                "application/x-www-form-urlencoded": {"schema": form},
                "application/json": {"schema": body},
            },
        }
    return operation


def openapi_document(routes: Sequence[Route], settings: Settings) -> dict[str, Any]:
    """The OpenAPI 3.1 description of every route, response shape and error, with the limits
    of ``settings`` (the service's).
    """
    models: list[type[BaseModel]] = list({r.content for r in routes if r.content is not None})
    _, definitions = models_json_schema(
        [(model, "serialization") for model in models],
        ref_template="#/components/schemas/{model}",
    )
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        paths.setdefault(route.template, {})[route.method.lower()] = _operation(route, settings)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "storycore API",
            "version": "1",
            "description": "Curated stories: search, lists, reading, writing, profiles.",
        },
        "paths": paths,
        "components": {
            "schemas": definitions.get("$defs", {}),
            "securitySchemes": {
                p.name: {
                    "type": "apiKey",
                    "in": "query",
                    "name": p.name,
                    "description": p.description,
                }
                for p in CREDENTIALS
            },
        },
    }
