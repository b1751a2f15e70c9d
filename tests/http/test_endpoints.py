"""Every endpoint of the route table answers its success shape (docs/api.md#shapes and 4,
docs/api.md#calls-and-answers, docs/api.md#credentials, docs/api.md#stories, docs/delegation.md),
through ``HttpApp``.
"""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

from storycore.http.api import ROUTES
from storycore.http.routing import Route
from tests.http._clients import HOST, Client
from tests.http._shapes import (
    AUTHOR_DATE,
    AUTHOR_FULL,
    AUTHOR_SETTINGS,
    AUTHOR_STATS,
    COVER_PHOTO,
    CREATED,
    DETAIL,
    ELEMENT,
    NOTIFICATIONS,
    PROFILE,
    SEARCH_ITEM,
    SLUG_CHANGED,
    SUMMARY,
    TIMESTAMP,
    content_of,
    full_story_members_are_complete,
)
from tests.http.conftest import World

# -- lists of stories ------------------------------------------------------------------------


def test_search_answers_full_stories_with_the_full_author_and_canEdit(client: Client) -> None:
    content = content_of(client.get("/v1/stories/search", {"q": "harbour"}))
    assert (set(content), content["page"], content["per_page"]) == (
        {"page", "per_page", "stories"},
        1,
        20,
    )
    [story] = content["stories"]
    assert set(story) == SEARCH_ITEM
    assert story["slug"] == "open"
    assert story["canEdit"] is False
    full_story_members_are_complete(story)


def test_a_search_item_carries_the_full_author_shape(client: Client) -> None:
    [story] = content_of(client.get("/v1/stories/search", {"q": "harbour"}))["stories"]
    author = story["author"]
    assert set(author) == AUTHOR_FULL
    assert set(author["settings"]) == AUTHOR_SETTINGS
    assert set(author["settings"]["notifications"]) == NOTIFICATIONS
    assert set(author["stats"]) == AUTHOR_STATS
    assert set(author["date"]) == AUTHOR_DATE
    assert set(author["coverPhoto"]) == COVER_PHOTO


def test_search_shows_canEdit_to_the_author(client: Client, world: World) -> None:
    answer = client.get("/v1/stories/search", {"q": "harbour", **world.credentials("alice")})
    [story] = content_of(answer)["stories"]
    assert story["canEdit"] is True


PUBLIC_LISTS = [
    "/v1/stories",
    "/v1/stories/browse/latest",
    "/v1/stories/browse/featured",
    "/v1/stories/browse/popular",
    "/v1/stories/browse/topic/harbour",
    "/v1/stories/alice",
]


@pytest.mark.parametrize("path", PUBLIC_LISTS)
def test_a_public_list_answers_story_summaries_with_their_author(client: Client, path: str) -> None:
    content = content_of(client.get(path))
    assert set(content) == {"page", "per_page", "stories"}
    assert (content["page"], content["per_page"]) == (1, 20)
    [story] = content["stories"]
    assert set(story) == SUMMARY
    assert set(story["author"]) == PROFILE
    assert (story["slug"], story["author"]["username"]) == ("open", "alice")
    assert TIMESTAMP.match(story["created"])
    assert TIMESTAMP.match(story["updated"])


def test_the_user_list_holds_hidden_stories_for_their_author(client: Client, world: World) -> None:
    answer = client.get("/v1/stories/alice", world.credentials("alice"))
    slugs = {story["slug"] for story in content_of(answer)["stories"]}
    assert slugs == {"open", "draft", "secret"}


# -- one story -------------------------------------------------------------------------------


def test_read_answers_the_detail_with_a_page_of_elements(client: Client) -> None:
    story = content_of(client.get("/v1/stories/alice/open"))
    assert set(story) == DETAIL
    assert set(story["author"]) == PROFILE
    assert (story["page"], story["per_page"]) == (1, 20)
    assert [element["type"] for element in story["elements"]] == ["quote", "image", "text"]
    assert all(set(element) == ELEMENT for element in story["elements"])


