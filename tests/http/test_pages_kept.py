# mypy: disable-error-code="union-attr"
# (a missing node fails the test with AttributeError, which says enough)
"""Pages rendered once and answered again from memory (benchmarks/README.md) are
never stale: a story page and the front page show every write made after they were first
rendered, whatever it changed.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from tests.http._clients import Client
from tests.http.conftest import World


def _doc(client: Client, path: str) -> LexborHTMLParser:
    answer = client.get(path)
    assert answer.status == 200
    return LexborHTMLParser(answer.body.decode())


def test_a_story_page_shows_a_save_made_after_it_was_rendered(client: Client, world: World) -> None:
    assert _doc(client, "/alice/open").css_first("h1").text() == "Harbour at dawn"
    world.clock.advance(1)
    world.service.stories.save(
        "alice",
        "open",
        {
            "title": "Harbour at dusk",
            "elements": [{"type": "text", "data": {"text": "<p>Dusk</p>"}}],
        },
        viewer=world.service.accounts.as_user("alice"),
    )
    doc = _doc(client, "/alice/open")
    assert doc.css_first("h1").text() == "Harbour at dusk"
    assert [p.text() for p in doc.css(".s-element-text p")] == ["Dusk"]


def test_a_story_page_shows_its_authors_new_name(client: Client, world: World) -> None:
    assert _doc(client, "/alice/open").css_first(".byline-name").text() == "Alice Liddell"
    world.service.accounts.update(
        "alice", {"name": "Alice L."}, viewer=world.service.accounts.as_user("alice")
    )
    assert _doc(client, "/alice/open").css_first(".byline-name").text() == "Alice L."


def test_the_front_page_shows_a_storys_new_title_and_topics(client: Client, world: World) -> None:
    before = _doc(client, "/")
    assert [a.text() for a in before.css(".topics a")] == ["harbour"]
    world.clock.advance(1)
    world.service.stories.save(
        "alice",
        "open",
        {"title": "Quay at dusk", "topics": ["quay"]},
        viewer=world.service.accounts.as_user("alice"),
    )
    after = _doc(client, "/")
    assert [a.text() for a in after.css(".topics a")] == ["quay"]
    assert "Quay at dusk" in [a.text() for a in after.css(".card-title a")]


def test_the_front_page_leads_with_a_story_featured_after_it_was_rendered(
    client: Client, world: World
) -> None:
    [slug] = world.publish("Quay at dusk")
    before = client.get("/")
    assert LexborHTMLParser(before.body.decode()).css_first(".lead-title a").text() == (
        "Harbour at dawn"
    )
    world.clock.advance(1)
    world.service.stories.feature("alice", slug, viewer=world.service.accounts.as_user("cora"))
    after = client.get("/", headers={"If-None-Match": before.headers["etag"]})
    assert after.status == 200
    assert LexborHTMLParser(after.body.decode()).css_first(".lead-title a").text() == "Quay at dusk"
