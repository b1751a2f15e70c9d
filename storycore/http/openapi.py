"""The OpenAPI 3.1 document of API v1, generated from the route table and the pydantic shapes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from .routing import Route

__all__ = ["openapi_document"]

# operations that take no user token: authentication itself, and delegated creation
_NO_USER_TOKEN = frozenset({"/v1/auth", "/v1/delegated/create"})

_ERROR_TYPES = {
    400: ["invalid_parameter", "invalid_slug"],
    401: ["unauthorized"],
    403: ["forbidden"],
    404: ["not_found"],
    405: ["method_not_allowed"],
    409: ["slug_taken", "version_conflict"],
    429: ["rate_limited"],
    501: ["not_implemented"],
    502: ["provider_unavailable"],
    413: ["payload_too_large"],
    500: ["internal_error"],
}

_ERROR_BODY = {
    "type": "object",
    "required": ["error", "code"],
    "additionalProperties": False,
    "properties": {
        "error": {
            "type": "object",
            "required": ["type", "message"],
            "additionalProperties": False,
            "properties": {
                "type": {"type": "string"},
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
    # a route that reads credentials refuses malformed ones (e.g. control characters)
    reads_credentials = {400} if route.template not in _NO_USER_TOKEN else set()
    statuses = sorted({*route.errors, *reads_credentials, 405, 413, 500})
    return {
        str(status): {
            "description": " or ".join(_ERROR_TYPES.get(status, ["error"])),
            "content": {"application/json": {"schema": _ERROR_BODY}},
        }
        for status in statuses
    }


def _operation(route: Route) -> dict[str, Any]:
    credentials = [
        {"name": name, "in": "query", "schema": {"type": "string"}, "required": False}
        for name in ("api_key", "username", "_token")
    ]
    parameters = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in (s[1:-1] for s in route.segments if s.startswith("{"))
    ]
    documented = [
        {
            "name": p.name,
            "in": "query",
            "required": p.required,
            "description": p.description,
            "schema": p.schema,
        }
        for p in route.parameters
        if route.method == "GET"
    ]
    operation: dict[str, Any] = {
        "operationId": route.handler.__name__,
        "summary": route.summary,
        "tags": list(route.tags),
        "parameters": parameters
        + documented
        + (credentials if route.template not in _NO_USER_TOKEN else []),
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
        properties: dict[str, Any] = {p.name: p.schema for p in route.parameters}
        if route.template not in _NO_USER_TOKEN:
            properties.update({n: {"type": "string"} for n in ("api_key", "username", "_token")})
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


def openapi_document(routes: Sequence[Route]) -> dict[str, Any]:
    """The OpenAPI 3.1 description of every route, response shape and error."""
    models: list[type[BaseModel]] = list({r.content for r in routes if r.content is not None})
    _, definitions = models_json_schema(
        [(model, "serialization") for model in models],
        ref_template="#/components/schemas/{model}",
    )
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        paths.setdefault(route.template, {})[route.method.lower()] = _operation(route)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "storycore API",
            "version": "1",
            "description": "Curated stories: search, lists, reading, writing, profiles.",
        },
        "paths": paths,
        "components": {"schemas": definitions.get("$defs", {})},
    }