def test_a_read_shows_the_version_a_save_checks_and_where_the_story_lives(
    client: Client, world: World
) -> None:
    story = content_of(client.get("/v1/stories/alice/open"))
    assert story["permalink"] == f"{client.web_url}/alice/open"
    assert story["shortlink"] == f"{client.web_url}/s/{story['id']}"
    stale = {**world.credentials("alice"), "story": {}, "version": story["version"] + 1}
    assert client.post_form("/v1/stories/alice/open/save", stale).status == 409
    fresh = {**world.credentials("alice"), "story": {}, "version": story["version"]}
    saved = content_of(client.post_form("/v1/stories/alice/open/save", fresh))
    assert saved["version"] == story["version"] + 1


def test_create_answers_the_summary_without_author(client: Client, world: World) -> None:
    story = {"title": "A new day", "elements": ["https://img.example/sun.png"]}
    answer = client.post_form(
        "/v1/stories/alice/create", {**world.credentials("alice"), "story": story}
    )
    created = content_of(answer)
    assert set(created) == CREATED
    assert (created["slug"], created["status"], created["private"]) == (
        "a-new-day",
        "working",
        False,
    )
    assert created["thumbnail"] == "https://img.example/sun.png"


def test_create_with_publish_answers_a_published_story(client: Client, world: World) -> None:
    answer = client.post_form(
        "/v1/stories/alice/create",
        {**world.credentials("alice"), "story": {"title": "Out now"}, "publish": "true"},
    )
    assert content_of(answer)["status"] == "published"


def test_a_json_body_may_carry_the_story_as_an_object(client: Client, world: World) -> None:
    answer = client.post_json(
        "/v1/stories/alice/create",
        {**world.credentials("alice"), "story": {"title": "As an object"}, "publish": True},
    )
    assert content_of(answer)["slug"] == "as-an-object"


def test_a_json_body_may_carry_the_story_as_a_json_string(client: Client, world: World) -> None:
    answer = client.post_json(
        "/v1/stories/alice/create",
        {**world.credentials("alice"), "story": '{"title": "As a string"}'},
    )
    assert content_of(answer)["slug"] == "as-a-string"


def test_parameters_are_also_read_from_the_query_string(client: Client, world: World) -> None:
    answer = client.request(
        "POST",
        "/v1/stories/alice/create",
        params={**world.credentials("alice"), "story": {"title": "By query"}},
    )
    assert content_of(answer)["slug"] == "by-query"


def test_the_body_wins_over_the_query_string(client: Client, world: World) -> None:
    answer = client.request(
        "POST",
        "/v1/stories/alice/create",
        params={**world.credentials("alice"), "story": {"title": "From the query"}},
        body=b'story={"title": "From the body"}',
        content_type="application/x-www-form-urlencoded",
    )
    assert content_of(answer)["title"] == "From the body"


def test_save_answers_the_detail_with_the_new_members(client: Client, world: World) -> None:
    answer = client.post_form(
        "/v1/stories/alice/draft/save",
        {**world.credentials("alice"), "story": {"title": "Finished", "elements": []}},
    )
    story = content_of(answer)
    assert set(story) == DETAIL
    assert (story["title"], story["status"], story["elements"]) == ("Finished", "working", [])


def test_publish_answers_the_detail_published(client: Client, world: World) -> None:
    answer = client.post_form("/v1/stories/alice/draft/publish", world.credentials("alice"))
    story = content_of(answer)
    assert set(story) == DETAIL
    assert story["status"] == "published"


def test_unpublish_answers_the_detail_working(client: Client, world: World) -> None:
    answer = client.post_form("/v1/stories/alice/open/unpublish", world.credentials("alice"))
    story = content_of(answer)
    assert set(story) == DETAIL
    assert story["status"] == "working"


def test_delete_answers_sid_and_deleted(client: Client, world: World) -> None:
    sid = content_of(client.get("/v1/stories/alice/open"))["id"]
    answer = client.post_form("/v1/stories/alice/open/delete", world.credentials("alice"))
    assert content_of(answer) == {"sid": sid, "deleted": True}
    assert client.get("/v1/stories/alice/open").status == 404


@pytest.mark.parametrize(("action", "listed"), [("unfeature", False), ("feature", True)])
def test_feature_and_unfeature_answer_the_summary(
    client: Client, world: World, action: str, listed: bool
) -> None:
    client.post_form("/v1/stories/alice/open/unfeature", world.credentials("cora"))
    story = content_of(
        client.post_form(f"/v1/stories/alice/open/{action}", world.credentials("cora"))
    )
    assert set(story) == SUMMARY
    featured = content_of(client.get("/v1/stories/browse/featured"))["stories"]
    assert bool(featured) is listed


