"""The kinds of element (docs/api.md#elements), each written once in
``storycore.model.element_kinds``: one class per ``type``, told apart by it; what each kind's
``data`` holds and requires; the JSON of an element, stored and answered, unchanged from what
stores already hold."""

from __future__ import annotations

from collections.abc import Mapping
from typing import get_type_hints

import orjson
import pytest
from hypothesis import Phase, find, settings
from pydantic import TypeAdapter, ValidationError

from storycore.model.element_kinds import (
    ELEMENT_CLASSES,
    ELEMENT_TYPES,
    Element,
    ElementType,
    ImageElement,
    LinkElement,
    OtherElement,
    QuoteElement,
    Source,
    TextElement,
    VideoElement,
)
from storycore.model.records import element_document, element_of, trusted_element
from storycore.testing.strategies import element_objects

NOW = "2026-11-22T10:15:30.123Z"
ELEMENTS = TypeAdapter[Element](Element)

# documents as stores written before the kinds were typed hold them, one of each kind and shape
STORED = [
    '{"id":"r0","type":"quote","permalink":"https://sociala.example/alice/status/1","source":'
    '{"name":"socialA","href":"https://sociala.example","username":"alice","userid":""},'
    '"attribution":{"name":"alice","username":"alice","href":"https://sociala.example/alice",'
    '"thumbnail":""},"data":{"quote":{"text":""}},"posted_at":null,'
    '"added_at":"2026-11-22T10:15:30.123Z"}',
    '{"id":"r1","type":"image","permalink":"https://a.example/pic.PNG","source":{"name":'
    '"a.example","href":"https://a.example","username":"","userid":""},"attribution":null,'
    '"data":{"image":{"src":"https://a.example/pic.PNG","caption":"","width":0,"height":0}},'
    '"posted_at":null,"added_at":"2026-11-22T10:15:30.123Z"}',
    '{"id":"r2","type":"video","permalink":"https://youtu.be/watch?v=x","source":{"name":'
    '"youtu.be","href":"https://youtu.be","username":"","userid":""},"attribution":null,'
    '"data":{"video":{"src":"https://youtu.be/watch?v=x","title":"","thumbnail":""}},'
    '"posted_at":null,"added_at":"2026-11-22T10:15:30.123Z"}',
    '{"id":"r3","type":"link","permalink":"https://a.example/page","source":{"name":'
    '"a.example","href":"https://a.example","username":"","userid":""},"attribution":null,'
    '"data":{"link":{"title":"","description":"","thumbnail":""}},"posted_at":null,'
    '"added_at":"2026-11-22T10:15:30.123Z"}',
    '{"id":"t1","type":"text","permalink":null,"source":null,"attribution":null,"data":'
    '{"text":"<p>Hi <b>there</b> #tag</p>"},"posted_at":"2026-11-20T08:00:00.000Z",'
    '"added_at":"2026-11-22T10:15:30.123Z"}',
    '{"id":"q1","type":"quote","permalink":"https://sociala.example/alice/status/2","source":'
    '{"name":"socialA","href":"https://sociala.example","username":"alice","userid":"1"},'
    '"attribution":{"name":"Alice","username":"alice","href":"https://sociala.example/alice",'
    '"thumbnail":"https://a.example/a.png"},"data":{"quote":{"text":"said \u2028 </script>"}},'
    '"posted_at":null,"added_at":"2026-11-22T10:15:30.123Z"}',
    '{"id":"l1","type":"link","permalink":"https://a.example/x","source":null,"attribution":'
    'null,"data":{"link":{"title":"T","description":"D","thumbnail":"https://a.example/t.png"}},'
    '"posted_at":null,"added_at":"2026-11-22T10:15:30.123Z"}',
    '{"id":"i1","type":"image","permalink":null,"source":null,"attribution":null,"data":'
    '{"image":{"src":"https://a.example/i.png","caption":"C","width":640,"height":480}},'
    '"posted_at":null,"added_at":"2026-11-22T10:15:30.123Z"}',
    '{"id":"v1","type":"video","permalink":null,"source":null,"attribution":null,"data":'
    '{"video":{"src":"https://a.example/v","title":"V","thumbnail":""}},"posted_at":null,'
    '"added_at":"2026-11-22T10:15:30.123Z"}',
    '{"id":"o1","type":"other","permalink":null,"source":null,"attribution":null,"data":{},'
    '"posted_at":null,"added_at":"2026-11-22T10:15:30.123Z"}',
]


def test_the_element_types_are_counted_in_the_order_of_the_interface() -> None:
    assert ELEMENT_TYPES == ("text", "quote", "image", "video", "link", "other")


def test_each_element_type_has_its_own_class() -> None:
    assert set(ELEMENT_CLASSES) == set(ELEMENT_TYPES)
    assert all(ELEMENT_CLASSES[kind].model_fields["type"].default == kind for kind in ELEMENT_TYPES)


