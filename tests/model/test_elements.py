"""Normalizing a story's ``elements`` (docs/api.md#elements): permalink strings become typed
elements, addresses are http(s) only, text HTML is sanitized with nh3, ``data`` keeps the members
of its type, ids are given by the service and kept when sent back. Limits of docs/api.md#limits (one
text element 20,000 characters, an address 2,048, counted before sanitizing, docs/api.md) and
dotted ``field`` paths (docs/api.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings

from storycore.errors import InvalidParameter
from storycore.model.element_kinds import Element, OtherElement
from storycore.model.elements import normalize_elements
from storycore.model.resolvers import OfflineResolver
from storycore.settings import Limits, Settings
from storycore.testing.strategies import elements as element_lists

BOUNDED = settings(max_examples=50, deadline=None, database=None)
SETTINGS = Settings()
RESOLVER = OfflineResolver(SETTINGS)
NOW = "2026-11-22T10:15:30.123Z"
EARLIER = "2026-01-01T00:00:00.000Z"
POST = "https://sociala.example/alice/status/1"


def _normalize(
    items: Sequence[Any], previous: Sequence[Element] = (), limits: Limits = SETTINGS.limits
) -> list[Element]:
    return normalize_elements(
        items, path="story.elements", limits=limits, resolver=RESOLVER, previous=previous, now=NOW
    )


def _one(item: Any) -> Element:
    (element,) = _normalize([item])
    return element


def _refused(items: Sequence[Any]) -> InvalidParameter:
    with pytest.raises(InvalidParameter) as caught:
        _normalize(items)
    return caught.value


def test_a_permalink_string_becomes_a_typed_element() -> None:
    element = _one(POST)
    assert (element.type, element.permalink, element.added_at) == ("quote", POST, NOW)


def test_permalink_strings_and_element_objects_may_be_mixed() -> None:
    elements = _normalize([POST, {"type": "text", "data": {"text": "hi"}}])
    assert [element.type for element in elements] == ["quote", "text"]


@pytest.mark.parametrize(
    "address", ["javascript:alert(1)", "data:text/html,x", "ftp://example.com/a", "/relative"]
)
def test_a_permalink_string_that_is_not_http_is_refused_naming_its_index(address: str) -> None:
    assert _refused(["https://example.com/", address]).field == "story.elements.1"


def test_a_permalink_string_at_the_address_limit_is_accepted() -> None:
    address = "https://example.com/" + "a" * (2048 - len("https://example.com/"))
    assert _one(address).permalink == address


def test_a_permalink_string_over_the_address_limit_is_refused() -> None:
    address = "https://example.com/" + "a" * (2049 - len("https://example.com/"))
    assert _refused([address]).field == "story.elements.0"


@pytest.mark.parametrize("item", [42, None, True, ["https://example.com/"]])
def test_an_item_that_is_neither_a_permalink_nor_an_object_is_refused(item: Any) -> None:
    assert _refused([item]).field == "story.elements.0"


def test_an_element_objects_permalink_must_be_http_naming_its_dotted_path() -> None:
    items = ["https://a.example/"] * 3 + [{"type": "link", "permalink": "javascript:alert(1)"}]
    assert _refused(items).field == "story.elements.3.permalink"


@pytest.mark.parametrize(
    ("item", "field"),
    [
        ({"type": "other", "source": {"name": "s", "href": "data:,x"}}, "source.href"),
        ({"type": "other", "attribution": {"href": "javascript:x"}}, "attribution.href"),
        ({"type": "other", "attribution": {"thumbnail": "javascript:x"}}, "attribution.thumbnail"),
        ({"type": "image", "data": {"image": {"src": "data:image/png,x"}}}, "data.image.src"),
        ({"type": "video", "data": {"video": {"src": "javascript:x"}}}, "data.video.src"),
        (
            {"type": "link", "permalink": POST, "data": {"link": {"thumbnail": "javascript:x"}}},
            "data.link.thumbnail",
        ),
    ],
)
def test_every_address_of_an_element_object_must_be_http(item: dict[str, Any], field: str) -> None:
    assert _refused([item]).field == f"story.elements.0.{field}"


def test_an_element_object_needs_a_type() -> None:
    assert _refused([{"data": {}}]).field == "story.elements.0.type"


def test_an_unknown_element_type_is_refused() -> None:
    assert _refused([{"type": "poll"}]).field == "story.elements.0.type"


@pytest.mark.parametrize("kind", ["quote", "link"])
def test_quotes_and_links_need_a_permalink(kind: str) -> None:
    assert _refused([{"type": kind}]).field == "story.elements.0.permalink"


@pytest.mark.parametrize("kind", ["image", "video"])
def test_images_and_videos_need_a_source_address(kind: str) -> None:
    assert _refused([{"type": kind}]).field == f"story.elements.0.data.{kind}.src"


def test_text_html_is_sanitized_on_write() -> None:
    html = '<p onclick="x()">Hi <a href="javascript:alert(1)">x</a></p><script>alert(1)</script>'
    element = _one({"type": "text", "data": {"text": html}})
    assert element.type == "text"
    text = element.data["text"]
    assert "script" not in text
    assert "onclick" not in text
    assert "javascript" not in text
    assert text.startswith("<p>Hi ")


def test_a_text_element_of_20000_characters_is_accepted() -> None:
    element = _one({"type": "text", "data": {"text": "x" * 20000}})
    assert element.type == "text"
    assert len(element.data["text"]) == 20000


def test_a_text_element_over_20000_characters_is_refused_naming_its_path() -> None:
    assert _refused([{"type": "text", "data": {"text": "x" * 20001}}]).field == (
        "story.elements.0.data.text"
    )


def test_the_text_limit_counts_the_characters_received_before_sanitizing() -> None:
    text = "<script>" + "x" * 19990 + "</script>"  # 20,007 received, nothing once sanitized
    assert _refused([{"type": "text", "data": {"text": text}}]).field == (
        "story.elements.0.data.text"
    )


def test_the_text_limit_is_configurable() -> None:
    with pytest.raises(InvalidParameter):
        _normalize([{"type": "text", "data": {"text": "x" * 11}}], limits=Limits(text_element=10))


@pytest.mark.parametrize(
    ("item", "data"),
    [
        ({"type": "text"}, {"text": ""}),
        ({"type": "quote", "permalink": POST}, {"quote": {"text": ""}}),
        (
            {"type": "link", "permalink": POST},
            {"link": {"title": "", "description": "", "thumbnail": ""}},
        ),
        (
            {"type": "image", "data": {"image": {"src": "https://a.example/i.png"}}},
            {"image": {"src": "https://a.example/i.png", "caption": "", "width": 0, "height": 0}},
        ),
        (
            {"type": "video", "data": {"video": {"src": "https://a.example/v"}}},
            {"video": {"src": "https://a.example/v", "title": "", "thumbnail": ""}},
        ),
        ({"type": "other", "data": {"anything": 1}}, {}),
    ],
)
def test_data_holds_exactly_the_members_of_its_type(item: dict[str, Any], data: Any) -> None:
    assert _one(item).data == data


def test_data_of_another_type_and_unknown_members_are_dropped() -> None:
    item = {
        "type": "link",
        "permalink": POST,
        "data": {"link": {"title": "T", "extra": 1}, "image": {"src": "https://a.example/i"}},
    }
    element = _one(item)
    assert element.type == "link"
    assert element.data == {"link": {"title": "T", "description": "", "thumbnail": ""}}


@pytest.mark.parametrize("width", [-1, 100_001, True, 1.5, "10"])
def test_an_image_size_must_be_a_whole_number_in_range(width: Any) -> None:
    item = {"type": "image", "data": {"image": {"src": "https://a.example/i", "width": width}}}
    assert _refused([item]).field == "story.elements.0.data.image.width"


def test_an_element_without_an_id_is_given_one() -> None:
    element = _one({"type": "other"})
    assert element.id


def test_given_ids_are_unique_within_the_story() -> None:
    elements = _normalize([{"type": "other"}] * 50 + ["https://example.com/"] * 50)
    assert len({element.id for element in elements}) == 100


def test_an_element_sent_with_an_id_keeps_it() -> None:
    assert _one({"id": "keep-me_1", "type": "other"}).id == "keep-me_1"


@pytest.mark.parametrize("element_id", ["has space", "x" * 33, "dot.ted", "é"])
def test_an_element_id_breaking_the_id_rule_is_refused(element_id: str) -> None:
    assert _refused([{"id": element_id, "type": "other"}]).field == "story.elements.0.id"


def test_a_repeated_element_id_is_refused_naming_the_repeat() -> None:
    items = [
        {"id": "a", "type": "other"},
        {"id": "b", "type": "other"},
        {"id": "a", "type": "other"},
    ]
    assert _refused(items).field == "story.elements.2.id"


def test_an_element_sent_back_keeps_its_added_at() -> None:
    previous = [OtherElement(id="a1", added_at=EARLIER)]
    element = _one({"id": "a1", "type": "other", "added_at": NOW})
    assert element.added_at == NOW
    (kept,) = _normalize([{"id": "a1", "type": "other", "added_at": NOW}], previous=previous)
    assert kept.added_at == EARLIER


def test_a_new_element_is_added_now_unless_it_says_when() -> None:
    assert _one({"type": "other"}).added_at == NOW
    assert _one({"type": "other", "added_at": EARLIER}).added_at == EARLIER


def test_a_fresh_id_never_reuses_the_id_of_a_previous_element() -> None:
    previous = [OtherElement(id=f"p{i}", added_at=EARLIER) for i in range(5)]
    elements = _normalize([{"type": "other"}] * 20, previous=previous)
    assert not {element.id for element in elements} & {p.id for p in previous}
    assert all(element.added_at == NOW for element in elements)


def test_posted_at_is_normalized_to_utc_milliseconds() -> None:
    element = _one({"type": "other", "posted_at": "2026-11-20T09:00:00+01:00"})
    assert element.posted_at == "2026-11-20T08:00:00.000Z"


@pytest.mark.parametrize("posted_at", ["2026-11-20", "2026-11-20T08:00:00", "yesterday", 5])
def test_a_posted_at_that_is_not_a_zoned_timestamp_is_refused(posted_at: Any) -> None:
    assert _refused([{"type": "other", "posted_at": posted_at}]).field == (
        "story.elements.0.posted_at"
    )


def test_a_posted_at_out_of_the_representable_range_is_refused() -> None:
    assert _refused([{"type": "other", "posted_at": "0001-01-01T00:00:00+01:00"}]).field == (
        "story.elements.0.posted_at"
    )


def test_source_and_attribution_are_kept_with_defaults() -> None:
    element = _one(
        {
            "type": "quote",
            "permalink": POST,
            "source": {"name": "socialA", "href": "https://sociala.example"},
            "attribution": {"name": "Alice"},
        }
    )
    assert element.source is not None
    assert element.attribution is not None
    assert (element.source.username, element.source.userid) == ("", "")
    assert (element.attribution.name, element.attribution.href) == ("Alice", "")


@BOUNDED
@given(element_lists(max_size=12))
def test_normalized_elements_come_back_unchanged_when_sent_again(
    items: list[str | dict[str, Any]],
) -> None:
    first = _normalize(items)
    again = _normalize([element.model_dump() for element in first], previous=first)
    assert again == first


def test_members_sent_as_null_take_their_defaults() -> None:
    element = _one(
        {
            "type": "image",
            "id": None,
            "permalink": None,
            "source": None,
            "attribution": {"name": None},
            "data": {"image": {"src": "https://a.example/i.png", "caption": None, "width": None}},
            "posted_at": None,
            "added_at": None,
        }
    )
    assert element.id
    assert (element.permalink, element.source, element.posted_at) == (None, None, None)
    assert element.attribution is not None
    assert element.attribution.name == ""
    assert element.type == "image"
    assert element.data == {
        "image": {"src": "https://a.example/i.png", "caption": "", "width": 0, "height": 0}
    }
    assert element.added_at == NOW


def test_a_required_member_sent_as_null_is_refused_as_not_sent() -> None:
    refused = _refused([{"type": "video", "data": {"video": {"src": None}}}])
    assert (refused.field, refused.message) == (
        "story.elements.0.data.video.src",
        "story.elements.0.data.video.src is required",
    )


def test_unknown_members_of_source_and_attribution_are_dropped() -> None:
    element = _one(
        {"type": "other", "source": {"name": "s", "colour": 1}, "attribution": {"mood": "x"}}
    )
    assert element.source is not None
    assert element.attribution is not None
    assert set(element.source.model_dump()) == {"name", "href", "username", "userid"}
    assert set(element.attribution.model_dump()) == {"name", "username", "href", "thumbnail"}


@pytest.mark.parametrize(
    ("item", "field", "message"),
    [
        ({"type": 5}, "type", "must be a string"),
        ({"type": "poll"}, "type", "must be one of text, quote, image, video, link, other"),
        ({"type": "other", "data": []}, "data", "must be an object"),
        ({"type": "image", "data": {"image": "x"}}, "data.image", "must be an object"),
        ({"type": "link"}, "permalink", "is required"),
        ({"type": "text", "data": {"text": 5}}, "data.text", "must be a string"),
        (
            {"type": "other", "source": {"name": "a\x00"}},
            "source.name",
            "must not contain control characters",
        ),
    ],
)
def test_a_fault_names_its_field_and_what_the_member_must_be(
    item: dict[str, Any], field: str, message: str
) -> None:
    refused = _refused([item])
    assert (refused.field, refused.message) == (
        f"story.elements.0.{field}",
        f"story.elements.0.{field} {message}",
    )
