# mypy: disable-error-code="union-attr"
# (a missing node fails the test with AttributeError, which says enough)
"""The headers every page of the web host sends (docs/api.md#the-web-host): a
``Content-Security-Policy`` that runs scripts only from the web host (no inline script, no
``eval``), allows the inlined stylesheet by its hash, pictures from any http(s) host, frames of the
configured video players only; ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy:
strict-origin-when-cross-origin``. The story page's video poster script is a file storycore
serves, never inline; the embed script, which runs on other sites, carries no page policy.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping
from urllib.parse import urlsplit

import pytest
from selectolax.lexbor import LexborHTMLParser

from storycore import Service
from storycore.http.page_headers import content_security_policy, page_headers
from storycore.rules.video_players import VideoPlayer
from tests.http._clients import AppClient, Client
from tests.http.conftest import World

JSON_LD = "application/ld+json"
VIDEO = "https://www.youtube.com/watch?v=abcdefgh123"
PAGES = {
    "front": "/",
    "story": "/alice/open",
    "author": "/alice",
    "topic": "/topics/harbour",
    "tag": "/tags/harbour",
    "search form": "/search",
    "search results": "/search?q=harbour",
    "search refused": "/search?q=" + "a" * 300,
    "missing story": "/alice/nothing-here",
    "missing user": "/nobody",
    "missing path": "/docs/nothing",
    "missing file": "/static/nothing.js",
    "missing page number": "/?page=99",
}


def _get(client: Client, path: str) -> tuple[int, Mapping[str, str], str]:
    path, _, query = path.partition("?")
    answer = client.get(path, query or None)
    return answer.status, answer.headers, answer.body.decode()


def _directives(policy: str) -> dict[str, list[str]]:
    """A policy's directives by name, each its list of sources."""
    parsed = {}
    for directive in policy.split(";"):
        name, *sources = directive.split()
        parsed[name] = sources
    return parsed


def _style_source(html: str) -> str:
    """The CSP hash source of the one ``<style>`` of ``html``, computed here from the page."""
    [style] = LexborHTMLParser(html).css("style")
    digest = hashlib.sha256(style.text().encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def _expected_policy(client: Client, style: str) -> str:
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(client.web_url))
    return (
        "default-src 'self'; "
        f"script-src 'self' {origin}; "
        f"style-src 'self' {style}; "
        "img-src http: https: data:; "
        "frame-src https://www.youtube-nocookie.com https://player.vimeo.com; "
        "object-src 'none'; "
        "base-uri 'none'; "
        f"form-action 'self' {origin}"
    )


@pytest.mark.parametrize("path", PAGES.values(), ids=PAGES.keys())
def test_every_page_sends_the_policy_nosniff_and_referrer_policy(client: Client, path: str) -> None:
    status, headers, html = _get(client, path)
    assert headers["content-type"] == "text/html; charset=utf-8", status
    assert headers["content-security-policy"] == _expected_policy(client, _style_source(html))
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "strict-origin-when-cross-origin"


def test_pages_under_a_prefix_send_the_policy(mounted: Client) -> None:
    status, headers, html = _get(mounted, "/alice/open")
    assert status == 200
    assert headers["content-security-policy"] == _expected_policy(mounted, _style_source(html))


@pytest.mark.parametrize("path", PAGES.values(), ids=PAGES.keys())
def test_no_page_allows_inline_scripts_or_eval(client: Client, path: str) -> None:
    policy = _directives(_get(client, path)[1]["content-security-policy"])
    for directive in ("script-src", "default-src", "style-src"):
        assert not {"'unsafe-inline'", "'unsafe-eval'", "*"} & set(policy[directive]), directive


@pytest.mark.parametrize("path", PAGES.values(), ids=PAGES.keys())
def test_reading_pages_may_be_framed(client: Client, path: str) -> None:
    headers = _get(client, path)[1]
    assert "frame-ancestors" not in _directives(headers["content-security-policy"])
    assert "x-frame-options" not in headers


def test_the_api_reference_sends_the_same_policy(client: Client) -> None:
    status, headers, _ = _get(client, "/docs/api")
    assert status in (200, 404)  # 404 where the apidocs extra is not installed
    [style] = [
        s for s in _directives(headers["content-security-policy"])["style-src"] if "sha" in s
    ]
    _, story_headers, story = _get(client, "/alice/open")
    assert headers["content-security-policy"] == story_headers["content-security-policy"]
    assert style == _style_source(story)
    assert headers["referrer-policy"] == "strict-origin-when-cross-origin"
    assert headers["x-content-type-options"] == "nosniff"


