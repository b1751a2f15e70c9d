"""Reading client JSON members: a null member counts as not sent, a known member of the wrong
type is a 400, and ``field`` is the dotted path to it (docs/api.md#errors, docs/api.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from storycore.errors import InvalidParameter
from storycore.input.fields import Members, decode_object

ADDRESS_LIMIT = 2048


def _refused(call: Callable[[], object]) -> InvalidParameter:
    with pytest.raises(InvalidParameter) as caught:
        call()
    return caught.value


def test_a_string_holding_a_json_object_is_decoded() -> None:
    assert decode_object('{"title": "T"}', "story") == {"title": "T"}


def test_bytes_holding_a_json_object_are_decoded() -> None:
    assert decode_object(b'{"title": "T"}', "story") == {"title": "T"}


def test_an_object_is_taken_as_it_is() -> None:
    data = {"title": "T"}
    assert decode_object(data, "story") is data


@pytest.mark.parametrize("raw", ["{", "", "{'title': 1}", "nan"])
def test_malformed_json_is_invalid_parameter_naming_the_parameter(raw: str) -> None:
    error = _refused(lambda: decode_object(raw, "story"))
    assert error.field == "story"


@pytest.mark.parametrize("raw", ["[1]", '"text"', "3", "null", 3, None, ["a"]])
def test_json_that_is_not_an_object_is_invalid_parameter(raw: object) -> None:
    assert _refused(lambda: decode_object(raw, "user")).field == "user"


def test_a_member_path_is_dotted_under_its_parameter() -> None:
    assert Members({}, "story").field("title") == "story.title"


def test_a_member_path_without_a_parameter_is_the_member_name() -> None:
    assert Members({}, "").field("q") == "q"


def test_a_nested_object_extends_the_path() -> None:
    inner = Members({"data": {"image": {}}}, "story.elements.3").object("data")
    assert inner is not None
    assert inner.field("image") == "story.elements.3.data.image"


def test_a_null_member_counts_as_not_sent() -> None:
    members = Members({"title": None}, "story")
    assert not members.has("title")
    assert members.string("title") is None


def test_an_absent_member_is_none() -> None:
    assert Members({}, "story").string("title") is None


def test_a_required_member_that_is_absent_names_its_field() -> None:
    error = _refused(lambda: Members({}, "story").string("title", required=True))
    assert error.field == "story.title"
    assert "required" in error.message


def test_a_required_member_sent_as_null_is_refused() -> None:
    error = _refused(lambda: Members({"type": None}, "e").string("type", required=True))
    assert error.field == "e.type"


@pytest.mark.parametrize("value", [1, 1.5, True, ["t"], {"t": 1}])
def test_a_string_member_of_another_type_names_its_field(value: object) -> None:
    assert _refused(lambda: Members({"title": value}, "story").string("title")).field == (
        "story.title"
    )


def test_a_string_at_its_length_limit_is_accepted() -> None:
    assert Members({"t": "x" * 5}, "s").string("t", max_length=5) == "x" * 5


def test_a_string_over_its_length_limit_names_the_field_and_limit() -> None:
    error = _refused(lambda: Members({"t": "x" * 6}, "s").string("t", max_length=5))
    assert error.field == "s.t"
    assert "5" in error.message


def test_a_length_limit_counts_characters_not_bytes() -> None:
    assert Members({"t": "é" * 5}, "s").string("t", max_length=5) == "é" * 5


def test_a_string_with_a_control_character_is_refused() -> None:
    assert _refused(lambda: Members({"t": "a\x00b"}, "s").string("t")).field == "s.t"


@pytest.mark.parametrize("value", [True, False])
def test_a_boolean_member_takes_json_booleans(value: bool) -> None:
    assert Members({"private": value}, "story").boolean("private") is value


@pytest.mark.parametrize("value", ["maybe", "true", 1, 0, "yes"])
def test_a_boolean_member_of_another_type_is_refused(value: object) -> None:
    error = _refused(lambda: Members({"private": value}, "story").boolean("private"))
    assert error.field == "story.private"


@pytest.mark.parametrize("value", [0, 7, 100, 7.0])
def test_an_integer_member_within_its_bounds_is_accepted(value: int) -> None:
    assert Members({"n": value}, "d").integer("n", maximum=100) == value


@pytest.mark.parametrize("value", [-1, 101, True, 1.5, 101.0, float("nan"), float("inf"), "7"])
def test_an_integer_member_out_of_bounds_or_of_another_type_is_refused(value: object) -> None:
    assert _refused(lambda: Members({"n": value}, "d").integer("n", maximum=100)).field == "d.n"


def test_an_address_member_may_be_empty_when_not_required() -> None:
    assert Members({"u": ""}, "s").url("u", max_length=ADDRESS_LIMIT) == ""


def test_a_required_address_member_may_not_be_empty() -> None:
    error = _refused(
        lambda: Members({"u": ""}, "s").url("u", max_length=ADDRESS_LIMIT, required=True)
    )
    assert error.field == "s.u"


def test_an_address_member_must_be_http_or_https() -> None:
    error = _refused(lambda: Members({"u": "data:,x"}, "s").url("u", max_length=ADDRESS_LIMIT))
    assert error.field == "s.u"


def test_a_list_of_strings_is_trimmed() -> None:
    assert Members({"topics": [" a ", "b"]}, "story").strings(
        "topics", max_items=5, max_length=10
    ) == ["a", "b"]


@pytest.mark.parametrize("item", ["", "   ", 3, None])
def test_a_blank_or_non_string_item_names_its_index(item: object) -> None:
    members = Members({"topics": ["ok", "fine", item]}, "story")
    error = _refused(lambda: members.strings("topics", max_items=5, max_length=10))
    assert error.field == "story.topics.2"


def test_a_list_over_its_item_limit_is_refused() -> None:
    members = Members({"topics": ["a"] * 6}, "story")
    assert _refused(lambda: members.strings("topics", max_items=5, max_length=10)).field == (
        "story.topics"
    )


def test_an_item_over_its_length_limit_names_its_index() -> None:
    members = Members({"topics": ["a", "x" * 11]}, "story")
    error = _refused(lambda: members.strings("topics", max_items=5, max_length=10))
    assert error.field == "story.topics.1"


def test_an_array_at_its_item_limit_is_accepted() -> None:
    assert Members({"elements": [1] * 3}, "story").array("elements", max_items=3) == [1, 1, 1]


def test_an_array_over_its_item_limit_names_the_limit() -> None:
    error = _refused(lambda: Members({"elements": [1] * 4}, "story").array("elements", max_items=3))
    assert error.field == "story.elements"
    assert "3" in error.message


@pytest.mark.parametrize("value", ["[]", {"a": 1}, 3])
def test_an_array_member_of_another_type_is_refused(value: object) -> None:
    error = _refused(lambda: Members({"elements": value}, "story").array("elements", max_items=3))
    assert error.field == "story.elements"


@pytest.mark.parametrize("value", ["{}", [], 3])
def test_an_object_member_of_another_type_is_refused(value: object) -> None:
    assert _refused(lambda: Members({"data": value}, "e").object("data")).field == "e.data"
