# mypy: disable-error-code="union-attr"
# (a missing node fails the test with AttributeError, which says enough)
"""The one renderer of elements and the story page (docs/api.md#the-web-host), from records:
each element kind as the decisions describe it, and ``noindex``."""

from __future__ import annotations

from typing import Any

from selectolax.lexbor import LexborHTMLParser

from storycore.model.element_kinds import ELEMENT_CLASSES
from storycore.model.records import Element, StoryRecord
from storycore.model.shapes import UserProfile
from storycore.presentation.pages import Site, render_elements, story_page
from storycore.settings import Settings

SITE = Site("https://news.example", "Harbour News", Settings().video_players)
AUTHOR = UserProfile(username="alice", name="Alice", bio="", location="", website="", avatar="")


def _element(members: dict[str, Any]) -> Element:
    return ELEMENT_CLASSES[members["type"]].model_validate(members)


def _render(*members: dict[str, Any]) -> LexborHTMLParser:
    html = render_elements([_element(m) for m in members], SITE)
    return LexborHTMLParser(f"<html><body>{html}</body></html>")


def test_a_quote_shows_its_text_author_network_time_and_a_link() -> None:
    doc = _render({
        "type": "quote", "permalink": "https://socialA.example/bob/status/1",
        "source": {"name": "socialA", "username": "bob"},
        "attribution": {"name": "Bob", "username": "bob", "thumbnail": "https://img.example/b.png"},
        "data": {"quote": {"text": "line one\nline two"}}, "posted_at": "2026-04-19T08:46:00.000Z",
    })  # fmt: skip
    quote = doc.css_first(".s-element-quote")
    assert quote.css_first("blockquote").text() == "line one\nline two"
    assert quote.css_first(".quote-name").text() == "Bob"
    assert quote.css_first(".quote-username").text() == "@bob"
    assert quote.css_first("img").attributes["src"] == "https://img.example/b.png"
    assert quote.css_first("time").attributes["datetime"] == "2026-04-19T08:46:00.000Z"
    assert "socialA" in quote.text()
    assert quote.css_first("a").attributes["href"] == "https://socialA.example/bob/status/1"


def test_an_unresolved_quote_says_whose_post_it_is_and_links_to_it() -> None:
    doc = _render({"type": "quote", "permalink": "https://socialA.example/bob/status/1",
                   "source": {"name": "socialA", "username": "bob"}})  # fmt: skip
    quote = doc.css_first(".s-element-quote")
    assert "@bob" in quote.text()
    assert "socialA" in quote.text()
    assert quote.css_first("a").attributes["href"] == "https://socialA.example/bob/status/1"


def test_an_image_has_alt_size_lazy_loading_and_its_caption() -> None:
    image = {"src": "https://img.example/a.jpg", "caption": "Boats", "width": 960, "height": 640}
    doc = _render({"type": "image", "data": {"image": image}})
    shown = doc.css_first(".s-element-image img")
    attributes = shown.attributes
    assert (attributes["alt"], attributes["width"], attributes["height"]) == ("Boats", "960", "640")
    assert (attributes["loading"], attributes["decoding"]) == ("lazy", "async")
    assert doc.css_first(".s-element-image figcaption").text() == "Boats"


def test_an_image_without_caption_is_described() -> None:
    doc = _render({"type": "image", "data": {"image": {"src": "https://img.example/a.jpg"}}})
    assert doc.css_first("img").attributes["alt"] == "An image from img.example"


def test_a_video_of_a_player_is_a_poster_that_names_its_player() -> None:
    doc = _render({"type": "video", "data": {"video": {
        "src": "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "title": "Song",
        "thumbnail": "https://img.example/t.jpg"}}})  # fmt: skip
    poster = doc.css_first(".s-element-video a.video-poster")
    assert poster.attributes["href"] == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    assert poster.attributes["data-player"].startswith("https://www.youtube-nocookie.com/embed/")
    assert poster.css_first("img").attributes["src"] == "https://img.example/t.jpg"
    assert "Song" in poster.text()
    assert doc.css("iframe") == []


def test_a_video_elsewhere_is_a_poster_linking_to_it() -> None:
    doc = _render({"type": "video", "data": {"video": {"src": "https://videos.example/v.mp4"}}})
    poster = doc.css_first("a.video-poster")
    assert poster.attributes["href"] == "https://videos.example/v.mp4"
    assert "data-player" not in poster.attributes


def test_a_link_is_a_card_and_unresolved_shows_host_and_path() -> None:
    doc = _render(
        {"type": "link", "permalink": "https://news.example/a/b",
         "data": {"link": {"title": "T", "description": "D", "thumbnail": "https://img.example/t.jpg"}}},
        {"type": "link", "permalink": "https://www.other.example/x/y"},
    )  # fmt: skip
    resolved, bare = doc.css(".s-element-link")
    assert resolved.css_first(".link-title").text() == "T"
    assert resolved.css_first(".link-description").text() == "D"
    assert resolved.css_first(".link-host").text() == "news.example"
    assert bare.css_first(".link-title").text() == "other.example/x/y"


def test_text_is_its_sanitized_html_with_hashtags_linked_outside_links() -> None:
    doc = _render({"type": "text", "data": {
        "text": '<p>#sea <a href="https://x.example">#notlinked</a></p>'}})  # fmt: skip
    links = [a.attributes["href"] for a in doc.css(".s-element-text a")]
    assert links == ["https://news.example/tags/sea", "https://x.example"]


def test_a_not_indexed_story_page_says_noindex() -> None:
    story = StoryRecord(id="s1", author_id="u1", title="T", slug="t", not_indexed=True,
                        status="published", created="2026-01-01T00:00:00.000Z",
                        updated="2026-01-01T00:00:00.000Z")  # fmt: skip
    html = story_page(SITE, author=AUTHOR, story=story, elements=[], page=1, has_next=False)
    robots = LexborHTMLParser(html).css_first('meta[name="robots"]')
    assert robots.attributes["content"] == "noindex"
