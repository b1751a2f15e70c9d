"""``total=true`` on every list (docs/decisions.md): the answer's content holds ``total``,
the number of items across all its pages; without it nothing is counted or shown."""

from __future__ import annotations

import pytest

from tests.http._clients import Client
from tests.http._shapes import content_of, error_of
from tests.http.conftest import World

LISTS = [
    ("/v1/stories", {}, "stories"),
    ("/v1/stories/browse/latest", {}, "stories"),
    ("/v1/stories/browse/popular", {}, "stories"),
    ("/v1/stories/browse/featured", {}, "stories"),
    ("/v1/stories/browse/topic/walks", {}, "stories"),
    ("/v1/stories/alice", {}, "stories"),
    ("/v1/stories", {"tag": "walk"}, "stories"),
    ("/v1/stories/search", {"q": "walk"}, "stories"),
    ("/v1/users", {}, "users"),
]


@pytest.fixture
def five_more(world: World) -> None:
    """Five more published stories tagged #walk, of the topic walks."""
    world.publish("One", "Two", "Three", "Four", "Five", hashtags=["walk"], topics=["walks"])


def _walked(client: Client, path: str, params: dict[str, str], key: str) -> int:
    """How many items the pages of a list hold, read two at a time."""
    seen, page = 0, 1
    while items := content_of(client.get(path, {**params, "per_page": 2, "page": page}))[key]:
        seen, page = seen + len(items), page + 1
    return seen


@pytest.mark.usefixtures("five_more")
@pytest.mark.parametrize(("path", "params", "key"), LISTS, ids=[f"{p} {q}" for p, q, _ in LISTS])
def test_a_list_asked_for_its_total_counts_every_page(
    client: Client, path: str, params: dict[str, str], key: str
) -> None:
    content = content_of(client.get(path, {**params, "per_page": 2, "total": "true"}))
    assert content["total"] == _walked(client, path, params, key)
    assert len(content[key]) <= 2


@pytest.mark.usefixtures("five_more")
@pytest.mark.parametrize(("path", "params", "key"), LISTS, ids=[f"{p} {q}" for p, q, _ in LISTS])
def test_a_list_not_asked_for_its_total_shows_none(
    client: Client, path: str, params: dict[str, str], key: str
) -> None:
    assert set(content_of(client.get(path, params))) == {"page", "per_page", key}


def test_a_users_list_of_stories_counts_what_its_caller_may_see(
    client: Client, world: World
) -> None:
    public = content_of(client.get("/v1/stories/alice", {"total": "true"}))["total"]
    owner = {**world.credentials("alice"), "total": "true"}
    assert content_of(client.get("/v1/stories/alice", owner))["total"] > public


def test_total_takes_the_booleans_of_the_interface(client: Client) -> None:
    answer = client.get("/v1/stories", {"total": "maybe"})
    assert (answer.status, error_of(answer)["field"]) == (400, "total")
