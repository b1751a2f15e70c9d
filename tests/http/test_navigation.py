"""Moving between answers: ``Link`` pages (docs/api.md#pagination), ``ETag`` and 304
(docs/api.md#stories),
301 from a retired slug (docs/api.md#slugs) and addresses under a mount prefix (issue: bindings).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.http._clients import Client
from tests.http._shapes import content_of, error_of
from tests.http.conftest import PREFIX, World

_LINK = re.compile(r'<([^>]*)>; rel="(next|prev)"')


def links(link_header: str | None) -> dict[str, tuple[str, dict[str, list[str]]]]:
    """``rel`` -> (path, query parameters) of a ``Link`` header."""
    found = {}
    for address, rel in _LINK.findall(link_header or ""):
        parts = urlsplit(address)
        found[rel] = (parts.path, parse_qs(parts.query))
    return found


@pytest.fixture
def five_more(world: World) -> list[str]:
    """Five more published stories tagged #walk: six in the public lists, five with the tag."""
    return world.publish("One", "Two", "Three", "Four", "Five", hashtags=["walk"])


# -- Link ------------------------------------------------------------------------------------


@pytest.mark.usefixtures("five_more")
def test_a_first_page_with_more_links_next_only(client: Client) -> None:
    answer = client.get("/v1/stories", {"per_page": 2})
    assert links(answer.headers.get("link")) == {
        "next": ("/v1/stories", {"per_page": ["2"], "page": ["2"]})
    }


@pytest.mark.usefixtures("five_more")
def test_a_middle_page_links_next_and_prev_with_the_same_parameters(client: Client) -> None:
    answer = client.get("/v1/stories", {"per_page": 2, "page": 2, "tag": "#walk", "order": "asc"})
    same = {"per_page": ["2"], "tag": ["#walk"], "order": ["asc"]}
    assert links(answer.headers.get("link")) == {
        "next": ("/v1/stories", {**same, "page": ["3"]}),
        "prev": ("/v1/stories", {**same, "page": ["1"]}),
    }


@pytest.mark.usefixtures("five_more")
def test_the_last_page_links_prev_only(client: Client) -> None:
    answer = client.get("/v1/stories/browse/latest", {"per_page": 2, "page": 3})
    assert len(content_of(answer)["stories"]) == 2
    assert set(links(answer.headers.get("link"))) == {"prev"}


def test_a_single_page_sends_no_link(client: Client) -> None:
    assert "link" not in client.get("/v1/stories").headers


@pytest.mark.usefixtures("five_more")
def test_walking_the_pages_returns_each_story_once(client: Client) -> None:
    seen: list[str] = []
    params: dict[str, object] = {"per_page": 4}
    path = "/v1/stories"
    while True:
        answer = client.get(path, params)
        seen += [story["slug"] for story in content_of(answer)["stories"]]
        following = links(answer.headers.get("link")).get("next")
        if following is None:
            break
        path, query = following
        params = {name: values[0] for name, values in query.items()}
    assert sorted(seen) == sorted(["open", "one", "two", "three", "four", "five"])


def test_a_page_past_the_end_is_empty_with_the_page_echoed(client: Client) -> None:
    content = content_of(client.get("/v1/users", {"page": 9, "per_page": 3}))
    assert content == {"page": 9, "per_page": 3, "users": []}


def test_the_elements_of_a_story_page_like_a_list(client: Client) -> None:
    answer = client.get("/v1/stories/alice/open", {"per_page": 1, "page": 2})
    story = content_of(answer)
    assert (story["page"], story["per_page"]) == (2, 1)
    assert [element["type"] for element in story["elements"]] == ["image"]
    assert links(answer.headers.get("link")) == {
        "next": ("/v1/stories/alice/open", {"per_page": ["1"], "page": ["3"]}),
        "prev": ("/v1/stories/alice/open", {"per_page": ["1"], "page": ["1"]}),
    }


# -- ETag ------------------------------------------------------------------------------------


def test_a_story_read_sends_an_etag(client: Client) -> None:
    etag = client.get("/v1/stories/alice/open").headers["etag"]
    assert etag.startswith('"')
    assert etag.endswith('"')


def test_if_none_match_with_the_current_etag_is_304_without_a_body(client: Client) -> None:
    etag = client.get("/v1/stories/alice/open").headers["etag"]
    answer = client.get("/v1/stories/alice/open", headers={"If-None-Match": etag})
    assert (answer.status, answer.body, answer.headers["etag"]) == (304, b"", etag)


def test_if_none_match_with_a_list_of_etags_is_304_when_one_matches(client: Client) -> None:
    etag = client.get("/v1/stories/alice/open").headers["etag"]
    answer = client.get("/v1/stories/alice/open", headers={"If-None-Match": f'"other", {etag}'})
    assert answer.status == 304


def test_a_changed_story_answers_200_to_its_old_etag(client: Client, world: World) -> None:
    etag = client.get("/v1/stories/alice/open").headers["etag"]
    client.post_form(
        "/v1/stories/alice/open/save", {**world.credentials("alice"), "story": {"title": "New"}}
    )
    answer = client.get("/v1/stories/alice/open", headers={"If-None-Match": etag})
    assert content_of(answer)["title"] == "New"
    assert answer.headers["etag"] != etag