@pytest.mark.parametrize("document", STORED)
def test_a_stored_element_reads_back_as_the_class_of_its_type(document: str) -> None:
    element = element_of(document)
    assert type(element) is ELEMENT_CLASSES[element.type]


@pytest.mark.parametrize("document", STORED)
def test_a_stored_element_is_written_again_byte_for_byte(document: str) -> None:
    assert element_document(element_of(document)) == document


@pytest.mark.parametrize("document", STORED)
def test_a_stored_element_dumps_to_the_members_it_was_stored_with_in_order(document: str) -> None:
    stored = orjson.loads(document)
    dumped = trusted_element(orjson.loads(document)).model_dump()
    assert (dumped, list(dumped)) == (stored, list(stored))


def test_elements_inside_another_model_are_written_as_each_alone() -> None:
    elements = [element_of(document) for document in STORED]
    assert TypeAdapter(list[Element]).dump_json(elements).decode() == f"[{','.join(STORED)}]"


@pytest.mark.parametrize("document", STORED)
def test_a_stored_element_validates_to_itself(document: str) -> None:
    assert element_document(ELEMENTS.validate_json(document)) == document


@pytest.mark.parametrize(
    ("element", "data"),
    [
        (TextElement(added_at=NOW), {"text": ""}),
        (QuoteElement(permalink="https://a.example/p", added_at=NOW), {"quote": {"text": ""}}),
        (
            LinkElement(permalink="https://a.example/p", added_at=NOW),
            {"link": {"title": "", "description": "", "thumbnail": ""}},
        ),
        (
            ImageElement(data={"image": {"src": "https://a.example/i.png"}}, added_at=NOW),
            {"image": {"src": "https://a.example/i.png", "caption": "", "width": 0, "height": 0}},
        ),
        (
            VideoElement(data={"video": {"src": "https://a.example/v"}}, added_at=NOW),
            {"video": {"src": "https://a.example/v", "title": "", "thumbnail": ""}},
        ),
        (OtherElement(added_at=NOW), {}),
    ],
)
def test_an_element_built_in_code_takes_the_defaults_of_its_kind(
    element: Element, data: Mapping[str, object]
) -> None:
    assert element.data == data


@pytest.mark.parametrize("kind", [QuoteElement, LinkElement])
def test_quotes_and_links_built_in_code_need_a_permalink(
    kind: type[QuoteElement | LinkElement],
) -> None:
    with pytest.raises(ValidationError):
        kind(added_at=NOW)  # type: ignore[call-arg]  # on purpose: the permalink is left out


@pytest.mark.parametrize(("kind", "type_"), [(ImageElement, "image"), (VideoElement, "video")])
def test_images_and_videos_built_in_code_need_a_source_address(
    kind: type[ImageElement | VideoElement], type_: str
) -> None:
    with pytest.raises(ValidationError):
        kind(data={type_: {"caption": "no address"}}, added_at=NOW)


def test_text_html_is_sanitized_even_when_built_in_code() -> None:
    element = TextElement(data={"text": "<p>a</p><script>alert(1)</script>"}, added_at=NOW)
    assert element.data["text"] == "<p>a</p>"


def test_the_clients_length_limits_do_not_bound_what_code_builds() -> None:
    name = "n" * 5000  # a client may send 2,000 characters
    assert Source(name=name).name == name
    assert len(TextElement(data={"text": "x" * 50_000}, added_at=NOW).data["text"]) == 50_000


def test_members_outside_a_kinds_shape_are_dropped() -> None:
    element = ELEMENTS.validate_python(
        {
            "type": "video",
            "data": {"video": {"src": "https://a.example/v", "width": 3}, "text": "x"},
            "source": {"name": "s", "colour": "blue"},
            "added_at": NOW,
        }
    )
    assert orjson.loads(element_document(element))["data"] == {
        "video": {"src": "https://a.example/v", "title": "", "thumbnail": ""}
    }
    assert element.source is not None
    assert "colour" not in element.source.model_dump()


def _data_members(kind: str) -> set[str]:
    """The members of ``data.<kind>`` in the kind's class."""
    data = ELEMENT_CLASSES[kind].model_fields["data"].annotation
    return set(get_type_hints(get_type_hints(data)[kind]))


@pytest.mark.parametrize("kind", ["quote", "link", "image", "video"])
def test_the_testing_kit_sends_every_data_member_of_each_kind(kind: ElementType) -> None:
    sent = find(
        element_objects(kind),
        lambda item: _data_members(kind) <= set(item["data"][kind]),
        settings=settings(database=None, max_examples=500, phases=[Phase.generate]),
    )
    assert set(sent["data"][kind]) == _data_members(kind)