def test_editslug_answers_the_full_shape_without_author_and_canEdit(
    client: Client, world: World
) -> None:
    answer = client.post_form(
        "/v1/stories/alice/open/editslug", {**world.credentials("alice"), "slug": "harbour"}
    )
    story = content_of(answer)
    assert set(story) == SLUG_CHANGED
    assert (story["slug"], story["not_indexed"]) == ("harbour", False)
    assert story["permalink"].endswith("/alice/harbour")
    full_story_members_are_complete(story)


# -- users and authentication ----------------------------------------------------------------


def test_the_user_list_answers_profiles(client: Client) -> None:
    content = content_of(client.get("/v1/users"))
    assert set(content) == {"page", "per_page", "users"}
    assert (content["page"], content["per_page"]) == (1, 20)
    assert all(set(user) == PROFILE for user in content["users"])
    assert [user["username"] for user in content["users"]] == ["alice", "bob", "cora", "ed"]


def test_read_a_user_answers_the_profile(client: Client) -> None:
    assert content_of(client.get("/v1/users/ALICE")) == {
        "username": "alice",
        "name": "Alice Liddell",
        "bio": "",
        "location": "",
        "website": "",
        "avatar": "",
    }


def test_update_answers_the_updated_profile(client: Client, world: World) -> None:
    user = {"name": "Alice L.", "bio": "Writes", "website": "https://alice.example"}
    answer = client.post_form(
        "/v1/users/alice/update", {**world.credentials("alice"), "user": user}
    )
    profile = content_of(answer)
    assert set(profile) == PROFILE
    assert (profile["name"], profile["bio"], profile["website"]) == (
        "Alice L.",
        "Writes",
        "https://alice.example",
    )
    assert content_of(client.get("/v1/users/alice")) == profile


def test_update_ignores_email_and_password(client: Client, world: World) -> None:
    user = {"name": "Alice", "email": "a@example.com", "password": "new", "username": "alice"}
    answer = client.post_json(
        "/v1/users/alice/update", {**world.credentials("alice"), "user": user}
    )
    assert content_of(answer)["name"] == "Alice"
    assert (
        client.post_form(
            "/v1/auth",
            {"api_key": world.api_key, "username": "alice", "password": "alice-password"},
        ).status
        == 200
    )


def test_auth_answers_the_profile_and_a_token(client: Client, world: World) -> None:
    answer = client.post_form(
        "/v1/auth", {"api_key": world.api_key, "username": "alice", "password": "alice-password"}
    )
    grant = content_of(answer)
    assert set(grant) == PROFILE | {"_token"}
    assert len(grant["_token"]) >= 43
    credentials = {"api_key": world.api_key, "username": "alice", "_token": grant["_token"]}
    assert content_of(client.get("/v1/stories/alice/draft", credentials))["slug"] == "draft"


# -- the public web host's API part ----------------------------------------------------------


def test_oembed_answers_a_bare_rich_object(client: Client, world: World) -> None:
    permalink = f"{client.web_url}/alice/open"
    answer = client.get("/v1/oembed", {"url": permalink, "format": "json"})
    assert (answer.status, answer.headers["content-type"]) == (
        200,
        "application/json; charset=utf-8",
    )
    oembed = answer.json()
    assert "content" not in oembed
    assert "code" not in oembed
    assert (oembed["version"], oembed["type"]) == ("1.0", "rich")
    assert f"{permalink}.js" in oembed["html"]
    assert isinstance(oembed["width"], int)
    assert isinstance(oembed["height"], int)


def test_oembed_answers_the_same_object_as_xml_for_format_xml(client: Client, world: World) -> None:
    permalink = f"{client.web_url}/alice/open"
    as_json = client.get("/v1/oembed", {"url": permalink}).json()
    answer = client.get("/v1/oembed", {"url": permalink, "format": "XML"})
    assert (answer.status, answer.headers["content-type"]) == (200, "text/xml; charset=utf-8")
    root = ElementTree.fromstring(answer.body)
    assert root.tag == "oembed"
    assert {child.tag: child.text for child in root} == {
        key: str(value) for key, value in as_json.items()
    }