def test_the_etag_follows_the_content_not_the_counters(client: Client) -> None:
    first = client.get("/v1/stories/alice/open").headers["etag"]
    second = client.get("/v1/stories/alice/open").headers["etag"]  # the first read was a view
    assert first == second


def test_a_weak_etag_matches_in_if_none_match(client: Client) -> None:
    etag = client.get("/v1/stories/alice/open").headers["etag"]
    for header in (f"W/{etag}", f'W/"other", W/{etag}', "*"):
        answer = client.get("/v1/stories/alice/open", headers={"If-None-Match": header})
        assert answer.status == 304, header


def test_an_etag_that_is_not_the_current_one_answers_200(client: Client) -> None:
    etag = client.get("/v1/stories/alice/open").headers["etag"]
    for header in ('"other"', etag[1:-1], f'{etag[:-1]}x"', "W/"):
        answer = client.get("/v1/stories/alice/open", headers={"If-None-Match": header})
        assert answer.status == 200, header


def test_the_etag_changes_when_the_authors_profile_does(client: Client, world: World) -> None:
    etag = client.get("/v1/stories/alice/open").headers["etag"]
    client.post_form(
        "/v1/users/alice/update", {**world.credentials("alice"), "user": {"bio": "New bio"}}
    )
    answer = client.get("/v1/stories/alice/open", headers={"If-None-Match": etag})
    assert content_of(answer)["author"]["bio"] == "New bio"
    assert answer.headers["etag"] != etag


def test_each_element_page_has_its_own_etag(client: Client) -> None:
    pages = [
        client.get("/v1/stories/alice/open", {"page": page, "per_page": size})
        for page, size in ((1, 1), (2, 1), (1, 2))
    ]
    assert len({answer.headers["etag"] for answer in pages}) == 3
    first = pages[0].headers["etag"]
    answer = client.get("/v1/stories/alice/open", {"page": 2, "per_page": 1},
                        headers={"If-None-Match": first})  # fmt: skip
    assert answer.status == 200


# -- 301 from a retired slug -----------------------------------------------------------------


def test_an_old_slug_answers_301_to_the_new_address_keeping_the_query(
    client: Client, world: World
) -> None:
    client.post_form(
        "/v1/stories/alice/open/editslug", {**world.credentials("alice"), "slug": "quay"}
    )
    answer = client.get("/v1/stories/alice/open", {"per_page": 1})
    assert (answer.status, answer.headers["location"]) == (301, "/v1/stories/alice/quay?per_page=1")
    assert answer.json()["code"] == 301


def test_a_slug_changed_by_save_also_redirects(client: Client, world: World) -> None:
    client.post_form(
        "/v1/stories/alice/open/save", {**world.credentials("alice"), "story": {"slug": "quay"}}
    )
    answer = client.get("/v1/stories/alice/open")
    assert (answer.status, answer.headers["location"]) == (301, "/v1/stories/alice/quay")


def test_an_alias_exists_only_for_callers_who_may_see_the_story(
    client: Client, world: World
) -> None:
    client.post_form(
        "/v1/stories/alice/secret/editslug", {**world.credentials("alice"), "slug": "diary"}
    )
    hidden = client.get("/v1/stories/alice/secret")
    assert (hidden.status, error_of(hidden)["type"]) == (404, "not_found")
    shown = client.get("/v1/stories/alice/secret", world.credentials("alice"))
    assert shown.status == 301
    assert shown.headers["location"].startswith("/v1/stories/alice/diary?")


def test_a_new_story_at_a_retired_slug_ends_the_alias(client: Client, world: World) -> None:
    credentials = world.credentials("alice")
    client.post_form("/v1/stories/alice/open/editslug", {**credentials, "slug": "quay"})
    client.post_form(
        "/v1/stories/alice/create",
        {**credentials, "story": {"title": "Reborn", "slug": "open"}, "publish": True},
    )
    assert content_of(client.get("/v1/stories/alice/open"))["title"] == "Reborn"


# -- under a mount prefix --------------------------------------------------------------------


def test_a_mounted_app_answers_under_its_prefix(mounted: Client) -> None:
    assert content_of(mounted.get("/v1/users/alice"))["username"] == "alice"


def test_links_of_a_mounted_app_carry_its_prefix(mounted: Client, world: World) -> None:
    world.publish("One")
    answer = mounted.get("/v1/stories", {"per_page": 1})
    assert links(answer.headers.get("link")) == {
        "next": (f"{PREFIX}/v1/stories", {"per_page": ["1"], "page": ["2"]})
    }


def test_redirects_of_a_mounted_app_carry_its_prefix(mounted: Client, world: World) -> None:
    mounted.post_form(
        "/v1/stories/alice/open/editslug", {**world.credentials("alice"), "slug": "quay"}
    )
    answer = mounted.get("/v1/stories/alice/open")
    assert (answer.status, answer.headers["location"]) == (301, f"{PREFIX}/v1/stories/alice/quay")


def test_a_mounted_app_serves_its_openapi_document(mounted: Client) -> None:
    answer = mounted.get("/v1/openapi.json")
    assert (answer.status, answer.json()["openapi"]) == (200, "3.1.0")
