"""Cross-origin calls from browsers (docs/api.md#credentials): every ``/v1`` answer carries the
CORS headers for an allowed origin, and ``OPTIONS`` is a preflight."""

from __future__ import annotations

import pytest

from storycore import Service
from tests.http._clients import Answer, AppClient, Client
from tests.http._shapes import error_of
from tests.http.conftest import World

PAGE = "http://pages.example:8080"
EXPOSED = "Link, ETag, Location, Retry-After"


def _preflight(client: Client, path: str, origin: str = PAGE) -> Answer:
    return client.request(
        "OPTIONS",
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type",
        },
    )


@pytest.fixture
def listed(world: World) -> Client:
    """The world's API allowing one origin only."""
    settings = world.service.settings.model_copy(update={"cors_origins": (PAGE,)})
    return AppClient(Service(world.service.store, settings))


def test_any_origin_is_allowed_by_default(client: Client) -> None:
    answer = client.get("/v1/stories", headers={"Origin": PAGE})
    assert answer.headers["access-control-allow-origin"] == "*"


def test_an_answer_exposes_the_headers_a_page_needs(client: Client) -> None:
    answer = client.get("/v1/stories", headers={"Origin": PAGE})
    assert answer.headers["access-control-expose-headers"] == EXPOSED


def test_an_error_answer_carries_the_cors_headers_too(client: Client) -> None:
    answer = client.get("/v1/stories/nobody", headers={"Origin": PAGE})
    assert (answer.status, answer.headers["access-control-allow-origin"]) == (404, "*")


def test_a_preflight_answers_204_with_the_paths_methods(client: Client) -> None:
    answer = _preflight(client, "/v1/stories/alice/open/save")
    assert answer.status == 204
    headers = answer.headers
    assert headers["access-control-allow-methods"] == "POST"
    assert headers["access-control-allow-headers"] == (
        "Authorization, Content-Type, If-None-Match, X-Api-Key"
    )
    assert headers["access-control-max-age"] == "600"
    assert headers["access-control-allow-origin"] == "*"


def test_a_preflight_of_a_read_names_get_and_head(client: Client) -> None:
    answer = _preflight(client, "/v1/stories/alice/open")
    assert answer.headers["access-control-allow-methods"] == "GET, HEAD"


def test_a_preflight_of_the_openapi_document_names_get_and_head(client: Client) -> None:
    answer = _preflight(client, "/v1/openapi.json")
    assert answer.headers["access-control-allow-methods"] == "GET, HEAD"


def test_a_preflight_for_an_unknown_path_is_a_json_404(client: Client) -> None:
    answer = _preflight(client, "/v1/no/such/path")
    assert (answer.status, error_of(answer)["type"]) == (404, "not_found")


def test_credentials_mode_is_never_allowed(client: Client) -> None:
    answer = _preflight(client, "/v1/stories")
    assert "access-control-allow-credentials" not in answer.headers


def test_a_listed_origin_is_echoed_with_vary_origin(listed: Client) -> None:
    answer = listed.get("/v1/stories", headers={"Origin": PAGE})
    assert answer.headers["access-control-allow-origin"] == PAGE
    assert "Origin" in answer.headers["vary"]


def test_an_origin_not_listed_gets_no_allow_origin(listed: Client) -> None:
    answer = listed.get("/v1/stories", headers={"Origin": "http://elsewhere.example"})
    assert "access-control-allow-origin" not in answer.headers
    assert "Origin" in answer.headers["vary"]


def test_a_preflight_from_an_origin_not_listed_allows_nothing(listed: Client) -> None:
    answer = _preflight(listed, "/v1/stories", origin="http://elsewhere.example")
    assert "access-control-allow-origin" not in answer.headers


def test_the_web_host_carries_no_cors_headers(client: Client) -> None:
    answer = client.get("/alice/open", headers={"Origin": PAGE})
    assert "access-control-allow-origin" not in answer.headers
