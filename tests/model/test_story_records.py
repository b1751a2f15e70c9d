"""The one builder of a new story's record (a create, an import, a Storify import): the draft's
members over the defaults, what a write derives, the popularity of the counters, and no state
that no write makes."""

from __future__ import annotations

from typing import Any

from storycore.model.drafts import parse_story
from storycore.model.element_kinds import ImageElement
from storycore.model.records import StoryRecord
from storycore.model.story_records import story_record
from storycore.settings import Limits

NOW = "2026-11-22T10:15:30.123Z"
LATER = "2026-11-23T10:15:30.123Z"


def _record(story: dict[str, Any] | None = None, **members: Any) -> StoryRecord:
    sent = {"title": "Harbour", "slug": "harbour"} if story is None else story
    draft = parse_story(sent, Limits())
    given: dict[str, Any] = {"story_id": "s1", "author_id": "u1", "status": "working"}
    return story_record(draft, [], created=NOW, **{**given, **members})


def test_a_new_record_is_version_1_unmodified_unfeatured_and_uncounted() -> None:
    record = _record()
    assert (record.version, record.modified, record.featured_at) == (1, False, None)
    counters = (record.views, record.likes, record.comments, record.popularity)
    assert counters == (0, 0, 0, 0)


def test_a_record_holds_the_drafts_members() -> None:
    story = {"title": "T", "slug": "t", "description": "D", "private": True,
             "topics": ["Travel"], "hashtags": ["boats"]}  # fmt: skip
    record = _record(story)
    assert (record.title, record.slug, record.description, record.private) == ("T", "t", "D", True)
    assert (record.topics, record.hashtags) == (["Travel"], ["boats"])


def test_a_draft_without_title_or_slug_makes_them_empty() -> None:
    record = _record({})
    assert (record.title, record.slug) == ("", "")


def test_a_record_is_updated_when_it_is_created_unless_told() -> None:
    assert _record().updated == NOW
    assert _record(updated=LATER).updated == LATER


def test_a_working_story_is_never_modified() -> None:
    assert _record(status="working", modified=True).modified is False


def test_a_published_story_keeps_its_modified_mark() -> None:
    assert _record(status="published", published=NOW, modified=True).modified is True


def test_the_popularity_is_that_of_the_restored_counters() -> None:
    record = _record(views=7, likes=2, comments=1, element_comments=4)
    assert (record.views, record.element_comments, record.popularity) == (7, 4, 7 + 10 + 10)


def test_the_derived_members_are_derived_from_the_elements() -> None:
    image = ImageElement(id="i", data={"image": {"src": "https://img.example/a.png"}}, added_at=NOW)
    draft = parse_story({"title": "Harbour #boats"}, Limits())
    record = story_record(
        draft, [image], story_id="s1", author_id="u1", status="working", created=NOW
    )
    assert (record.cover, record.tags, record.element_counts["image"]) == (
        "https://img.example/a.png",
        ["boats"],
        1,
    )
