"""What metadata becomes which element member (docs/resolver.md), without a network: a
page's and an oEmbed answer's metadata read, then stored in the element under the element
rules. Provider text is text; an oEmbed ``html`` is never stored."""

from __future__ import annotations

import orjson
import pytest

from storycore.model.element_kinds import Element
from storycore.model.resolvers import OfflineResolver
from storycore.resolving._found import Found
from storycore.resolving._page_metadata import read_oembed, read_page
from storycore.resolving._resolved import filled
from storycore.resolving.fetching import Fetched
from storycore.settings import Limits, Settings

NOW = "2026-11-22T10:15:30.123Z"
LIMITS = Limits()
RESOLVER = OfflineResolver(Settings())
POST = "https://sociala.example/alice/status/1"
PAGE = "https://news.example/story"


def _offline(permalink: str) -> Element:
    return RESOLVER.resolve(permalink, element_id="e1", added_at=NOW)


def _page(html: str, url: str = PAGE, content_type: str = "text/html") -> Found:
    found, _ = read_page(Fetched(url, 200, content_type, html.encode(), True))
    return found


def _oembed(data: object, url: str = "https://provider.example/oembed") -> Found | None:
    return read_oembed(Fetched(url, 200, "application/json", orjson.dumps(data), True), url)


def test_opengraph_fills_a_links_title_description_and_thumbnail() -> None:
    found = _page(
        '<meta property="og:title" content="Title"><meta property="og:description" content="D">'
        '<meta property="og:image" content="/picture.png">'
    )
    element = filled(_offline(PAGE), found, LIMITS)
    assert element.type == "link"
    assert element.data == {
        "link": {
            "title": "Title",
            "description": "D",
            "thumbnail": "https://news.example/picture.png",
        }
    }


def test_a_twitter_card_fills_a_link_when_there_is_no_opengraph() -> None:
    found = _page(
        '<meta name="twitter:title" content="Card"><meta name="twitter:description" content="C">'
        '<meta name="twitter:image" content="https://cdn.example/c.jpg">'
    )
    element = filled(_offline(PAGE), found, LIMITS)
    assert element.type == "link"
    assert element.data == {
        "link": {"title": "Card", "description": "C", "thumbnail": "https://cdn.example/c.jpg"}
    }


def test_opengraph_comes_before_the_twitter_card_and_the_title() -> None:
    found = _page(
        '<title>Plain</title><meta name="twitter:title" content="Card">'
        '<meta property="og:title" content="Graph">'
    )
    assert found.title == "Graph"


def test_a_page_without_metadata_gives_its_title_and_description() -> None:
    found = _page('<title>Plain &amp; simple</title><meta name="description" content="About">')
    assert (found.title, found.description) == ("Plain & simple", "About")


def test_a_posts_page_fills_its_text_author_and_time() -> None:
    found = _page(
        '<meta property="og:description" content="Hello &lt;b&gt;world&lt;/b&gt;">'
        '<meta name="twitter:creator" content="@alice_a"><meta name="author" content="Alice A.">'
        '<meta property="og:image" content="https://cdn.example/alice.png">'
        '<meta property="article:published_time" content="2026-11-20T09:00:00+01:00">',
        url=POST,
    )
    element = filled(_offline(POST), found, LIMITS)
    assert element.type == "quote"
    assert element.data == {"quote": {"text": "Hello world"}}
    assert element.attribution is not None
    assert element.attribution.model_dump() == {
        "name": "Alice A.",
        "username": "alice_a",
        "href": "https://sociala.example/alice",
        "thumbnail": "https://cdn.example/alice.png",
    }
    assert element.posted_at == "2026-11-20T08:00:00.000Z"


def test_an_oembed_posts_words_come_from_its_html_which_is_not_kept() -> None:
    found = _oembed(
        {
            "type": "rich",
            "author_name": "Alice A.",
            "author_url": "https://sociala.example/alice",
            "html": '<blockquote><p>Hi <a href="https://x.example">#there</a></p>&mdash; Alice'
            ' <a href="https://x.example/1">Nov 20</a></blockquote>'
            '<script src="https://x.example/widgets.js"></script>',
        }
    )
    assert found is not None
    element = filled(_offline(POST), found, LIMITS)
    stored = element.model_dump_json()
    assert element.type == "quote"
    assert element.data == {"quote": {"text": "Hi #there"}}
    assert "blockquote" not in stored
    assert "script" not in stored


def test_an_oembed_photo_makes_a_link_an_image() -> None:
    found = _oembed(
        {
            "type": "photo",
            "title": "Sunset",
            "url": "https://photos.example/sunset.jpg",
            "width": 1024,
            "height": "768",
            "author_name": "Pat",
        }
    )
    assert found is not None
    element = filled(_offline(PAGE), found, LIMITS)
    assert element.type == "image"
    assert element.data == {
        "image": {
            "src": "https://photos.example/sunset.jpg",
            "caption": "Sunset",
            "width": 1024,
            "height": 768,
        }
    }
    assert element.attribution is not None
    assert element.attribution.name == "Pat"


