# mypy: disable-error-code="union-attr"
# (a missing node fails the test with AttributeError, which says enough)
"""The front page and the search page (docs/api.md#the-front-page): the newest featured story
leads the front page, the other featured stories follow it, and the latest stories are listed in
a grid; the search page says how many stories it found and marks the query's words in titles and
descriptions, by the search's own notion of a word, with everything else kept as text.
"""

from __future__ import annotations

import pytest
from selectolax.lexbor import LexborHTMLParser, LexborNode

from tests.http._clients import Client
from tests.http.conftest import World


def _doc(client: Client, path: str, query: dict[str, str] | None = None) -> LexborHTMLParser:
    answer = client.get(path, query)
    assert answer.status == 200
    return LexborHTMLParser(answer.body.decode())


def _feature(world: World, *slugs: str) -> None:
    """Feature ``slugs`` of alice's, one a second after the other (the last is the newest)."""
    for slug in slugs:
        world.clock.advance(1)
        world.service.stories.feature("alice", slug, viewer=world.service.accounts.as_user("cora"))


def _titles(nodes: list[LexborNode]) -> list[str]:
    return [node.css_first(".card-title a, .lead-title a").text() for node in nodes]


def test_the_newest_featured_story_leads_the_front_page(client: Client, world: World) -> None:
    world.publish("Tides of the north", description="Where the water goes")
    [slug] = world.publish("Quay lights")
    _feature(world, slug)
    lead = _doc(client, "/").css_first(".lead")
    assert lead.css_first(".lead-title a").text() == "Quay lights"
    assert lead.css_first(".lead-title a").attributes["href"] == f"{client.web_url}/alice/{slug}"
    assert lead.css_first(".card-meta a").text() == "Alice Liddell"
    assert lead.css_first("time").attributes["datetime"]


def test_the_other_featured_stories_follow_the_lead(client: Client, world: World) -> None:
    slugs = world.publish("First light", "Second light")
    _feature(world, *slugs)
    featured = _doc(client, "/").css_first(".featured")
    assert _titles(featured.css(".lead")) == ["Second light"]
    assert _titles(featured.css(".cards-featured .card")) == ["First light", "Harbour at dawn"]


def test_the_lead_shows_its_picture_wide_title_and_description(
    client: Client, world: World
) -> None:
    picture = "https://img.example/quay.jpg"
    [slug] = world.publish("Quay lights", description="Lamps on the water", thumbnail=picture)
    _feature(world, slug)
    lead = _doc(client, "/").css_first(".lead")
    image = lead.css_first("img.lead-image")
    assert image.attributes["src"] == picture
    assert image.attributes.get("loading") != "lazy"  # the page's largest picture, seen at once
    assert (image.attributes["width"], image.attributes["height"]) == ("960", "640")
    assert lead.css_first(".lead-description").text() == "Lamps on the water"


def test_the_latest_stories_are_listed_in_a_grid(client: Client, world: World) -> None:
    world.publish("Tides", "Currents")
    latest = _doc(client, "/").css_first(".latest")
    assert _titles(latest.css("ol.cards-grid > li.card")) == [
        "Currents",
        "Tides",
        "Harbour at dawn",
    ]


def test_the_front_page_is_wide_where_story_pages_keep_the_reading_column(
    client: Client,
) -> None:
    assert "wide" in (_doc(client, "/").body.attributes.get("class") or "").split()
    assert "wide" not in (_doc(client, "/alice/open").body.attributes.get("class") or "").split()


def test_a_later_page_of_the_front_page_has_no_lead(client: Client, world: World) -> None:
    world.publish(*(f"Story {n}" for n in range(20)))
    doc = _doc(client, "/", {"page": "2"})
    assert (doc.css(".lead"), doc.css(".featured")) == ([], [])
    assert doc.css(".latest ol.cards-grid > li.card") != []


@pytest.mark.parametrize(
    ("count", "heading"),
    [
        (0, "No stories found for “tides”"),
        (1, "1 story found for “tides”"),
        (3, "3 stories found for “tides”"),
    ],
)
def test_the_search_page_says_how_many_stories_it_found(
    client: Client, world: World, count: int, heading: str
) -> None:
    world.publish(*(f"Tides {n}" for n in range(count)))
    assert _doc(client, "/search", {"q": "tides"}).css_first("h1").text() == heading


def test_the_count_is_of_every_page_of_results(client: Client, world: World) -> None:
    world.publish(*(f"Tides {n}" for n in range(23)))
    doc = _doc(client, "/search", {"q": "tides", "page": "2"})
    assert doc.css_first("h1").text() == "23 stories found for “tides”"
    assert len(doc.css(".card")) == 3


def _marked(card: LexborNode, part: str) -> list[str]:
    return [mark.text() for mark in card.css(f"{part} mark")]


def test_the_querys_words_are_marked_in_titles_and_descriptions(
    client: Client, world: World
) -> None:
    world.publish("Tides at the quay", description="The tides turn; TIDES, tidal")
    doc = _doc(client, "/search", {"q": "Tides"})
    (card,) = doc.css(".card")
    assert _marked(card, ".card-title") == ["Tides"]
    assert _marked(card, ".card-description") == ["tides", "TIDES"]
    assert card.css_first(".card-title a").text() == "Tides at the quay"
    assert card.css_first(".card-description").text() == "The tides turn; TIDES, tidal"


def test_marks_fold_case_and_accents_as_the_search_does(client: Client, world: World) -> None:
    world.publish("Crème brûlée in STRAßE", description="Ærøskøbing café")
    doc = _doc(client, "/search", {"q": "creme strasse CAFE"})
    (card,) = doc.css(".card")
    assert _marked(card, ".card-title") == ["Crème", "STRAßE"]
    assert _marked(card, ".card-description") == ["café"]


def test_only_whole_words_are_marked(client: Client, world: World) -> None:
    world.publish("Tide tables", description="tidewater, tide_pool and tide-pool")
    (card,) = _doc(client, "/search", {"q": "tide"}).css(".card")
    assert _marked(card, ".card-title") == ["Tide"]
    assert _marked(card, ".card-description") == ["tide", "tide"]  # ``_`` and ``-`` separate


def test_a_marked_hashtag_stays_a_link_to_its_tag(client: Client, world: World) -> None:
    world.publish("Night shift", description="Lights on the #quay tonight")
    doc = _doc(client, "/search", {"q": "quay"})
    card = next(c for c in doc.css(".card") if c.css_first(".card-title a").text() == "Night shift")
    link = card.css_first(".card-description a.hashtag")
    assert (link.text(), link.attributes["href"]) == ("#quay", f"{client.web_url}/tags/quay")
    assert [mark.text() for mark in link.css("mark")] == ["quay"]


@pytest.mark.parametrize("q", ['quay <"', "quay.*(+[", "quay)|\\", "<quay>", "&quay;"])
def test_marked_titles_and_queries_stay_text(client: Client, world: World, q: str) -> None:
    title = "quay <script>alert(1)</script> & <mark>x</mark> &lt;"
    world.publish(title, description='"quay" <b>&amp;</b>')
    body = client.get("/search", {"q": q}).body.decode()
    assert "<script>alert" not in body
    assert "<mark>x</mark>" not in body
    assert "<b>" not in body
    doc = LexborHTMLParser(body)
    [card] = [c for c in doc.css(".card") if c.css_first(".card-title a").text() == title]
    assert card.css_first(".card-description").text() == '"quay" <b>&amp;</b>'
    assert _marked(card, ".card-title") == ["quay"]
    assert _marked(card, ".card-description") == ["quay"]
    assert q in doc.css_first("h1").text()
