"""``GET /v1/openapi.json``: a valid OpenAPI 3.1 document that describes every route, its
parameters, its success shape and its errors (issue: "HTTP, written once").
"""

from __future__ import annotations

from typing import Any

import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator

from storycore import Service
from storycore.adapters import open_store
from storycore.http.api import ROUTES
from storycore.http.routing import Route
from tests.conftest import TEST_SETTINGS

from ._clients import AppClient
from ._shapes import JSON_TYPE

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
