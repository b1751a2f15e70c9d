"""Addresses taken from each request when ``web_url`` is not configured (docs/api.md#credentials):
its scheme, its ``Host`` and the prefix the app is mounted under. A configured one wins."""

from __future__ import annotations

from dataclasses import replace

import pytest

from storycore import Service
from storycore.settings import DEFAULT_WEB_URL
from tests.http._clients import AppClient, Client
from tests.http._shapes import content_of, error_of
from tests.http.conftest import PREFIX, World


def _search_permalink(client: Client, headers: dict[str, str] | None = None) -> str:
    answer = client.get("/v1/stories/search", {"q": "harbour"}, headers=headers)
    found: str = content_of(answer)["stories"][0]["permalink"]
    return found


def test_permalinks_are_under_the_requests_host(client: Client) -> None:
    assert _search_permalink(client) == "http://stories.test/alice/open"


def test_another_host_gets_permalinks_under_it(client: Client) -> None:
    permalink = _search_permalink(client, {"Host": "news.example:8443"})
    assert permalink == "http://news.example:8443/alice/open"


def test_permalinks_follow_the_requests_scheme(world: World) -> None:
    client = AppClient(world.service)
    request = client.http_request("GET", "/v1/stories/search", "q=harbour", {"Host": "s.ex"}, b"")
    secure = client.app.handle(replace(request, scheme="https"))
    assert b'"permalink":"https://s.ex/alice/open"' in secure.body


def test_a_mounted_app_answers_permalinks_under_its_prefix(mounted: Client) -> None:
    assert _search_permalink(mounted) == f"http://stories.test{PREFIX}/alice/open"


def test_a_mounted_shortlink_redirects_under_the_prefix(mounted: Client) -> None:
    sid = content_of(mounted.get("/v1/stories/alice/open"))["id"]
    answer = mounted.get(f"/s/{sid}")
    assert answer.headers["location"] == f"http://stories.test{PREFIX}/alice/open"


def test_oembed_of_a_mounted_permalink_answers_the_embed_script_under_the_prefix(
    mounted: Client,
) -> None:
    answer = mounted.get("/v1/oembed", {"url": f"{mounted.web_url}/alice/open"})
    assert f'src="http://stories.test{PREFIX}/alice/open.js"' in answer.json()["html"]


def test_oembed_of_a_permalink_under_another_host_is_404(client: Client) -> None:
    answer = client.get("/v1/oembed", {"url": "http://elsewhere.example/alice/open"})
    assert answer.status == 404


def test_the_link_header_stays_under_the_prefix(mounted: Client, world: World) -> None:
    world.publish("Second harbour", "Third harbour")
    answer = mounted.get("/v1/stories/browse/latest", {"per_page": 1})
    assert answer.headers["link"].startswith(f"<{PREFIX}/v1/stories/browse/latest?")


def test_a_configured_web_url_wins_over_the_request(world: World) -> None:
    settings = world.service.settings.model_copy(update={"web_url": "https://pub.example/"})
    client = AppClient(Service(world.service.store, settings), PREFIX)
    assert _search_permalink(client) == "https://pub.example/alice/open"


def test_a_request_without_host_gets_the_default_address(world: World) -> None:
    client = AppClient(world.service)
    request = client.http_request("GET", "/v1/stories/search", "q=harbour", {}, b"")
    assert f'"permalink":"{DEFAULT_WEB_URL}/alice/open"'.encode() in client.app.handle(request).body


@pytest.mark.parametrize(
    "host", ['evil.example"><script>', "a b", "x.example/path", "user@x.example", "é.example"]
)
def test_a_host_header_that_is_no_host_is_400(client: Client, host: str) -> None:
    answer = client.get("/v1/stories/search", {"q": "harbour"}, headers={"Host": host})
    assert (answer.status, error_of(answer)["type"]) == (400, "invalid_parameter")