def test_oembed_of_a_retired_permalink_answers_for_the_story_at_its_new_slug(
    client: Client, world: World
) -> None:
    client.post_form(
        "/v1/stories/alice/open/editslug", {"slug": "quay", **world.credentials("alice")}
    )
    answer = client.get("/v1/oembed", {"url": f"{client.web_url}/alice/open"})
    assert answer.status == 200
    assert f'src="{client.web_url}/alice/quay.js"' in answer.json()["html"]


def test_delegated_creation_answers_sid_permalink_and_shortlink(
    client: Client, world: World
) -> None:
    answer = client.post_json(
        "/v1/delegated/create",
        {"api_key": world.partner_key, "story": {"title": "From afar"}},
        headers={
            "X-Auth-Service-Provider": "https://id.example/1.1/account/verify_credentials.json",
            "X-Verify-Credentials-Authorization": 'OAuth oauth_signature="s"',
        },
    )
    created = content_of(answer)
    assert set(created) == {"sid", "permalink", "shortlink"}
    web_url = client.web_url
    assert created["permalink"] == f"{web_url}/far_away/from-afar"
    assert created["shortlink"] == f"{web_url}/s/{created['sid']}"
    assert content_of(client.get("/v1/stories/far_away/from-afar"))["status"] == "published"


# -- the transport rules ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/v1/stories/search/", "/v1/stories/", "/v1/users/alice/", "/v1/stories/alice/open/"]
)
def test_a_trailing_slash_is_optional(client: Client, path: str) -> None:
    params = {"q": "harbour"} if "search" in path else {}
    assert content_of(client.get(path, params)) == content_of(client.get(path.rstrip("/"), params))


def test_head_answers_like_get_without_a_body(client: Client) -> None:
    got = client.get("/v1/users/alice")
    head = client.request("HEAD", "/v1/users/alice")
    assert (head.status, head.body) == (200, b"")
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["content-length"] == str(len(got.body))


@pytest.mark.parametrize(
    "path", ["/v1/stories/search?q=harbour", "/v1/stories", "/v1/users", "/v1/stories/alice/open"]
)
def test_every_answer_states_its_length(client: Client, path: str) -> None:
    answer = client.get(path)
    assert answer.headers["content-length"] == str(len(answer.body))


def test_a_path_is_read_as_percent_encoded_utf8(client: Client, world: World) -> None:
    world.publish("Summer", topics=["été"])
    answer = client.get("/v1/stories/browse/topic/%C3%A9t%C3%A9")
    assert [story["title"] for story in content_of(answer)["stories"]] == ["Summer"]


# -- every route, once more: the table of valid requests covers the route table ---------------

