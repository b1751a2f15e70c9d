"""A path means one thing whatever its method: where two route templates fit a path, the one
fixed where the other takes a parameter wins (``/v1/stories/alice/create`` is create alone),
and no slug is a route word, so no story is hidden behind a route."""

from __future__ import annotations

from tests.http._clients import Client
from tests.http._shapes import error_of
from tests.http.conftest import World


def test_a_read_of_a_route_word_is_a_405_naming_the_routes_method(client: Client) -> None:
    answer = client.get("/v1/stories/alice/create")
    assert (answer.status, error_of(answer)["type"]) == (405, "method_not_allowed")
    assert answer.headers["allow"] == "POST"


def test_a_preflight_of_create_names_post_alone(client: Client) -> None:
    answer = client.request("OPTIONS", "/v1/stories/alice/create")
    assert answer.headers["access-control-allow-methods"] == "POST"


def test_a_topic_named_after_an_action_is_the_topic_list(client: Client) -> None:
    assert client.get("/v1/stories/browse/topic/save").status == 200


def test_a_story_cannot_take_a_route_word_as_its_slug(client: Client, world: World) -> None:
    story = {"title": "Publish", "slug": "publish"}
    answer = client.post_form(
        "/v1/stories/alice/create", {**world.credentials("alice"), "story": story}
    )
    assert (answer.status, error_of(answer)["type"]) == (400, "invalid_slug")


def test_a_title_that_is_a_route_word_gets_a_numbered_slug(client: Client, world: World) -> None:
    answer = client.post_form(
        "/v1/stories/alice/create", {**world.credentials("alice"), "story": {"title": "Create"}}
    )
    assert answer.json()["content"]["slug"] == "create-2"
