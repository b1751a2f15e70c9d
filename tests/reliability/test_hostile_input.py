"""Hostile input over HTTP: each gets its documented 4xx and leaves the data exactly as it was.

"As it was" is checked on the whole store: its export is the same bytes before and after.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

import orjson
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.transfer import export_lines
from storycore.http import HttpApp, HttpRequest, HttpResponse
from tests.conftest import TEST_SETTINGS


@dataclass
class Api:
    service: Service
    app: HttpApp
    credentials: dict[str, str]

    def snapshot(self) -> bytes:
        return b"".join(export_lines(self.service.store))

    def post(self, path: str, body: bytes, content_type: str = "application/json") -> HttpResponse:
        return self.app.handle(
            HttpRequest("POST", path, b"", [("content-type", content_type)], body)
        )

    def post_json(self, path: str, **params: Any) -> HttpResponse:
        return self.post(path, orjson.dumps({**self.credentials, **params}))

    def get(self, path: str, query: bytes = b"") -> HttpResponse:
        return self.app.handle(HttpRequest("GET", path, query, []))


@pytest.fixture
def api() -> Iterator[Api]:
    service = Service(open_store("sqlite://"), TEST_SETTINGS)
    service.accounts.create_user("alice", "a-password")
    key = service.accounts.create_app("app").api_key
    token = service.accounts.authenticate(key, "alice", "a-password").token
    alice = service.accounts.as_user("alice")
    service.stories.create("alice", {"title": "Kept", "slug": "kept"}, viewer=alice, publish=True)
    yield Api(service, HttpApp(service), {"api_key": key, "username": "alice", "_token": token})
    service.close()


def _error(response: HttpResponse) -> dict[str, Any]:
    body = orjson.loads(response.body)
    assert set(body) == {"error", "code"}
    assert body["code"] == response.status
    return body["error"]  # type: ignore[no-any-return]


LONG_URL = "https://a.example/" + "x" * 2048
BAD_THUMBNAIL = {
    "type": "link",
    "permalink": "https://a.example",
    "data": {"link": {"thumbnail": "javascript:x"}},
}
STORY_LIMITS = [
    ({"title": "t" * 201}, "story.title"),
    ({"description": "d" * 2001}, "story.description"),
    ({"elements": ["https://a.example/"] * 1001}, "story.elements"),
    ({"elements": [{"type": "text", "data": {"text": "w" * 20001}}]}, "story.elements.0.data.text"),
    ({"elements": [LONG_URL]}, "story.elements.0"),
    ({"thumbnail": LONG_URL}, "story.thumbnail"),
    ({"title": "nul \x00 byte"}, "story.title"),
    ({"description": "bell \x07"}, "story.description"),
    ({"topics": ["ok", "esc \x1b[31m"]}, "story.topics.1"),
    ({"elements": ["javascript:alert(1)"]}, "story.elements.0"),
    ({"elements": ["data:text/html,<script>x</script>"]}, "story.elements.0"),
    ({"elements": [BAD_THUMBNAIL]}, "story.elements.0.data.link.thumbnail"),
    ({"slug": "m\u0443-story"}, "story.slug"),  # a homoglyph: Cyrillic u
    ({"slug": "../etc"}, "story.slug"),
    ({"private": "maybe"}, "story.private"),
]  # fmt: skip


@pytest.mark.parametrize(("story", "field"), STORY_LIMITS, ids=[f for _, f in STORY_LIMITS])
def test_a_story_over_a_limit_is_refused_with_its_field_and_nothing_changes(
    api: Api, story: dict[str, Any], field: str
) -> None:
    before = api.snapshot()
    for path in ("/v1/stories/alice/create", "/v1/stories/alice/kept/save"):
        response = api.post_json(path, story={"title": "x", **story})
        assert response.status == 400
        assert _error(response)["field"] == field
    assert api.snapshot() == before


def test_a_body_over_one_mebibyte_is_413(api: Api) -> None:
    before = api.snapshot()
    response = api.post("/v1/stories/alice/create", b"{" + b" " * (1024 * 1024) + b"}")
    assert (response.status, _error(response)["type"]) == (413, "payload_too_large")
    assert api.snapshot() == before


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 5000 + b"]" * 5000,
        b'{"story": ' + b'{"a":' * 3000 + b"1" + b"}" * 3000 + b"}",
        b'{"story": {"title": "x"}, "version": 1' + b"0" * 400 + b"}",
        b'{"story": {"title": "\xff\xfe"}}',
        b"\x00\x01\x02",
        b'{"story": "{\\"title\\": \\"unterminated}',
    ],
    ids=[
        "nested-array",
        "nested-object",
        "huge-number",
        "invalid-utf8",
        "binary",
        "bad-inner-json",
    ],
)
def test_malformed_bodies_are_400_and_change_nothing(api: Api, body: bytes) -> None:
    before = api.snapshot()
    response = api.post("/v1/stories/alice/create", body)
    assert response.status == 400
    assert _error(response)["type"] == "invalid_parameter"
    assert api.snapshot() == before


@pytest.mark.parametrize(
    "query",
    [
        b"q=%FF%FE",
        b"q=ok&per_page=" + b"9" * 40,
        b"q=" + b"x" * 9000,
        b"q=a%00b",
        b"q=" + b"y" * 201,
    ],
    ids=["invalid-utf8", "huge-number", "huge-query", "nul", "over-200"],
)
def test_hostile_query_strings_are_400(api: Api, query: bytes) -> None:
    response = api.get("/v1/stories/search", query)
    assert (response.status, _error(response)["type"]) == (400, "invalid_parameter")


@pytest.mark.parametrize(
    "path",
    [
        "/v1/stories/../users",
        "/v1/stories/alice/../../etc/passwd",
        "/v1/stories/alice/..%2f..%2fetc",
        "/v1/stories/alice%2f..%2fbob/kept",
        "/v1/users/../../etc/passwd",
        "/v1/stories/" + "a" * 5000,
    ],
)
def test_path_traversal_finds_nothing(api: Api, path: str) -> None:
    response = api.get(path)
    assert response.status in (404, 405)
    assert _error(response)["type"] in ("not_found", "method_not_allowed")


@pytest.mark.parametrize(
    "path", ["/alice/../../etc/passwd.js", "/alice/../../etc/passwd", "/static/../../etc/passwd"]
)
def test_path_traversal_on_the_web_host_is_its_html_404(api: Api, path: str) -> None:
    response = api.get(path)
    assert response.status == 404
    assert dict(response.headers)["Content-Type"] == "text/html; charset=utf-8"
    assert b"root:" not in response.body


def test_cr_and_lf_never_reach_a_location_header(api: Api) -> None:
    api.service.stories.change_slug(
        "alice", "kept", "moved", viewer=api.service.accounts.as_user("alice")
    )
    for path in ("/v1/stories/alice/kept", "/alice/kept.js", "/alice/kept"):
        response = api.get(path, b"x=%0d%0aSet-Cookie:%20evil=1&y=\r\nInjected: 1")
        location = dict(response.headers)["Location"]
        assert response.status == 301
        assert "\r" not in location
        assert "\n" not in location
        assert location.split("?")[0].endswith("/moved") or location.split("?")[0].endswith(
            "/moved.js"
        )


def test_link_headers_stay_ascii_for_any_path(api: Api) -> None:
    for n in range(3):
        api.service.stories.create(
            "alice",
            {"title": f"Topic {n}", "topics": ["\u0100 \u00e9t\u00e9"]},
            viewer=api.service.accounts.as_user("alice"),
            publish=True,
        )
    response = api.get("/v1/stories/browse/topic/\u0100 \u00e9t\u00e9", b"per_page=1&page=2")
    link = dict(response.headers)["Link"]
    assert response.status == 200
    assert link.isascii()
    assert "/v1/stories/browse/topic/%C4%80%20%C3%A9t%C3%A9?" in link


HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)> </script><!-- \u2028'


def test_stored_markup_never_reaches_the_permalink_page_as_markup(api: Api) -> None:
    story = {"title": HOSTILE, "description": HOSTILE, "slug": "xss"}
    api.post_json("/v1/stories/alice/create", story=story, publish=True)
    page = api.get("/alice/xss").body.decode()
    assert "<script>alert" not in page
    assert "<img src=x" not in page
    assert "&lt;script&gt;" in page


def test_stored_markup_never_leaves_the_script_literal(api: Api) -> None:
    api.service.accounts.update(
        "alice", {"name": HOSTILE}, viewer=api.service.accounts.as_user("alice")
    )
    text_html = f"<p>{HOSTILE}</p><script>alert(3)</script>"
    story = {
        "title": HOSTILE,
        "description": HOSTILE,
        "slug": "xss-js",
        "elements": [{"type": "text", "data": {"text": text_html}}],
    }
    api.post_json("/v1/stories/alice/create", story=story, publish=True)
    script = api.get("/alice/xss-js.js").body.decode()
    assert "</script" not in script
    assert "<!--" not in script
    assert "\u2028" not in script
    assert "alert(3)" not in script  # the text element's script was sanitized away


def test_form_bodies_with_repeated_and_encoded_fields_stay_400(api: Api) -> None:
    before = api.snapshot()
    form = urlencode({**api.credentials, "story": '{"title": 5}'}) + "&" + quote("story") + "=%ZZ"
    response = api.post(
        "/v1/stories/alice/create", form.encode(), "application/x-www-form-urlencoded"
    )
    assert response.status == 400
    assert api.snapshot() == before
