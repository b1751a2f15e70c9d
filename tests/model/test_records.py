"""Stored records (docs/api.md#shapes, docs/api.md#stories, docs/api.md#elements): element types,
what makes a
story public (docs/api.md#lists-filters-sorting-and-search: published and not private), and
rebuilding records from
storage rows without validating them again."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest

from storycore.model.element_kinds import QuoteElement
from storycore.model.records import (
    ELEMENT_TYPES,
    Attribution,
    Quoted,
    Source,
    StoryRecord,
    UserRecord,
    trusted_element,
    trusted_story,
    trusted_user,
)

NOW = "2026-11-22T10:15:30.123Z"


def _story(**members: Any) -> StoryRecord:
    base: dict[str, Any] = {
        "id": "s1",
        "author_id": "u1",
        "title": "T",
        "slug": "t",
        "status": "published",
        "created": NOW,
        "updated": NOW,
    }
    return StoryRecord(**{**base, **members})


def test_the_element_types_are_those_of_decisions_section_7() -> None:
    assert set(ELEMENT_TYPES) == {"quote", "link", "image", "video", "text", "other"}


def test_a_new_story_record_is_version_1_not_modified_and_not_private() -> None:
    story = _story()
    assert (story.version, story.modified, story.private) == (1, False, False)


@pytest.mark.parametrize(
    ("status", "private", "public"),
    [("published", False, True), ("published", True, False), ("working", False, False)],
)
def test_a_story_is_public_when_published_and_not_private(
    status: str, private: bool, public: bool
) -> None:
    assert _story(status=status, private=private).is_public is public


def test_a_record_refuses_unknown_members() -> None:
    with pytest.raises(pydantic.ValidationError):
        _story(colour="blue")


def test_a_user_without_a_password_has_no_hash() -> None:
    user = UserRecord(id="u1", username="alice", created=NOW, updated=NOW)
    assert user.password_hash is None
    assert (user.plan, user.editor, user.can_feature) == ("free", False, False)


def test_a_story_rebuilt_from_storage_equals_the_one_stored() -> None:
    story = _story(
        quoted=[Quoted(username="a", name="A", userid="1", avatar="", source="socialA")],
        tags=["x"],
    )
    assert trusted_story(story.model_dump()).model_dump() == story.model_dump()


def test_an_element_rebuilt_from_storage_equals_the_one_stored() -> None:
    element = QuoteElement(
        id="e1",
        permalink="https://sociala.example/a/status/1",
        source=Source(name="socialA", href="https://sociala.example"),
        attribution=Attribution(username="a"),
        data={"quote": {"text": ""}},
        added_at=NOW,
    )
    assert trusted_element(element.model_dump()).model_dump() == element.model_dump()


def test_a_user_rebuilt_from_storage_equals_the_one_stored() -> None:
    user = UserRecord(id="u1", username="alice", editor=True, created=NOW, updated=NOW)
    assert trusted_user(user.model_dump()).model_dump() == user.model_dump()


def test_a_user_rebuilt_from_a_sparse_row_takes_the_defaults() -> None:
    row = {"id": "u1", "username": "alice", "created": NOW, "updated": NOW}
    rebuilt = trusted_user(row)
    expected = UserRecord(id="u1", username="alice", created=NOW, updated=NOW)
    assert rebuilt.model_dump() == expected.model_dump()
