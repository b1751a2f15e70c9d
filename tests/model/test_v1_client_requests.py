"""Requests written by real v1 clients (docs/api.md#calls-and-answers): an element object without
``type`` takes it from its data or its permalink, a protocol-relative address is https, text
HTML may hold ``h2``-``h4``, and a story sent back as it was read is accepted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from storycore.errors import InvalidParameter
from storycore.model.drafts import parse_story
from storycore.model.element_kinds import Element
from storycore.model.elements import normalize_elements
from storycore.model.resolvers import OfflineResolver
from storycore.rules.addresses import validate_url
from storycore.rules.sanitize import sanitize_html
from storycore.settings import Settings

SETTINGS = Settings()
LIMITS = SETTINGS.limits
RESOLVER = OfflineResolver(SETTINGS)
NOW = "2026-11-22T10:15:30.123Z"
POST = "https://sociala.example/alice/status/1"
PHOTO = "https://img.example/harbour.jpg"
PAGE = "https://news.example/article"


def _normalize(
    items: Sequence[Any], *, resolver: Any = RESOLVER, fetch: bool = False
) -> list[Element]:
    return normalize_elements(
        items,
        path="story.elements",
        limits=LIMITS,
        resolver=resolver,
        previous=(),
        now=NOW,
        fetch=fetch,
    )


def _one(item: Any) -> Element:
    (element,) = _normalize([item])
    return element


def _refused(items: Sequence[Any]) -> InvalidParameter:
    with pytest.raises(InvalidParameter) as caught:
        _normalize(items)
    return caught.value


# -- an element object without type ----------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "kind"),
    [
        ({"data": {"text": "<p>Start of the story...</p>"}}, "text"),
        ({"permalink": POST, "data": {"quote": {"text": "Hi"}}}, "quote"),
        ({"data": {"image": {"src": PHOTO, "caption": "Harbour"}}}, "image"),
        ({"data": {"video": {"src": "https://youtube.com/embed/x"}}}, "video"),
        ({"permalink": PAGE, "data": {"link": {"title": "News"}}}, "link"),
    ],
)
def test_an_element_without_type_takes_it_from_its_data(item: dict[str, Any], kind: str) -> None:
    element = _one(item)
    assert element.type == kind
    assert element.data == _one({**item, "type": kind}).data


def test_data_telling_several_types_is_read_in_the_order_text_quote_image_video_link() -> None:
    item = {"permalink": PHOTO, "data": {"link": {"title": "T"}, "image": {"src": PHOTO}}}
    assert _one(item).type == "image"


def test_a_type_sent_as_null_counts_as_not_sent() -> None:
    assert _one({"type": None, "data": {"text": "hi"}}).type == "text"


@pytest.mark.parametrize("permalink", [POST, PHOTO, "https://youtube.com/watch?v=1", PAGE])
def test_an_element_with_only_a_permalink_is_what_the_permalink_string_makes(
    permalink: str,
) -> None:
    from_object = _one({"permalink": permalink, "comments": []})
    from_string = _one(permalink)
    assert from_object.model_dump(exclude={"id"}) == from_string.model_dump(exclude={"id"})


def test_an_element_with_only_a_permalink_keeps_its_id_and_added_at() -> None:
    element = _one({"id": "e1", "permalink": PAGE, "added_at": "2013-12-09T05:21:14.521Z"})
    assert (element.id, element.added_at) == ("e1", "2013-12-09T05:21:14.521Z")


def test_an_element_typed_by_its_permalink_keeps_what_else_it_says() -> None:
    attribution = {"name": "Alice A.", "username": "alice", "href": "https://sociala.example/a"}
    element = _one({"permalink": POST, "attribution": attribution, "posted_at": NOW})
    assert element.type == "quote"
    assert element.attribution is not None
    assert (element.attribution.name, element.posted_at) == ("Alice A.", NOW)


def test_data_that_tells_no_type_leaves_the_type_to_the_permalink() -> None:
    element = _one({"permalink": PHOTO, "data": {"oembed": {"html": "<script>x</script>"}}})
    photo = _one(PHOTO)
    assert element.type == photo.type == "image"
    assert element.data == {"image": photo.data["image"]}


def test_an_element_without_type_data_or_permalink_is_still_refused() -> None:
    assert _refused([{"comments": [], "data": {"oembed": {}}}]).field == "story.elements.0.type"


def test_the_permalink_that_types_an_element_must_be_an_address() -> None:
    assert _refused([{"permalink": "javascript:alert(1)"}]).field == "story.elements.0.permalink"


def test_the_data_of_an_element_typed_by_its_permalink_must_be_an_object() -> None:
    assert _refused([{"permalink": PAGE, "data": "x"}]).field == "story.elements.0.data"


class _CountingResolver(OfflineResolver):
    """A content resolver that notes the permalinks it was asked to fill."""

    def __init__(self) -> None:
        super().__init__(SETTINGS)
        self.filled: list[str | None] = []

    def fill(self, elements: Sequence[Element]) -> list[Element]:
        self.filled.extend(element.permalink for element in elements)
        return list(elements)


def test_an_element_with_only_a_permalink_is_filled_by_a_content_resolver() -> None:
    resolver = _CountingResolver()
    _normalize(
        [{"permalink": POST}, {"permalink": PAGE, "eid": "x"}], resolver=resolver, fetch=True
    )
    assert resolver.filled == [POST, PAGE]


def test_an_element_that_says_more_than_its_permalink_is_not_filled() -> None:
    resolver = _CountingResolver()
    item = {"permalink": POST, "attribution": {"name": "Alice"}}
    _normalize([item], resolver=resolver, fetch=True)
    assert resolver.filled == []


# -- protocol-relative addresses ---------------------------------------------------------------


def test_a_protocol_relative_address_is_taken_as_https() -> None:
    assert validate_url("//www.youtube.com/embed/x", "src", LIMITS.address) == (
        "https://www.youtube.com/embed/x"
    )


def test_the_address_limit_counts_the_address_as_taken() -> None:
    at_limit = "//h.example/" + "a" * (LIMITS.address - len("https://h.example/"))
    assert len(validate_url(at_limit, "src", LIMITS.address)) == LIMITS.address
    with pytest.raises(InvalidParameter):
        validate_url(at_limit + "a", "src", LIMITS.address)


@pytest.mark.parametrize("address", ["///path", "//", "// host/x", "//:80/x"])
def test_a_protocol_relative_address_needs_a_host(address: str) -> None:
    with pytest.raises(InvalidParameter):
        validate_url(address, "src", LIMITS.address)


def test_every_address_of_an_element_may_be_protocol_relative() -> None:
    element = _one(
        {
            "type": "video",
            "permalink": "//youtube.com/watch?v=1",
            "source": {"href": "//youtube.com"},
            "attribution": {"href": "//youtube.com/u", "thumbnail": "//i.ytimg.com/t.jpg"},
            "data": {"video": {"src": "//www.youtube.com/embed/1", "thumbnail": "//i.ytimg.com/v"}},
        }
    )
    assert element.permalink == "https://youtube.com/watch?v=1"
    assert element.source is not None
    assert element.source.href == "https://youtube.com"
    assert element.attribution is not None
    assert element.attribution.thumbnail == "https://i.ytimg.com/t.jpg"
    assert element.type == "video"
    assert element.data == {
        "video": {
            "src": "https://www.youtube.com/embed/1",
            "title": "",
            "thumbnail": "https://i.ytimg.com/v",
        }
    }


def test_a_protocol_relative_permalink_string_is_taken_as_https() -> None:
    assert _one("//img.example/harbour.jpg").permalink == PHOTO


def test_a_protocol_relative_story_thumbnail_is_taken_as_https() -> None:
    assert parse_story({"thumbnail": "//img.example/t.jpg"}, LIMITS).thumbnail == (
        "https://img.example/t.jpg"
    )


# -- headings in text --------------------------------------------------------------------------


@pytest.mark.parametrize("tag", ["h2", "h3", "h4"])
def test_text_html_may_hold_h2_to_h4(tag: str) -> None:
    html = f"<{tag}>Top news</{tag}><p>words</p>"
    assert sanitize_html(html) == html


@pytest.mark.parametrize("tag", ["h1", "h5", "h6"])
def test_other_headings_are_dropped_keeping_their_words(tag: str) -> None:
    assert sanitize_html(f"<{tag}>Top news</{tag}>") == "Top news"


def test_a_heading_keeps_no_attribute() -> None:
    assert sanitize_html('<h2 id="x" style="color:red" onclick="y()">T</h2>') == "<h2>T</h2>"


# -- a story sent back as it was read ----------------------------------------------------------

READ_BACK_ELEMENT = {
    "id": "52a5566a234ef8340202dc5c",
    "eid": "812ffa6df73e9fdb9f93775a",
    "type": "link",
    "permalink": PAGE,
    "posted_at": "2013-12-09T02:41:19.000Z",
    "data": {
        "oembed": {"type": "rich", "html": "<script>alert(1)</script>"},
        "link": {"title": "News", "oembed_url": "https://api.example/o", "thumbnail": PHOTO},
    },
    "source": {"href": "https://news.example", "name": "news"},
    "attribution": {"name": "News", "title": "News -...", "href": "https://news.example"},
    "comments": [],
    "stats": {"likes": 0, "embeds": [], "comments": 0},
    "meta": {"rendered": True},
}


def test_element_members_outside_section_7_are_ignored() -> None:
    element = _one(READ_BACK_ELEMENT)
    assert set(element.model_dump()) == {
        "id", "type", "permalink", "source", "attribution", "data", "posted_at", "added_at",
    }  # fmt: skip
    assert element.type == "link"
    assert element.data == {"link": {"title": "News", "description": "", "thumbnail": PHOTO}}


def test_story_members_that_are_not_story_members_are_ignored() -> None:
    story = {
        "sid": "52a5534ab169adf57700b312",
        "title": "Test Story",
        "slug": "test-story",
        "status": "working",
        "version": 20,
        "author": {"username": "rtejpar", "name": "RT"},
        "stats": {"views": 24},
        "date": {"created": "2013-12-09T05:21:14.521Z"},
        "meta": {"quoted": [], "hashtags": []},
        "comments": [],
        "siteposts": [],
        "canEdit": True,
        "elements": [READ_BACK_ELEMENT],
    }
    draft = parse_story(story, LIMITS)
    assert (draft.title, draft.slug, draft.elements) == (
        "Test Story",
        "test-story",
        [READ_BACK_ELEMENT],
    )


def test_hashtags_may_start_with_a_hash() -> None:
    assert parse_story({"hashtags": ["#Sea", "harbour"]}, LIMITS).hashtags == ["#Sea", "harbour"]
