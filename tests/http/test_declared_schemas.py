"""A write's members are declared once (``storycore.input.declared``): the reader of a story and
of a profile update, and the OpenAPI document's ``StoryWrite`` and ``UserWrite``, are made of
the same declaration (``drafts.STORY_WRITE``, ``members.PROFILE_WRITE``), so they agree: what a
member's schema takes, the reader takes, and what it refuses, the reader refuses
(docs/api.md#stories, docs/api.md#limits).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import jsonschema_rs
import pytest

from storycore.errors import InvalidParameter
from storycore.http._write_schemas import STORY, USER, write_schemas
from storycore.input.declared import Elements, read_declared
from storycore.input.fields import Members
from storycore.model.drafts import STORY_WRITE, StoryDraft
from storycore.model.members import PROFILE_WRITE
from storycore.settings import Limits

LIMITS = Limits(title=10, description=12, profile_field=8, address=40, slug=12, elements=3)
SCHEMAS = write_schemas(LIMITS)

VALUES: list[Any] = [
    None,
    "",
    " ",
    "a",
    "plain words",
    "t" * 8,
    "t" * 9,
    "t" * 10,
    "t" * 11,
    "t" * 12,
    "t" * 13,
    "bell\x07",
    "line\nbreak",
    "nul\x00",
    "c1\x85",
    "#tag",
    "my-slug",
    "My Slug",
    "create",
    "https://example.com",
    "//example.com/x",
    "https://example.com/" + "x" * 21,
    "javascript:alert(1)",
    0,
    1,
    -1,
    1.5,
    True,
    False,
    [],
    ["a"],
    [""],
    [" "],
    ["a", "b", "c", "d"],
    ["t" * 100],
    ["t" * 101],
    [1],
    {},
    {"a": 1},
]


def _declared(declaration: Any, component: str) -> list[tuple[str, Any]]:
    properties = SCHEMAS[component]["properties"]
    return [
        (name, properties[name])
        for name, kind in declaration.items()
        if not isinstance(kind, Elements)  # elements: the element schemas' own tests
    ]


CASES = [
    pytest.param(declaration, name, schema, value, id=f"{component}.{name}={value!r}"[:60])
    for declaration, component in ((STORY_WRITE, STORY), (PROFILE_WRITE, USER))
    for name, schema in _declared(declaration, component)
    for value in VALUES
]


def _read(declaration: Any, name: str, value: Any) -> bool:
    """Whether the reader takes ``value`` for the member ``name``; ``null`` where the
    declaration's kind refuses it is refused by the write (``parse_story``)."""
    if value is None and not declaration[name].nullable:
        return False
    try:
        read_declared({name: declaration[name]}, Members({name: value}, "x"), LIMITS)
    except InvalidParameter:
        return False
    return True


@pytest.mark.parametrize(("declaration", "name", "schema", "value"), CASES)
def test_a_declared_members_schema_and_reader_agree(
    declaration: Any, name: str, schema: dict[str, Any], value: Any
) -> None:
    assert jsonschema_rs.validator_for(schema).is_valid(value) == _read(declaration, name, value)


def test_the_story_schema_names_the_declared_members_in_order() -> None:
    properties = list(SCHEMAS[STORY]["properties"])
    assert properties[: len(STORY_WRITE)] == list(STORY_WRITE)


def test_the_user_schema_names_the_declared_members_in_order() -> None:
    properties = list(SCHEMAS[USER]["properties"])
    assert properties[: len(PROFILE_WRITE)] == list(PROFILE_WRITE)


def test_a_story_draft_holds_the_declared_members() -> None:
    assert [f.name for f in fields(StoryDraft) if f.name != "clear"] == list(STORY_WRITE)
