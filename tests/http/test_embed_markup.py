# mypy: disable-error-code="union-attr"
# (a missing node fails the test with AttributeError, which says enough)
"""The embed inserts the story page's markup (docs/api.md#the-web-host over
docs/api.md#the-web-host): one
renderer of elements, so the story page and the embed script never differ. Both are read
through ``HttpApp``, as a browser reads them."""

from __future__ import annotations

import pytest
from selectolax.lexbor import LexborHTMLParser

from storycore.contrib.demo import load_demo
from tests.http._clients import Client
from tests.http.conftest import World
from tests.presentation.test_embed_script import embedded_markup


@pytest.fixture
def demo_paths(world: World) -> list[str]:
    """The paths of the demo's public stories."""
    load_demo(world.service, stories=12)
    return [
        f"/{story.author.username}/{story.slug}"
        for story in world.service.catalog.latest(per_page=100).items
        if story.author.username in {"alice", "bruno", "chloe"}
    ]


def _parts(html: str) -> dict[str, str | None]:
    """What the page and the embed share, as the HTML parser writes it back."""
    doc = LexborHTMLParser(f"<html><body>{html}</body></html>")
    return {
        selector: doc.css_first(selector).html
        for selector in (".s-header .s-description", ".s-header .s-info", ".s-elements")
    }


def test_the_embed_inserts_the_story_pages_elements_and_byline(
    client: Client, demo_paths: list[str]
) -> None:
    assert len(demo_paths) >= 10
    for path in demo_paths:
        page = client.get(path).body.decode()
        script = client.get(f"{path}.js").body.decode()
        assert _parts(embedded_markup(script)) == _parts(page), path


def test_the_embed_has_the_class_names_of_decisions_9(
    client: Client, world: World, demo_paths: list[str]
) -> None:
    username, slug = demo_paths[0].strip("/").split("/")
    story = world.service.stories.read(username, slug, per_page=100)
    doc = LexborHTMLParser(embedded_markup(client.get(f"{demo_paths[0]}.js").body.decode()))
    header = doc.css_first(".s-header")
    assert [header.css_first(part).text() for part in (".s-title", ".s-description")] == [
        story.title,
        story.description,
    ]
    assert header.css_first(".s-info") is not None
    shown = [element.attributes["class"] for element in doc.css(".s-elements > .s-element")]
    assert shown == [f"s-element s-element-{element.type}" for element in story.elements]


def test_the_markup_literal_cannot_end_the_script(client: Client, world: World) -> None:
    hostile = "</script><!-- \u2028\u2029 <script>alert(1)</script>"
    world.publish(hostile, description=hostile)
    slug = world.service.catalog.latest(per_page=1).items[0].slug
    script = client.get(f"/alice/{slug}.js").body.decode()
    for breaking in ("</script", "<!--", "\u2028", "\u2029", "<script>alert"):
        assert breaking not in script
    title = LexborHTMLParser(embedded_markup(script)).css_first(".s-title").text()
    assert title == hostile
