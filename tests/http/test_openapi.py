"""``GET /v1/openapi.json``: a valid OpenAPI 3.1 document that describes every route, its
parameters, its success shape and its errors (issue: "HTTP, written once"), with the servers,
credentials, typed bodies, answers and examples of docs/decisions.md#the-api-reference.
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import orjson
import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator

from storycore import Service
from storycore.adapters import open_store
from storycore.http import HttpApp, HttpRequest
from storycore.http.api import ROUTES
from storycore.http.openapi import openapi_document
from storycore.http.routing import Credentials, Route
from storycore.model.element_kinds import ELEMENT_TYPES
from tests.conftest import TEST_SETTINGS
from tests.http._clients import AppClient
from tests.http._shapes import JSON_TYPE

ROUTE_IDS = [f"{route.method} {route.template}" for route in ROUTES]


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    """The document as ``HttpApp`` serves it (the bindings pass it on unchanged: see
    ``test_bindings.py``); it does not depend on the data, so one service without any serves
    every test of this module.
    """
    service = Service(open_store("memory://"), TEST_SETTINGS)
    answer = AppClient(service).get("/v1/openapi.json")
    service.close()
    assert (answer.status, answer.headers["content-type"]) == (200, JSON_TYPE)
    return answer.json()  # type: ignore[no-any-return]


def test_the_document_is_valid_openapi_3_1(document: dict[str, Any]) -> None:
    assert document["openapi"].startswith("3.1")
    OpenAPIV31SpecValidator(document).validate()


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_every_route_appears_in_the_document(document: dict[str, Any], route: Route) -> None:
    operation = document["paths"][route.template][route.method.lower()]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_every_route_documents_its_parameters(document: dict[str, Any], route: Route) -> None:
    operation = document["paths"][route.template][route.method.lower()]
    documented = {p["name"] for p in operation["parameters"]}
    if "requestBody" in operation:
        for media in operation["requestBody"]["content"].values():
            documented |= set(media["schema"]["properties"])
    path_arguments = {s[1:-1] for s in route.segments if s.startswith("{")}
    assert path_arguments | {p.name for p in route.parameters} <= documented


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_every_route_documents_its_errors(document: dict[str, Any], route: Route) -> None:
    responses = document["paths"][route.template][route.method.lower()]["responses"]
    assert {str(status) for status in route.errors} <= set(responses)


def test_the_document_describes_nothing_that_is_not_a_route(document: dict[str, Any]) -> None:
    described = {
        (method.upper(), path)
        for path, operations in document["paths"].items()
        for method in operations
        if method in ("get", "post", "put", "patch", "delete")
    }
    assert described == {(route.method, route.template) for route in ROUTES}


# -- docs/decisions.md#the-api-reference
# ---------------------------------------------------------------------

OPERATIONS = [
    (path, method, operation)
    for path, item in openapi_document(ROUTES, TEST_SETTINGS)["paths"].items()
    for method, operation in item.items()
]
OPERATION_IDS = [f"{method.upper()} {path}" for path, method, _ in OPERATIONS]
ROUTE_OF = {(route.method.lower(), route.template): route for route in ROUTES}


def _served(root_path: str) -> dict[str, Any]:
    service = Service(open_store("memory://"), TEST_SETTINGS)
    app = HttpApp(service)
    answer = app.handle(HttpRequest("GET", "/v1/openapi.json", root_path=root_path))
    again = app.handle(HttpRequest("GET", "/v1/openapi.json"))
    service.close()
    assert (answer.status, again.status) == (200, 200)
    assert orjson.loads(again.body)["servers"][0]["url"] == "/"
    return orjson.loads(answer.body)  # type: ignore[no-any-return]


def test_the_server_of_the_document_is_the_prefix_the_app_is_mounted_under() -> None:
    assert [s["url"] for s in _served("/stories")["servers"]] == ["/stories"]


def test_the_server_of_an_app_mounted_at_the_root_is_the_root(document: dict[str, Any]) -> None:
    assert [s["url"] for s in document["servers"]] == ["/"]


def test_the_document_has_the_three_kinds_of_credentials(document: dict[str, Any]) -> None:
    schemes = document["components"]["securitySchemes"]
    assert schemes["bearerToken"] == {**schemes["bearerToken"], "type": "http", "scheme": "bearer"}
    assert {(s["type"], s.get("in"), s.get("name")) for s in schemes.values()} == {
        ("http", None, None),
        ("apiKey", "header", "X-Api-Key"),
        ("apiKey", "query", "api_key"),
        ("apiKey", "query", "username"),
        ("apiKey", "query", "_token"),
    }


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_each_operation_asks_for_the_credentials_its_route_declares(
    document: dict[str, Any], route: Route
) -> None:
    operation = document["paths"][route.template][route.method.lower()]
    security = operation.get("security", document["security"])
    a_user: list[dict[str, list[str]]] = [
        {"bearerToken": []},
        {"api_key": [], "username": [], "_token": []},  # the three v1 parameters together
        {"apiKeyHeader": [], "username": [], "_token": []},
    ]
    expected = {
        Credentials.REQUIRED: a_user,
        Credentials.OPTIONAL: [{}, *a_user, {"api_key": []}, {"apiKeyHeader": []}],
        Credentials.NONE: [],
    }
    assert security == expected[route.credentials]


@pytest.mark.parametrize(("path", "method", "operation"), OPERATIONS, ids=OPERATION_IDS)
def test_every_get_takes_if_none_match_and_may_answer_304(
    path: str, method: str, operation: dict[str, Any]
) -> None:
    headers = {p["name"] for p in operation["parameters"] if p["in"] == "header"}
    assert ("If-None-Match" in headers, "304" in operation["responses"]) == (method == "get",) * 2


def test_the_read_of_a_story_by_a_retired_slug_answers_301(document: dict[str, Any]) -> None:
    moved = {
        (method, path)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if "301" in operation["responses"]
    }
    # oEmbed of a retired permalink answers for the story at its new slug (no redirect)
    assert moved == {("get", "/v1/stories/{username}/{slug}")}
    read = document["paths"]["/v1/stories/{username}/{slug}"]["get"]["responses"]["301"]
    assert read["headers"]["Location"]["required"] is True


def test_a_story_is_an_object_in_json_and_its_serialized_json_in_a_form(
    document: dict[str, Any],
) -> None:
    body = document["paths"]["/v1/stories/{username}/create"]["post"]["requestBody"]["content"]
    story = {"$ref": "#/components/schemas/StoryWrite"}
    assert story in body["application/json"]["schema"]["properties"]["story"]["oneOf"]
    form = body["application/x-www-form-urlencoded"]["schema"]["properties"]["story"]
    assert (form["type"], form["contentMediaType"], form["contentSchema"]) == (
        "string",
        "application/json",
        story,
    )


def test_the_element_objects_are_told_apart_by_type(document: dict[str, Any]) -> None:
    element = document["components"]["schemas"]["ElementWrite"]
    assert set(element["discriminator"]["mapping"]) == set(ELEMENT_TYPES)
    for kind, ref in element["discriminator"]["mapping"].items():
        schema = document["components"]["schemas"][ref.rsplit("/", 1)[1]]
        assert schema["properties"]["type"]["const"] == kind
        assert "type" in schema["required"]


def _validator(document: dict[str, Any], schema: dict[str, Any]) -> Any:
    return jsonschema_rs.validator_for(
        {**schema, "components": document["components"]}, validate_formats=True
    )


@pytest.mark.parametrize(("path", "method", "operation"), OPERATIONS, ids=OPERATION_IDS)
def test_every_operation_has_an_example_that_its_schemas_take(
    document: dict[str, Any], path: str, method: str, operation: dict[str, Any]
) -> None:
    answer = operation["responses"]["200"]["content"]["application/json"]
    _validator(document, answer["schema"]).validate(answer["example"])
    for parameter in operation["parameters"]:
        if "example" in parameter:
            _validator(document, parameter["schema"]).validate(parameter["example"])
    for media in operation.get("requestBody", {}).get("content", {}).values():
        _validator(document, media["schema"]).validate(media["example"])
    if ROUTE_OF[(method, path)].parameters and method == "post":
        assert "requestBody" in operation


def test_a_request_example_is_answered_as_documented() -> None:
    """The create example, sent by the user it names, is a success."""
    service = Service(open_store("memory://"), TEST_SETTINGS)
    service.accounts.create_user("alice", "a-password")
    key = service.accounts.create_app("docs").api_key
    token = service.accounts.authenticate(key, "alice", "a-password").token
    operation = openapi_document(ROUTES, TEST_SETTINGS)["paths"]["/v1/stories/{username}/create"]
    body = operation["post"]["requestBody"]["content"]["application/json"]["example"]
    request = HttpRequest(
        "POST",
        "/v1/stories/alice/create",
        headers=[("content-type", "application/json"), ("authorization", f"Bearer {token}")],
        body=orjson.dumps(body),
    )
    answer = HttpApp(service).handle(request)
    service.close()
    assert answer.status == 200, answer.body
