# mypy: disable-error-code="union-attr"
# (a missing node fails the test with AttributeError, which says enough)
"""Any topic has a page (docs/api.md#the-web-host): a topic holding ``/``, ``?``, ``#`` or ``%``
is one segment of its addresses, percent-encoded, and every link to it uses that address; the
topic's page, its feed and its API list answer there, through ``HttpApp`` and each binding.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from selectolax.lexbor import LexborHTMLParser

from tests.http._clients import BINDINGS, Client
from tests.http.conftest import PREFIX, World

TOPICS = ["a/b", "q?x", "h#1", "50%", "%41"]


def _story(world: World, topic: str) -> str:
    """The web path of a published story about ``topic``."""
    [slug] = world.publish(f"About {topic}", topics=[topic])
    return f"/alice/{slug}"


@pytest.mark.parametrize("topic", TOPICS)
def test_a_story_links_its_topic_at_the_topic_as_one_encoded_segment(
    client: Client, world: World, topic: str
) -> None:
    page = LexborHTMLParser(client.get(_story(world, topic)).body.decode())
    [link] = page.css(".topics a")
    assert link.attributes["href"] == f"{client.web_url}/topics/{quote(topic, safe='')}"


@pytest.mark.parametrize("topic", TOPICS)
def test_a_topic_page_answers_at_its_encoded_address(
    client: Client, world: World, topic: str
) -> None:
    _story(world, topic)
    answer = client.get(f"/topics/{quote(topic, safe='')}")
    assert answer.status == 200
    assert f"About {topic}".encode() in answer.body


@pytest.mark.parametrize("topic", TOPICS)
def test_a_topic_page_answers_at_its_encoded_address_through_each_binding(
    binding: Client, world: World, topic: str
) -> None:
    _story(world, topic)
    answer = binding.get(f"/topics/{quote(topic, safe='')}")
    assert answer.status == 200
    assert f"About {topic}".encode() in answer.body


def test_a_topic_feed_answers_at_its_encoded_address(client: Client, world: World) -> None:
    _story(world, "a/b")
    answer = client.get("/topics/a%2Fb/feed.atom")
    assert answer.status == 200
    assert b"About a/b" in answer.body
    assert f'href="{client.web_url}/topics/a%2Fb/feed.atom"'.encode() in answer.body


@pytest.mark.parametrize("topic", TOPICS)
def test_the_api_lists_a_topic_at_its_encoded_address(
    client: Client, world: World, topic: str
) -> None:
    _story(world, topic)
    answer = client.get(f"/v1/stories/browse/topic/{quote(topic, safe='')}")
    assert answer.status == 200
    assert [s["title"] for s in answer.json()["content"]["stories"]] == [f"About {topic}"]


@pytest.mark.parametrize("topic", TOPICS)
def test_the_api_lists_a_topic_at_its_encoded_address_through_each_binding(
    binding: Client, world: World, topic: str
) -> None:
    _story(world, topic)
    answer = binding.get(f"/v1/stories/browse/topic/{quote(topic, safe='')}")
    assert answer.status == 200
    assert [s["title"] for s in answer.json()["content"]["stories"]] == [f"About {topic}"]


def test_the_next_page_of_a_topic_keeps_the_topic_one_segment(client: Client, world: World) -> None:
    _story(world, "a/b")
    _story(world, "a/b")
    answer = client.get("/v1/stories/browse/topic/a%2Fb", {"per_page": 1})
    assert answer.headers["link"] == (
        '</v1/stories/browse/topic/a%2Fb?per_page=1&page=2>; rel="next"'
    )


def test_a_slash_between_segments_is_still_a_separator(client: Client, world: World) -> None:
    _story(world, "a/b")
    assert client.get("/topics/a/b").status == 404


@pytest.mark.parametrize("name", sorted(BINDINGS))
def test_a_topic_answers_at_its_encoded_address_under_a_mount_prefix(
    world: World, name: str
) -> None:
    _story(world, "a/b")
    _story(world, "a/b")
    mounted = BINDINGS[name](world.service, PREFIX)
    try:
        assert mounted.get("/topics/a%2Fb").status == 200
        answer = mounted.get("/v1/stories/browse/topic/a%2Fb", {"per_page": 1})
    finally:
        mounted.close()
    assert answer.headers["link"] == (
        f'<{PREFIX}/v1/stories/browse/topic/a%2Fb?per_page=1&page=2>; rel="next"'
    )
