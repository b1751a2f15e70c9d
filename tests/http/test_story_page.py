# mypy: disable-error-code="union-attr"
# (a missing node fails the test with AttributeError, which says enough)
"""The story page people want to read on (docs/api.md#the-web-host): the story's picture leads
its first page, the byline says how long the story takes to read, and after the story come
its author's card and up to three more of their public stories, which show at once when the
author writes (and change the page's ``ETag``).
"""

from __future__ import annotations

import itertools
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from tests.http._clients import Client
from tests.http.conftest import World

LEAD = "https://img.example/lead.jpg"


def _doc(client: Client, path: str, page: int | None = None) -> LexborHTMLParser:
    answer = client.get(path, {"page": str(page)} if page else None)
    assert answer.status == 200
    return LexborHTMLParser(answer.body.decode())


def _texts(count: int, words: int = 1) -> list[dict[str, Any]]:
    line = " ".join(["word"] * words)
    return [{"type": "text", "data": {"text": f"<p>{line}</p>"}} for _ in range(count)]


def _image(src: str) -> dict[str, Any]:
    return {"type": "image", "data": {"image": {"src": src, "caption": "A quay"}}}


def _more(doc: LexborHTMLParser) -> list[str]:
    return [a.text() for a in doc.css(".more-stories .card-title a")]


# the lead picture


def test_the_storys_thumbnail_leads_its_page(client: Client, world: World) -> None:
    (slug,) = world.publish("Quay", thumbnail=LEAD, elements=_texts(2))
    doc = _doc(client, f"/alice/{slug}")
    lead = doc.css_first(".story-lead img")
    assert lead.attributes["src"] == LEAD
    assert lead.attributes["alt"] == ""  # the title says what it shows
    assert int(lead.attributes["width"] or 0) > 0
    assert int(lead.attributes["height"] or 0) > 0
    assert lead.attributes["fetchpriority"] == "high"
    assert "loading" not in lead.attributes  # the largest paint, never put off
    parts = doc.css(".story h1, .story-lead, .s-elements")
    order = [node.attributes.get("class") for node in parts]
    assert order == ["s-title", "story-lead", "s-elements"]


def test_a_story_without_a_picture_has_no_lead(client: Client, world: World) -> None:
    (slug,) = world.publish("Plain", elements=_texts(2))
    assert _doc(client, f"/alice/{slug}").css_first(".story-lead") is None


def test_without_a_thumbnail_the_first_picture_leads(client: Client) -> None:
    lead = _doc(client, "/alice/open").css_first(".story-lead img")
    assert lead.attributes["src"] == "https://img.example/harbour.jpg"


def test_a_story_opening_with_its_picture_shows_it_once(client: Client, world: World) -> None:
    (slug,) = world.publish("Opening", elements=[_image(LEAD), *_texts(1)])
    doc = _doc(client, f"/alice/{slug}")
    assert doc.css_first(".story-lead") is None
    assert [img.attributes["src"] for img in doc.css(".story img")] == [LEAD]


def test_the_lead_shows_on_the_first_page_only(client: Client, world: World) -> None:
    (slug,) = world.publish("Long", thumbnail=LEAD, elements=_texts(60))
    assert _doc(client, f"/alice/{slug}").css_first(".story-lead") is not None
    assert _doc(client, f"/alice/{slug}", page=2).css_first(".story-lead") is None


# the reading time


def _reading_time(doc: LexborHTMLParser) -> str:
    return doc.css_first(".byline .reading-time").text(strip=True)


def test_the_byline_says_how_long_the_story_takes_to_read(client: Client, world: World) -> None:
    (slug,) = world.publish("Three minutes", elements=_texts(3, words=265))
    assert _reading_time(_doc(client, f"/alice/{slug}")) == "3 min read"


def test_a_story_of_no_words_takes_a_minute(client: Client, world: World) -> None:
    (slug,) = world.publish("Empty")
    assert _reading_time(_doc(client, f"/alice/{slug}")) == "1 min read"


def test_the_reading_time_is_of_the_whole_story_on_every_page(client: Client, world: World) -> None:
    (slug,) = world.publish("Twelve minutes", elements=_texts(60, words=53))  # 3,180 words
    assert _reading_time(_doc(client, f"/alice/{slug}")) == "12 min read"
    assert _reading_time(_doc(client, f"/alice/{slug}", page=2)) == "12 min read"


# the author's card


