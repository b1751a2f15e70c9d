"""The OpenAPI document reads its limits and enums from the core and the service's ``Settings``:
a service configured with other limits documents those limits, the sort keys are
the core's, and every error type a documented status may carry is listed under it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from storycore import Service, errors
from storycore.adapters import open_store
from storycore.http import HttpApp, HttpRequest
from storycore.model.queries import SORT_KEYS
from storycore.settings import Limits, Settings
from tests.conftest import TEST_SETTINGS

OTHER_LIMITS = Limits(per_page=50, per_page_default=10, query=80)


def _document(app: HttpApp) -> dict[str, Any]:
    answer = app.handle(HttpRequest("GET", "/v1/openapi.json"))
    assert answer.status == 200
    return orjson.loads(answer.body)  # type: ignore[no-any-return]


def _query_parameters(document: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """The schema of the query parameter ``name`` in every operation that takes it."""
    return [
        parameter["schema"]
        for operations in document["paths"].values()
        for operation in operations.values()
        for parameter in operation["parameters"]
        if parameter["in"] == "query" and parameter["name"] == name
    ]


@pytest.fixture(scope="module")
def app() -> Iterator[HttpApp]:
    """A service whose limits are not the defaults, on an empty store."""
    settings = TEST_SETTINGS.model_copy(update={"limits": OTHER_LIMITS})
    service = Service(open_store("memory://"), settings)
    yield HttpApp(service)
    service.close()


def test_the_documented_page_size_follows_the_service_settings(app: HttpApp) -> None:
    schemas = _query_parameters(_document(app), "per_page")
    assert len(schemas) >= 9  # every list, and a story's page of elements
    assert {(s["maximum"], s["default"]) for s in schemas} == {(50, 10)}


def test_the_documented_query_length_follows_the_service_settings(app: HttpApp) -> None:
    assert [s["maxLength"] for s in _query_parameters(_document(app), "q")] == [80]


def test_a_service_with_default_settings_documents_the_default_limits() -> None:
    service = Service(open_store("memory://"), Settings(password_cost=2**4))
    document = _document(HttpApp(service))
    service.close()
    defaults = Limits()
    pages = {(s["maximum"], s["default"]) for s in _query_parameters(document, "per_page")}
    assert pages == {(defaults.per_page, defaults.per_page_default)}
    assert [s["maxLength"] for s in _query_parameters(document, "q")] == [defaults.query]


def test_the_documented_page_size_maximum_is_the_largest_accepted(app: HttpApp) -> None:
    def status(per_page: int) -> int:
        query = f"per_page={per_page}".encode()
        return app.handle(HttpRequest("GET", "/v1/stories", query_string=query)).status

    assert (status(OTHER_LIMITS.per_page), status(OTHER_LIMITS.per_page + 1)) == (200, 400)


def test_the_documented_sort_keys_are_the_cores(app: HttpApp) -> None:
    schemas = _query_parameters(_document(app), "sort")
    assert schemas
    assert all(schema["enum"] == list(SORT_KEYS) for schema in schemas)


def test_every_error_type_of_a_documented_status_is_documented(app: HttpApp) -> None:
    """One ``Error`` schema, its ``type`` every type of the exception tree; each error answer
    names the types its status carries."""
    kinds = [getattr(errors, name) for name in errors.__all__]
    types: dict[str, set[str]] = {}
    for kind in kinds:
        if isinstance(kind, type) and issubclass(kind, errors.StorycoreError):
            types.setdefault(str(kind.status), set()).add(kind.type)
    document = _document(app)
    assert set(document["components"]["schemas"]["ErrorType"]["enum"]) == set().union(
        *types.values()
    )
    for operations in document["paths"].values():
        for operation in operations.values():
            for status, response in operation["responses"].items():
                if int(status) < 400:
                    continue
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}, status
                assert set(response["description"].split(":")[0].split(" or ")) == types[status]


def test_the_documented_story_limits_follow_the_service_settings() -> None:
    limits = Limits(title=30, description=40, elements=5, address=300, text_element=50, slug=9)
    service = Service(open_store("memory://"), TEST_SETTINGS.model_copy(update={"limits": limits}))
    schemas = _document(HttpApp(service))["components"]["schemas"]
    service.close()
    story = schemas["StoryWrite"]["properties"]
    assert (story["title"]["maxLength"], story["description"]["maxLength"]) == (30, 40)
    assert (story["elements"]["maxItems"], story["thumbnail"]["maxLength"]) == (5, 300)
    assert story["slug"]["anyOf"][0]["maxLength"] == 9
    assert schemas["TextDataWrite"]["properties"]["text"]["maxLength"] == 50
