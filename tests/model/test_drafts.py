"""The ``story`` parameter of create, save and publish: members (docs/api.md#stories), limits
(docs/api.md#limits, counted on the characters received) and fine points (docs/api.md)."""

from __future__ import annotations

import pytest

from storycore.errors import InvalidParameter, InvalidSlug
from storycore.model.drafts import STORY_MEMBERS, STORY_WRITE_MEMBERS, StoryDraft, parse_story
from storycore.settings import Limits

LIMITS = Limits()


def _refused(raw: object, limits: Limits = LIMITS) -> InvalidParameter:
    with pytest.raises(InvalidParameter) as caught:
        parse_story(raw, limits)
    return caught.value


def test_members_left_out_are_none() -> None:
    assert parse_story({}, LIMITS) == StoryDraft()


def test_a_serialized_story_is_read_like_an_object() -> None:
    assert parse_story('{"title": "T", "private": true}', LIMITS) == parse_story(
        {"title": "T", "private": True}, LIMITS
    )


def test_a_member_no_story_has_is_refused_naming_it() -> None:
    assert _refused({"titel": "typo"}).field == "story.titel"


def test_a_refused_member_is_answered_with_the_member_it_is_near() -> None:
    assert "did you mean title?" in str(_refused({"titel": "typo"}))


def test_a_member_of_a_story_as_read_is_accepted_and_ignored() -> None:
    read_back = {"title": "T", "sid": "x", "canEdit": True, "version": 3, "page": 1, "author": {}}
    assert parse_story(read_back, LIMITS) == StoryDraft(title="T")


def test_an_element_member_no_element_has_is_refused_naming_it() -> None:
    element = {"type": "text", "dta": {"text": "hello"}}
    assert _refused({"elements": [element]}).field == "story.elements.0.dta"


def test_a_title_of_200_characters_is_accepted() -> None:
    assert parse_story({"title": "t" * 200}, LIMITS).title == "t" * 200


def test_a_title_of_201_characters_is_refused_naming_story_title() -> None:
    assert _refused({"title": "t" * 201}).field == "story.title"


def test_a_description_of_2000_characters_is_accepted() -> None:
    assert parse_story({"description": "d" * 2000}, LIMITS).description == "d" * 2000


def test_a_description_of_2001_characters_is_refused_naming_story_description() -> None:
    assert _refused({"description": "d" * 2001}).field == "story.description"


def test_1000_elements_are_accepted() -> None:
    elements = ["https://example.com/"] * 1000
    assert parse_story({"elements": elements}, LIMITS).elements == elements


def test_1001_elements_are_refused_naming_story_elements() -> None:
    assert _refused({"elements": ["https://example.com/"] * 1001}).field == "story.elements"


def test_a_thumbnail_over_the_address_limit_is_refused() -> None:
    thumbnail = "https://example.com/" + "a" * 2048
    assert _refused({"thumbnail": thumbnail}).field == "story.thumbnail"


def test_limits_come_from_the_settings() -> None:
    assert _refused({"title": "t" * 11}, Limits(title=10)).field == "story.title"


def test_title_and_description_are_plain_text_stored_as_received() -> None:
    draft = parse_story({"title": "<b>Bold</b> & co", "description": "<i>x</i>"}, LIMITS)
    assert (draft.title, draft.description) == ("<b>Bold</b> & co", "<i>x</i>")


def test_an_explicit_slug_is_checked_against_the_slug_rule() -> None:
    with pytest.raises(InvalidSlug) as caught:
        parse_story({"slug": "Not A Slug"}, LIMITS)
    assert caught.value.field == "story.slug"


def test_a_slug_over_120_characters_is_invalid_slug() -> None:
    with pytest.raises(InvalidSlug):
        parse_story({"slug": "a" * 121}, LIMITS)


def test_an_empty_slug_counts_as_left_out() -> None:
    assert parse_story({"slug": ""}, LIMITS).slug is None


def test_an_empty_thumbnail_counts_as_left_out() -> None:
    assert parse_story({"thumbnail": ""}, LIMITS).thumbnail is None


def test_a_javascript_thumbnail_is_refused() -> None:
    assert _refused({"thumbnail": "javascript:alert(1)"}).field == "story.thumbnail"


@pytest.mark.parametrize("member", ["title", "slug", "elements", "private", "topics", "hashtags"])
def test_a_member_that_cannot_be_cleared_may_not_be_null(member: str) -> None:
    assert _refused({member: None}).field == f"story.{member}"


@pytest.mark.parametrize("member", ["description", "thumbnail"])
def test_a_clearable_member_sent_as_null_is_cleared(member: str) -> None:
    assert parse_story({member: None}, LIMITS).clear == {member}


@pytest.mark.parametrize(
    ("member", "value"),
    [
        ("private", "maybe"),
        ("title", 42),
        ("elements", "https://example.com/"),
        ("topics", "news"),
        ("hashtags", [1]),
    ],
)
def test_a_known_member_of_the_wrong_type_is_refused(member: str, value: object) -> None:
    assert (_refused({member: value}).field or "").startswith(f"story.{member}")


def test_topics_and_hashtags_are_trimmed_strings() -> None:
    draft = parse_story({"topics": [" News "], "hashtags": ["#Tech "]}, LIMITS)
    assert (draft.topics, draft.hashtags) == (["News"], ["#Tech"])


def test_the_parameter_name_prefixes_every_field() -> None:
    with pytest.raises(InvalidParameter) as caught:
        parse_story({"title": 1}, LIMITS, field="payload")
    assert caught.value.field == "payload.title"


# -- the one list of what a story write takes ---------------------------------------------------


def test_the_members_a_story_write_takes_are_those_of_decisions_section_6() -> None:
    assert (
        *("title", "slug", "description", "thumbnail", "elements", "private", "topics"),
        "hashtags",
    ) == STORY_WRITE_MEMBERS


def test_a_member_a_write_takes_is_never_ignored_as_read_back() -> None:
    assert set(STORY_WRITE_MEMBERS) <= STORY_MEMBERS


def test_a_drafts_record_members_are_those_sent_but_its_elements() -> None:
    draft = parse_story({"title": "T", "private": False, "elements": [], "topics": []}, LIMITS)
    assert draft.record_members() == {"title": "T", "private": False, "topics": []}