def _profile(world: World, **members: str) -> None:
    world.service.accounts.update("alice", members, viewer=world.service.accounts.as_user("alice"))


def test_after_the_story_comes_its_authors_card(client: Client, world: World) -> None:
    _profile(world, bio="Harbour town reporter.", avatar="https://img.example/alice.jpg")
    card = _doc(client, "/alice/open").css_first(".author-card")
    assert card.css_first("h2").text(strip=True) == "Alice Liddell"
    assert card.css_first("img").attributes["src"] == "https://img.example/alice.jpg"
    assert card.css_first("img").attributes["alt"] == ""
    assert card.css_first(".author-card-bio").text() == "Harbour town reporter."
    links = {a.attributes["href"] for a in card.css("a")}
    assert links == {f"{client.web_url}/alice"}


def test_the_authors_card_shows_a_new_bio_at_once(client: Client, world: World) -> None:
    _doc(client, "/alice/open")
    _profile(world, bio="Night editor.")
    card = _doc(client, "/alice/open").css_first(".author-card")
    assert card.css_first(".author-card-bio").text() == "Night editor."


def test_the_authors_card_ends_the_story_on_its_last_page(client: Client, world: World) -> None:
    (slug,) = world.publish("Long", elements=_texts(60))
    assert _doc(client, f"/alice/{slug}").css_first(".author-card") is None
    assert _doc(client, f"/alice/{slug}", page=2).css_first(".author-card") is not None


# more stories by the author


def test_up_to_three_more_public_stories_follow_newest_first(client: Client, world: World) -> None:
    world.publish("One", "Two", "Three", "Four")
    doc = _doc(client, "/alice/open")
    section = doc.css_first(".more-stories")
    assert section.css_first("h2").text() == "More from Alice Liddell"
    assert _more(doc) == ["Four", "Three", "Two"]


def test_the_more_stories_leave_out_the_story_itself(client: Client, world: World) -> None:
    slugs = world.publish("One", "Two")
    assert _more(_doc(client, f"/alice/{slugs[-1]}")) == ["One", "Harbour at dawn"]


def test_no_private_or_working_story_shows_among_the_more(client: Client, world: World) -> None:
    # alice's other stories are "draft" (working) and "secret" (private)
    doc = _doc(client, "/alice/open")
    assert doc.css_first(".more-stories") is None
    assert doc.css_first(".author-card") is not None


def test_the_more_stories_are_cards_as_the_lists_show(client: Client, world: World) -> None:
    world.publish("With a picture", thumbnail=LEAD, description="Lights on the #quay")
    card = _doc(client, "/alice/open").css_first(".more-stories .card")
    assert card.css_first("img.card-image").attributes["src"] == LEAD
    assert card.css_first("h3.card-title a").attributes["href"].startswith(client.web_url)
    assert card.css_first(".card-description a.hashtag").text() == "#quay"


def test_headings_run_in_order(client: Client, world: World) -> None:
    world.publish("One")
    doc = _doc(client, "/alice/open")
    levels = [int((h.tag or "h0")[1]) for h in doc.css("main h1, main h2, main h3")]
    assert levels[0] == 1
    assert all(b - a <= 1 for a, b in itertools.pairwise(levels))
    headings = [h.text(strip=True) for h in doc.css("main h2")]
    assert headings[:2] == ["Alice Liddell", "More from Alice Liddell"]


# caching


def test_a_story_the_author_publishes_shows_at_once_with_a_new_etag(
    client: Client, world: World
) -> None:
    before = client.get("/alice/open")
    world.publish("Night shift")
    after = client.get("/alice/open", headers={"If-None-Match": before.headers["etag"]})
    assert after.status == 200
    assert after.headers["etag"] != before.headers["etag"]
    assert _more(LexborHTMLParser(after.body.decode())) == ["Night shift"]


def test_a_story_unpublished_or_deleted_leaves_the_more_at_once(
    client: Client, world: World
) -> None:
    alice = world.service.accounts.as_user("alice")
    first, second = world.publish("One", "Two")
    assert _more(_doc(client, "/alice/open")) == ["Two", "One"]
    world.clock.advance(1)
    world.service.stories.unpublish("alice", second, viewer=alice)
    assert _more(_doc(client, "/alice/open")) == ["One"]
    world.service.stories.delete("alice", first, viewer=alice)
    assert _more(_doc(client, "/alice/open")) == []