def test_the_api_reference_runs_no_inline_script(client: Client) -> None:
    doc = LexborHTMLParser(_get(client, "/docs/api")[2])
    assert [s.attributes.get("src") for s in doc.css("script") if not s.attributes.get("src")] == []
    assert doc.css("style, [style]") == []


def test_frame_src_is_exactly_the_origins_of_the_configured_players(world: World) -> None:
    players = (
        VideoPlayer(name="A", patterns=("x(y)",), player="https://play.example:8443/v/{id}?a=1"),
        VideoPlayer(name="B", patterns=("x(y)",), player="http://other.example/embed/{id}"),
    )
    settings = world.service.settings.model_copy(update={"video_players": players})
    with Service(world.service.store, settings) as service:
        headers = _get(AppClient(service), "/")[1]
    policy = _directives(headers["content-security-policy"])
    assert policy["frame-src"] == ["https://play.example:8443", "http://other.example"]


def test_without_players_no_frame_is_allowed(world: World) -> None:
    settings = world.service.settings.model_copy(update={"video_players": ()})
    with Service(world.service.store, settings) as service:
        headers = _get(AppClient(service), "/")[1]
    assert _directives(headers["content-security-policy"])["frame-src"] == ["'none'"]


def _video_story(world: World) -> str:
    video = {"type": "video", "permalink": VIDEO, "data": {"video": {"src": VIDEO}}}
    [slug] = world.publish("A video", elements=[video])
    return f"/alice/{slug}"


def test_the_story_page_has_no_inline_script_but_its_json_ld(client: Client, world: World) -> None:
    for path in ("/alice/open", _video_story(world)):
        doc = LexborHTMLParser(_get(client, path)[2])
        inline = [s for s in doc.css("script") if "src" not in s.attributes]
        assert [s.attributes.get("type") for s in inline] == [JSON_LD], path
        assert doc.css("[onclick], [onload], [onerror]") == [], path


def test_a_story_with_a_video_loads_the_player_script_from_the_web_host(
    client: Client, world: World
) -> None:
    doc = LexborHTMLParser(_get(client, _video_story(world))[2])
    [script] = doc.css("script[src]")
    source = script.attributes["src"]
    assert source.startswith(f"{client.web_url}/static/player.")
    assert source.endswith(".js")
    assert "defer" in script.attributes


def test_a_story_without_a_video_loads_no_script(client: Client) -> None:
    assert LexborHTMLParser(_get(client, "/alice/open")[2]).css("script[src]") == []


def test_the_player_script_is_served_with_long_caching(client: Client, world: World) -> None:
    doc = LexborHTMLParser(_get(client, _video_story(world))[2])
    path = doc.css_first("script[src]").attributes["src"].removeprefix(client.web_url)
    answer = client.get(path)
    assert answer.status == 200
    assert answer.headers["content-type"] == "application/javascript; charset=utf-8"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "a[data-player]" in answer.body.decode()
    assert "content-security-policy" not in answer.headers
    etag = answer.headers["etag"]
    assert client.get(path, headers={"If-None-Match": etag}).status == 304


def test_the_player_script_address_names_its_content(client: Client, world: World) -> None:
    doc = LexborHTMLParser(_get(client, _video_story(world))[2])
    path = doc.css_first("script[src]").attributes["src"].removeprefix(client.web_url)
    digest = hashlib.sha256(client.get(path).body).hexdigest()
    name = path.removeprefix("/static/player.").removesuffix(".js")
    assert digest.startswith(name)
    assert len(name) >= 12
    assert client.get(f"/static/player.{'0' * len(name)}.js").status == 404
    assert client.get("/static/player.js").status == 404


def test_the_embed_script_carries_no_page_policy(client: Client) -> None:
    answer = client.get("/alice/open.js")
    assert answer.status == 200
    assert "content-security-policy" not in answer.headers
    assert "referrer-policy" not in answer.headers


def test_a_page_that_must_not_be_framed_says_so() -> None:
    headers = dict(page_headers("https://news.example/site", (), framed=False))
    policy = _directives(headers["Content-Security-Policy"])
    assert policy["frame-ancestors"] == ["'none'"]
    assert headers["X-Frame-Options"] == "DENY"


def test_a_nonce_allows_the_scripts_that_carry_it() -> None:
    policy = _directives(content_security_policy("https://news.example", (), nonce="abc123"))
    assert policy["script-src"] == ["'self'", "https://news.example", "'nonce-abc123'"]