def test_an_oembed_video_makes_a_link_a_video_of_its_permalink() -> None:
    found = _oembed(
        {
            "type": "video",
            "title": "Talk",
            "thumbnail_url": "https://v.example/t.jpg",
            "html": '<iframe src="https://v.example/embed/1"></iframe>',
        }
    )
    assert found is not None
    element = filled(_offline(PAGE), found, LIMITS)
    assert element.type == "video"
    assert element.data == {
        "video": {"src": PAGE, "title": "Talk", "thumbnail": "https://v.example/t.jpg"}
    }
    assert "iframe" not in element.model_dump_json()


def test_a_video_keeps_its_src_and_takes_a_title_and_thumbnail() -> None:
    permalink = "https://vimeo.com/76979871"
    found = _oembed({"type": "video", "title": "Film", "thumbnail_url": "https://i.example/f"})
    assert found is not None
    element = filled(_offline(permalink), found, LIMITS)
    assert element.type == "video"
    assert element.data == {
        "video": {"src": permalink, "title": "Film", "thumbnail": "https://i.example/f"}
    }


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("<script>alert(1)</script>Title <i>it</i>", "Title it"),
        ("Tom &amp; Jerry", "Tom & Jerry"),
        ('<img src=x onerror="alert(1)">Safe', "Safe"),
        ("  many\n\n  spaces\t", "many spaces"),
        ("bell\x07 and nul\x00", "bell and nul"),
    ],
)
def test_provider_text_is_stored_as_plain_text(given: str, stored: str) -> None:
    element = filled(_offline(PAGE), Found(title=given), LIMITS)
    assert element.type == "link"
    assert element.data == {"link": {"title": stored, "description": "", "thumbnail": ""}}


def test_a_posts_text_keeps_its_line_breaks() -> None:
    element = filled(_offline(POST), Found(text="<p>one</p><p>two<br>three</p>"), LIMITS)
    assert element.type == "quote"
    assert element.data == {"quote": {"text": "one\ntwo\nthree"}}


def test_provider_text_is_cut_to_its_members_limit() -> None:
    limits = Limits(text_element=10)
    quote = filled(_offline(POST), Found(text="x" * 50), limits)
    assert quote.type == "quote"
    assert quote.data == {"quote": {"text": "x" * 10}}
    link = filled(_offline(PAGE), Found(title="y" * 5000), LIMITS)
    assert link.type == "link"
    assert link.data == {"link": {"title": "y" * 2000, "description": "", "thumbnail": ""}}


@pytest.mark.parametrize(
    "address", ["javascript:alert(1)", "data:text/html,x", "ftp://x.example/a", "//x.example/a"]
)
def test_an_address_that_breaks_the_address_rule_is_left_out(address: str) -> None:
    element = filled(_offline(PAGE), Found(title="T", thumbnail=address), LIMITS)
    assert element.type == "link"
    assert element.data == {"link": {"title": "T", "description": "", "thumbnail": ""}}


def test_a_time_that_is_not_a_timestamp_is_left_out() -> None:
    element = filled(_offline(POST), Found(text="t", posted_at="yesterday"), LIMITS)
    assert element.type == "quote"
    assert (element.posted_at, element.data) == (None, {"quote": {"text": "t"}})


def test_a_photo_size_out_of_range_is_unknown() -> None:
    found = Found(kind="photo", media="https://p.example/a.png", width=10**9, height=-1)
    element = filled(_offline(PAGE), found, LIMITS)
    assert element.type == "image"
    assert element.data == {
        "image": {"src": "https://p.example/a.png", "caption": "", "width": 0, "height": 0}
    }


def test_the_id_and_added_at_are_kept() -> None:
    element = filled(_offline(PAGE), Found(title="T"), LIMITS)
    assert (element.id, element.added_at) == ("e1", NOW)


def test_nothing_found_leaves_the_element_as_it_was() -> None:
    base = _offline(PAGE)
    assert filled(base, Found(), LIMITS) is base


def test_an_image_files_element_is_not_changed() -> None:
    base = _offline("https://cdn.example/a.png")
    assert filled(base, Found(title="T"), LIMITS) is base


def test_discovery_finds_the_json_oembed_link() -> None:
    html = (
        '<link rel="alternate" type="text/xml+oembed" href="/o.xml">'
        '<link rel="alternate" type="application/json+oembed" href="/o?format=json">'
    )
    _, link = read_page(Fetched(PAGE, 200, "text/html", html.encode(), True))
    assert link == "https://news.example/o?format=json"


def test_an_oembed_answer_cut_at_its_cap_is_not_used() -> None:
    answer = Fetched(PAGE, 200, "application/json", b'{"type": "link", "title": "x', False)
    assert read_oembed(answer, PAGE) is None


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'"text"'])
def test_an_answer_that_is_not_a_json_object_is_not_oembed(body: bytes) -> None:
    assert read_oembed(Fetched(PAGE, 200, "application/json", body, True), PAGE) is None


def test_a_page_is_read_in_the_charset_its_content_type_names() -> None:
    html = '<meta property="og:title" content="Café">'.encode("latin-1")
    found, _ = read_page(Fetched(PAGE, 200, "text/html; charset=ISO-8859-1", html, True))
    assert found.title == "Café"