_ALICE = "alice"
_WEBHOOK = "/v1/webhooks/{webhook}"
VALID_REQUESTS: dict[tuple[str, str], tuple[str, dict[str, object], str | None]] = {
    # (method, template): (path, parameters, whose credentials); a path naming the world's
    # webhook or event is made by ``World.at``
    ("GET", "/v1/stories/search"): ("/v1/stories/search", {"q": "harbour"}, None),
    ("GET", "/v1/stories"): ("/v1/stories", {}, None),
    ("GET", "/v1/stories/browse/latest"): ("/v1/stories/browse/latest", {}, None),
    ("GET", "/v1/stories/browse/featured"): ("/v1/stories/browse/featured", {}, None),
    ("GET", "/v1/stories/browse/popular"): ("/v1/stories/browse/popular", {}, None),
    ("GET", "/v1/stories/browse/topic/{topic}"): ("/v1/stories/browse/topic/harbour", {}, None),
    ("GET", "/v1/stories/{username}"): ("/v1/stories/alice", {}, None),
    ("POST", "/v1/stories/{username}/create"): (
        "/v1/stories/alice/create",
        {"story": {"title": "New"}},
        _ALICE,
    ),
    ("GET", "/v1/stories/{username}/{slug}"): ("/v1/stories/alice/open", {}, None),
    ("POST", "/v1/stories/{username}/{slug}/save"): (
        "/v1/stories/alice/open/save",
        {"story": {"title": "Saved"}},
        _ALICE,
    ),
    ("POST", "/v1/stories/{username}/{slug}/publish"): (
        "/v1/stories/alice/draft/publish",
        {},
        _ALICE,
    ),
    ("POST", "/v1/stories/{username}/{slug}/unpublish"): (
        "/v1/stories/alice/open/unpublish",
        {},
        _ALICE,
    ),
    ("POST", "/v1/stories/{username}/{slug}/delete"): ("/v1/stories/alice/open/delete", {}, _ALICE),
    ("POST", "/v1/stories/{username}/{slug}/feature"): (
        "/v1/stories/alice/open/feature",
        {},
        "cora",
    ),
    ("POST", "/v1/stories/{username}/{slug}/unfeature"): (
        "/v1/stories/alice/open/unfeature",
        {},
        "cora",
    ),
    ("POST", "/v1/stories/{username}/{slug}/editslug"): (
        "/v1/stories/alice/open/editslug",
        {"slug": "quay"},
        _ALICE,
    ),
    ("GET", "/v1/stories/{username}/{slug}/revisions"): (
        "/v1/stories/alice/draft/revisions",
        {},
        _ALICE,
    ),
    ("GET", "/v1/stories/{username}/{slug}/revisions/{revision}"): (
        "/v1/stories/alice/draft/revisions/1",
        {},
        _ALICE,
    ),
    ("POST", "/v1/stories/{username}/{slug}/revisions/{revision}/restore"): (
        "/v1/stories/alice/draft/revisions/1/restore",
        {"version": 2},
        _ALICE,
    ),
    ("GET", "/v1/users"): ("/v1/users", {}, None),
    ("GET", "/v1/users/{username}"): ("/v1/users/alice", {}, None),
    ("POST", "/v1/users/{username}/update"): ("/v1/users/alice/update", {"user": {}}, _ALICE),
    ("POST", "/v1/webhooks"): (
        "/v1/webhooks",
        {"url": "https://hooks.example/storycore", "events": ["story.published"]},
        "ed",
    ),
    ("GET", "/v1/webhooks"): ("/v1/webhooks", {}, "ed"),
    ("GET", _WEBHOOK): (_WEBHOOK, {}, "ed"),
    ("POST", f"{_WEBHOOK}/delete"): (f"{_WEBHOOK}/delete", {}, "ed"),
    ("GET", f"{_WEBHOOK}/deliveries"): (f"{_WEBHOOK}/deliveries", {"total": "true"}, "ed"),
    ("POST", f"{_WEBHOOK}/deliveries/{{event}}/redeliver"): (
        f"{_WEBHOOK}/deliveries/{{event}}/redeliver",
        {},
        "ed",
    ),
    ("GET", "/v1/oembed"): ("/v1/oembed", {"url": f"http://{HOST}/alice/open"}, None),
    ("POST", "/v1/delegated/create"): ("/v1/delegated/create", {"story": {"title": "x"}}, None),
    ("POST", "/v1/auth"): ("/v1/auth", {"username": "bob", "password": "bob-password"}, None),
    ("POST", "/v1/auth/revoke"): ("/v1/auth/revoke", {}, _ALICE),
}
DELEGATION = {
    "X-Auth-Service-Provider": "https://id.example/1.1/account/verify_credentials.json",
    "X-Verify-Credentials-Authorization": 'OAuth oauth_signature="s"',
}


def test_the_valid_requests_cover_the_route_table() -> None:
    assert set(VALID_REQUESTS) == {(route.method, route.template) for route in ROUTES}


@pytest.mark.parametrize("route", ROUTES, ids=[f"{r.method} {r.template}" for r in ROUTES])
def test_every_route_answers_a_valid_request_with_200(
    client: Client, world: World, route: Route
) -> None:
    path, params, username = VALID_REQUESTS[route.method, route.template]
    path = world.at(path)
    keys = {"api_key": world.partner_key if "delegated" in path else world.api_key}
    values = {**keys, **params, **world.credentials(username)}
    if route.method == "GET":
        answer = client.get(path, values)
    else:
        answer = client.post_json(path, values, headers=DELEGATION)
    assert answer.status == 200, answer.body
    if not route.bare:  # the oEmbed answer is a bare object (docs/api.md)
        content_of(answer)
