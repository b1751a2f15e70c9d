"""Bad input over HTTP (issue: "Bad input"; docs/api.md#calls-and-answers, docs/api.md#errors,
docs/api.md#pagination, docs/api.md#lists-filters-sorting-and-search, docs/api.md#limits,
docs/api.md): each
gets its 4xx error body, through ``HttpApp``. No input gives a 500 or shows a traceback.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

from storycore.http.api import ROUTES
from storycore.http.app import HttpApp
from storycore.http.messages import HttpRequest
from storycore.http.routing import Route
from tests.http._clients import FORM, JSON, Client
from tests.http._shapes import content_of, error_of
from tests.http.conftest import World

CREATE = "/v1/stories/alice/create"


def _stored_slugs(client: Client, world: World) -> set[str]:
    answer = client.get("/v1/stories/alice", world.credentials("alice"))
    return {story["slug"] for story in content_of(answer)["stories"]}


# -- bodies ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [b"{not json", b'{"story": {"title": "x"}', b"", b"[1, 2]", b'"a string"', b"null", b"\x00"],
    ids=["broken", "unterminated", "empty", "array", "string", "null", "binary"],
)
def test_a_json_body_that_is_not_an_object_is_400(
    client: Client, world: World, body: bytes
) -> None:
    answer = client.request("POST", CREATE, body=body, content_type=JSON)
    assert (answer.status, error_of(answer)["type"]) == (400, "invalid_parameter")
    assert _stored_slugs(client, world) == {"open", "draft", "secret"}


@pytest.mark.parametrize("story", ["{not json", "[1]", '"title"', "5"])
def test_a_story_field_that_is_not_a_json_object_is_400_naming_story(
    client: Client, world: World, story: str
) -> None:
    answer = client.post_form(CREATE, {**world.credentials("alice"), "story": story})
    assert answer.status == 400
    assert error_of(answer)["field"] == "story"


def test_a_user_field_that_is_not_a_json_object_is_400_naming_user(
    client: Client, world: World
) -> None:
    answer = client.post_form("/v1/users/alice/update", {**world.credentials("alice"), "user": "{"})
    assert answer.status == 400
    assert error_of(answer)["field"] == "user"


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"story=\xff\xfe", FORM),
        (b"story=%FF%FE", FORM),
        (b'{"story": {"title": "\xff"}}', JSON),
        (b'{"story": {"title": "\xed\xa0\x80"}}', JSON),  # a lone surrogate, UTF-8 encoded
    ],
    ids=["form-raw", "form-percent-encoded", "json", "json-surrogate"],
)
def test_a_body_that_is_not_utf8_is_400(
    client: Client, world: World, body: bytes, content_type: str
) -> None:
    answer = client.request(
        "POST", CREATE, params=world.credentials("alice"), body=body, content_type=content_type
    )
    assert (answer.status, error_of(answer)["type"]) == (400, "invalid_parameter")


@pytest.mark.parametrize("content_type", ["text/plain", "multipart/form-data; boundary=x"])
def test_a_body_of_another_media_type_is_400(
    client: Client, world: World, content_type: str
) -> None:
    answer = client.request(
        "POST",
        CREATE,
        params=world.credentials("alice"),
        body=b'{"story": {"title": "x"}}',
        content_type=content_type,
    )
    assert (answer.status, error_of(answer)["type"]) == (400, "invalid_parameter")


# -- wrong types -----------------------------------------------------------------------------

WRONG_TYPES = [
    (CREATE, {"story": {"title": "x"}, "publish": "maybe"}, "publish"),
    (CREATE, {"story": {"title": "x"}, "publish": 2}, "publish"),
    (CREATE, {"story": 5}, "story"),
    (CREATE, {"story": {"title": 5}}, "story.title"),
    (CREATE, {"story": {"title": "x", "private": "maybe"}}, "story.private"),
    (CREATE, {"story": {"title": "x", "elements": "https://a.example"}}, "story.elements"),
    (CREATE, {"story": {"title": "x", "elements": [5]}}, "story.elements.0"),
    (CREATE, {"story": {"title": "x", "topics": "harbour"}}, "story.topics"),
    (CREATE, {"story": {"title": "x", "thumbnail": "javascript:alert(1)"}}, "story.thumbnail"),
    ("/v1/stories/alice/open/save", {"story": {}, "version": "seven"}, "version"),
    ("/v1/stories/alice/open/save", {"story": {}, "version": True}, "version"),
    ("/v1/stories/alice/open/editslug", {"slug": 5}, "slug"),
    ("/v1/stories/alice/open/editslug", {}, "slug"),
    ("/v1/users/alice/update", {"user": [1]}, "user"),
    ("/v1/users/alice/update", {"user": {"website": "javascript:x"}}, "user.website"),
    ("/v1/users/alice/update", {"user": {"username": "bob"}}, "user.username"),
    ("/v1/auth", {"username": 5, "password": "x"}, "username"),
]


@pytest.mark.parametrize(
    ("path", "params", "field"), WRONG_TYPES, ids=[f"{p}-{f}" for p, _, f in WRONG_TYPES]
)
def test_a_parameter_of_the_wrong_type_is_400_naming_it(
    client: Client, world: World, path: str, params: dict[str, Any], field: str
) -> None:
    answer = client.post_json(path, {**world.credentials("alice"), **params})
    error = error_of(answer)
    assert (answer.status, error["field"]) == (400, field), error


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"page": 0}, "page"),
        ({"page": -1}, "page"),
        ({"page": "two"}, "page"),
        ({"per_page": 0}, "per_page"),
        ({"per_page": 101}, "per_page"),
        ({"per_page": "1.5"}, "per_page"),
        ({"per_page": "9" * 40}, "per_page"),
    ],
)
def test_a_page_out_of_range_is_400_naming_it(
    client: Client, params: dict[str, Any], field: str
) -> None:
    for path in ("/v1/stories", "/v1/users", "/v1/stories/alice/open"):
        answer = client.get(path, params)
        assert (answer.status, error_of(answer)["field"]) == (400, field)


@pytest.mark.parametrize("page", [2**63 - 1, 2**64, str(2**63 - 1)])
def test_a_page_no_store_can_count_to_is_400_naming_page_on_every_list_and_read(
    client: Client, world: World, page: object
) -> None:
    routes = [r for r in ROUTES if r.method == "GET" and "page" in {p.name for p in r.parameters}]
    assert routes
    for route in routes:
        sent = {"page": page, "q": "harbour", "url": "x", **_caller(world, route)}
        body = json.dumps(sent).encode()
        answer = client.request(
            "GET", _concrete(route.template, world), body=body, content_type=JSON
        )
        assert (answer.status, error_of(answer)["field"]) == (400, "page"), route.template


@pytest.mark.parametrize("number", [2**63, 2**64 + 1, -(2**63) - 1])
def test_integers_beyond_the_stores_range_are_400_never_500(
    client: Client, world: World, number: int
) -> None:
    paths = [_concrete(route.template, world) for route in ROUTES]  # before any is deleted
    for route, path in zip(ROUTES, paths, strict=True):
        params = {"page": number, "per_page": number, "version": number, "maxwidth": number}
        body = json.dumps({**_caller(world, route), **params, "story": {}}).encode()
        answer = client.request(route.method, path, body=body, content_type=JSON)
        assert answer.status < 500, (route.template, answer.body)


def test_a_page_of_the_wrong_json_type_is_400(client: Client) -> None:
    answer = client.request("GET", "/v1/users", body=b'{"per_page": true}', content_type=JSON)
    assert (answer.status, error_of(answer)["field"]) == (400, "per_page")


@pytest.mark.parametrize("value", ["true", "FALSE", "1", "0", "Yes", "no"])
def test_booleans_are_true_false_1_0_yes_no_in_any_case(
    client: Client, world: World, value: str
) -> None:
    answer = client.post_form(
        CREATE, {**world.credentials("alice"), "story": {"title": "x"}, "publish": value}
    )
    expected = "published" if value.lower() in ("true", "1", "yes") else "working"
    assert content_of(answer)["status"] == expected


@pytest.mark.parametrize("value", ["", "maybe", "2", "on"])
def test_any_other_boolean_is_400(client: Client, world: World, value: str) -> None:
    answer = client.post_form(
        CREATE, {**world.credentials("alice"), "story": {"title": "x"}, "publish": value}
    )
    assert (answer.status, error_of(answer)["field"]) == (400, "publish")


@pytest.mark.parametrize("q", ["", "   ", "x" * 201])
def test_a_search_without_words_or_over_200_characters_is_400(client: Client, q: str) -> None:
    answer = client.get("/v1/stories/search", {"q": q})
    assert (answer.status, error_of(answer)["field"]) == (400, "q")


def test_a_search_without_q_is_400(client: Client) -> None:
    answer = client.get("/v1/stories/search")
    assert (answer.status, error_of(answer)["field"]) == (400, "q")


# -- sorting and filters ---------------------------------------------------------------------

SORTED_LISTS = ["/v1/stories", "/v1/stories/browse/topic/harbour", "/v1/stories/alice"]


@pytest.mark.parametrize("path", SORTED_LISTS)
@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"sort": "nope"}, "sort"),
        ({"sort": "stats.likes"}, "sort"),
        ({"sort": "TITLE"}, "sort"),
        ({"order": "sideways"}, "order"),
    ],
)
def test_an_unknown_sort_or_order_is_400(
    client: Client, path: str, params: dict[str, str], field: str
) -> None:
    answer = client.get(path, params)
    assert (answer.status, error_of(answer)["field"]) == (400, field)


@pytest.mark.parametrize("value", ["deleted", "working,nope", "published;working"])
def test_an_unknown_filter_is_400(client: Client, world: World, value: str) -> None:
    answer = client.get("/v1/stories/alice", {"filter": value, **world.credentials("alice")})
    assert (answer.status, error_of(answer)["field"]) == (400, "filter")


@pytest.mark.parametrize(
    "path",
    ["/v1/stories/browse/latest", "/v1/stories/browse/popular", "/v1/stories/browse/featured"],
)
def test_sort_and_order_are_ignored_on_the_fixed_order_lists(client: Client, path: str) -> None:
    answer = client.get(path, {"sort": "nope", "order": "sideways"})
    assert [story["slug"] for story in content_of(answer)["stories"]] == ["open"]


# -- size ------------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_413_and_stores_nothing(client: Client, world: World) -> None:
    limit = world.service.settings.limits.request_body
    body = orjson.dumps(
        {**world.credentials("alice"), "story": {"title": "Big", "description": "d" * limit}}
    )
    answer = client.request("POST", CREATE, body=body, content_type=JSON)
    assert (answer.status, error_of(answer)["type"]) == (413, "payload_too_large")
    assert _stored_slugs(client, world) == {"open", "draft", "secret"}


def test_a_body_at_the_limit_is_accepted(client: Client, world: World) -> None:
    limit = world.service.settings.limits.request_body
    body = orjson.dumps({**world.credentials("alice"), "story": {"title": "Just fits"}})
    answer = client.request(
        "POST", CREATE, body=body + b" " * (limit - len(body)), content_type=JSON
    )
    assert content_of(answer)["slug"] == "just-fits"


@pytest.mark.parametrize(
    "query",
    [
        "q=" + "x" * 9000,
        "&".join(f"p{n}=1" for n in range(2000)),
        "q=harbour&" + "&".join(f"p{n}=1" for n in range(300)),
    ],
    ids=["one-huge-value", "huge", "too-many-fields"],
)
def test_a_huge_query_string_is_400(client: Client, query: str) -> None:
    for method, path in (("GET", "/v1/stories/search"), ("POST", CREATE)):
        answer = client.request(method, path, params=query)
        assert (answer.status, error_of(answer)["type"]) == (400, "invalid_parameter")


@pytest.mark.parametrize("query", ["q=%FF%FE", "q=a%00b", "q=ok&tag=%C3"])
def test_a_query_string_that_is_not_clean_utf8_text_is_400(client: Client, query: str) -> None:
    answer = client.get("/v1/stories/search", query)
    assert (answer.status, error_of(answer)["type"]) == (400, "invalid_parameter")


# -- paths and methods -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/v1",
        "/v1/nothing",
        "/v1/stories/alice/open/save/more",
        "/v1/users/alice/update/now",
        "/v1/stories//open",
    ],
)
def test_an_unknown_api_path_is_404(client: Client, path: str) -> None:
    for method in ("GET", "POST"):
        answer = client.request(method, path)
        assert (answer.status, error_of(answer)["type"]) == (404, "not_found")


@pytest.mark.parametrize("path", ["/nothing/here/at/all", "/s/"])
def test_an_unknown_web_path_is_the_web_hosts_html_404(client: Client, path: str) -> None:
    answer = client.get(path)
    assert (answer.status, answer.headers["content-type"]) == (404, "text/html; charset=utf-8")


@pytest.mark.parametrize("path", ["//v1/stories", "///v1/users", "//v1", "//v1/openapi.json"])
def test_an_api_path_with_leading_slashes_is_the_apis_json_404(world: World, path: str) -> None:
    # HTTP clients read "//v1/..." as a host name, so the request goes to HttpApp as sent
    answer = HttpApp(world.service).handle(HttpRequest("GET", path))
    assert dict(answer.headers)["Content-Type"] == "application/json; charset=utf-8"
    assert answer.status == 404
    assert orjson.loads(answer.body)["error"]["type"] == "not_found"


@pytest.mark.parametrize(
    "path",
    [
        "/v1/stories/nobody",
        "/v1/stories/nobody/open",
        "/v1/stories/alice/nothing",
        "/v1/users/nobody",
        "/v1/stories/browse/nothing",
    ],
)
def test_an_unknown_user_or_story_is_404(client: Client, path: str) -> None:
    answer = client.get(path)
    assert (answer.status, error_of(answer)["type"]) == (404, "not_found")


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("PUT", "/v1/stories", "GET, HEAD"),
        ("POST", "/v1/stories/search", "GET, HEAD"),
        ("DELETE", "/v1/stories/alice/open", "GET, HEAD"),
        ("POST", "/v1/users/alice", "GET, HEAD"),
        ("PATCH", "/v1/users/alice/update", "POST"),
        ("GET", "/v1/auth", "POST"),
        ("GET", "/v1/stories/alice/open/save", "POST"),
        ("GET", "/v1/delegated/create", "POST"),
        ("TRACE", "/v1/stories", "GET, HEAD"),
        ("POST", "/v1/openapi.json", "GET, HEAD"),
    ],
)
def test_a_known_path_with_another_method_is_405_with_allow(
    client: Client, method: str, path: str, allow: str
) -> None:
    answer = client.request(method, path)
    assert (answer.status, error_of(answer)["type"]) == (405, "method_not_allowed")
    assert answer.headers["allow"] == allow


# -- nothing gives a 500 ---------------------------------------------------------------------


def _concrete(template: str, world: World) -> str:
    """A path of ``template`` naming what the world holds."""
    path = template.format(
        username="alice", slug="open", topic="harbour", revision="1", webhook="{webhook}",
        event="{event}",
    )  # fmt: skip
    return world.at(path)


def _caller(world: World, route: Route) -> dict[str, str]:
    """The credentials of who may call ``route`` on the world: alice, or ed for the routes
    only an editor may call (the webhooks), so that its parameters are read."""
    return world.credentials("ed" if "webhooks" in route.tags else "alice")


GARBAGE = {
    "story": 5,
    "user": 5,
    "q": 5,
    "page": True,
    "per_page": [],
    "publish": {},
    "version": [],
    "slug": 5,
    "sort": 5,
    "order": 5,
    "filter": 5,
    "tag": 5,
    "permalink": 5,
    "containingElement": 5,
    "url": 5,
    "format": 5,
    "maxwidth": "x",
    "maxheight": -1,
    "password": 5,
}
NESTED_GARBAGE = {
    "story": {
        "title": [],
        "elements": [5, {"type": "nope"}, {}, {"type": "image", "data": 5}],
        "topics": "x",
        "hashtags": {},
        "private": 2,
        "slug": [],
    },
    "user": {"name": [], "website": 5, "bio": {}},
    "publish": "maybe",
}
FORM_GARBAGE = (
    "story=%7B&user=%5B&q=&page=0&per_page=x&publish=maybe&version=x&slug=&url=javascript:x"
    "&format=&maxwidth=-5&sort=&order=&filter=&tag=%23&permalink=%00"
)


@pytest.mark.parametrize("route", ROUTES, ids=[f"{r.method} {r.template}" for r in ROUTES])
def test_no_input_gives_a_500(client: Client, world: World, route: Any) -> None:
    path = _concrete(route.template, world)
    credentials = _caller(world, route)
    attempts = [
        (b"{not json", JSON),
        (b"\xff\xfe\x00", FORM),
        (orjson.dumps({**credentials, **GARBAGE}), JSON),
        (orjson.dumps({**credentials, **NESTED_GARBAGE}), JSON),
        (FORM_GARBAGE.encode(), FORM),
    ]
    for body, content_type in attempts:
        answer = client.request(
            route.method, path, params=credentials, body=body, content_type=content_type
        )
        assert answer.status < 500, (body, answer.body)
        if answer.status >= 400:
            error_of(answer)
