"""Accepted text: any Unicode but control characters (storycore.rules.text; a known member of the
wrong kind is a 400 naming its field, docs/api.md)."""

from __future__ import annotations

import pytest

from storycore.errors import InvalidParameter
from storycore.rules.text import check_text


@pytest.mark.parametrize(
    "text", ["plain", "tab\there", "line\nfeed", "carriage\r\nreturn", "émoji 🎉", "\u2028", ""]
)
def test_text_without_control_characters_is_accepted(text: str) -> None:
    assert check_text(text, "story.title") == text


@pytest.mark.parametrize(
    "control", ["\x00", "\x07", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\x9f"]
)
def test_a_control_character_is_invalid_parameter_naming_its_field(control: str) -> None:
    with pytest.raises(InvalidParameter) as caught:
        check_text(f"a{control}b", "story.title")
    assert caught.value.field == "story.title"
