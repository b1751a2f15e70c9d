"""Who may see and change what: docs/api.md#who-may-do-what (visibility by status and ``private``)
and
docs/api.md#credentials (the table of operations; editors; ``canFeatureStories``), with
docs/api.md#stories
(what counts as a view) and docs/api.md (featuring needs ``canFeatureStories`` even for editors)."""

from __future__ import annotations

import pytest

from storycore.model.records import AppRecord, StoryRecord, UserRecord
from storycore.model.visibility import (
    ANONYMOUS,
    Viewer,
    can_act_for,
    can_edit,
    can_feature,
    can_see,
    can_see_hidden_stories_of,
    counts_as_view,
)

NOW = "2026-11-22T10:15:30.123Z"


def _user(user_id: str, **roles: bool) -> UserRecord:
    return UserRecord(id=user_id, username=user_id, created=NOW, updated=NOW, **roles)


def _story(status: str = "published", private: bool = False) -> StoryRecord:
    return StoryRecord(
        id="s1",
        author_id="alice",
        title="T",
        slug="t",
        status=status,
        private=private,
        created=NOW,
        updated=NOW,
    )


APP = AppRecord(id="app", name="App", key_digest="0" * 64, created=NOW)
AUTHOR = Viewer(_user("alice"), APP)
STRANGER = Viewer(_user("bob"), APP)
EDITOR = Viewer(_user("ed", editor=True), APP)
CURATOR = Viewer(_user("cora", can_feature=True), APP)
EDITING_CURATOR = Viewer(_user("eve", editor=True, can_feature=True), APP)

PUBLIC = _story("published", private=False)
HIDDEN = [
    pytest.param(_story("published", private=True), id="published-private"),
    pytest.param(_story("working", private=False), id="working"),
    pytest.param(_story("working", private=True), id="working-private"),
]
EVERY_STORY = [pytest.param(PUBLIC, id="published"), *HIDDEN]
EVERYONE = [
    pytest.param(ANONYMOUS, id="anonymous"),
    pytest.param(STRANGER, id="stranger"),
    pytest.param(CURATOR, id="curator"),
    pytest.param(AUTHOR, id="author"),
    pytest.param(EDITOR, id="editor"),
]
AUTHOR_OR_EDITOR = [pytest.param(AUTHOR, id="author"), pytest.param(EDITOR, id="editor")]
OTHERS = [
    pytest.param(ANONYMOUS, id="anonymous"),
    pytest.param(STRANGER, id="stranger"),
    pytest.param(CURATOR, id="curator"),
]


def test_a_published_story_that_is_not_private_is_public() -> None:
    assert PUBLIC.is_public


@pytest.mark.parametrize("story", HIDDEN)
def test_a_private_or_working_story_is_not_public(story: StoryRecord) -> None:
    assert not story.is_public


@pytest.mark.parametrize("viewer", EVERYONE)
def test_a_public_story_is_seen_by_anyone(viewer: Viewer) -> None:
    assert can_see(viewer, PUBLIC)


@pytest.mark.parametrize("viewer", OTHERS)
@pytest.mark.parametrize("story", HIDDEN)
def test_a_private_or_working_story_is_hidden_from_other_users(
    viewer: Viewer, story: StoryRecord
) -> None:
    assert not can_see(viewer, story)


@pytest.mark.parametrize("viewer", AUTHOR_OR_EDITOR)
@pytest.mark.parametrize("story", HIDDEN)
def test_a_private_or_working_story_is_seen_by_its_author_and_editors(
    viewer: Viewer, story: StoryRecord
) -> None:
    assert can_see(viewer, story)


@pytest.mark.parametrize("viewer", AUTHOR_OR_EDITOR)
@pytest.mark.parametrize("story", EVERY_STORY)
def test_a_story_is_changed_by_its_author_and_editors(viewer: Viewer, story: StoryRecord) -> None:
    assert can_edit(viewer, story)


@pytest.mark.parametrize("viewer", OTHERS)
@pytest.mark.parametrize("story", EVERY_STORY)
def test_a_story_is_not_changed_by_anyone_else_even_when_public(
    viewer: Viewer, story: StoryRecord
) -> None:
    assert not can_edit(viewer, story)


def test_a_users_hidden_stories_are_listed_for_that_user() -> None:
    assert can_see_hidden_stories_of(AUTHOR, "alice")


def test_a_users_hidden_stories_are_listed_for_editors() -> None:
    assert can_see_hidden_stories_of(EDITOR, "alice")


@pytest.mark.parametrize("viewer", OTHERS)
def test_a_users_hidden_stories_are_not_listed_for_others(viewer: Viewer) -> None:
    assert not can_see_hidden_stories_of(viewer, "alice")


@pytest.mark.parametrize("viewer", AUTHOR_OR_EDITOR)
def test_a_story_is_created_under_a_username_by_that_user_or_an_editor(viewer: Viewer) -> None:
    assert can_act_for(viewer, "alice")


@pytest.mark.parametrize("viewer", OTHERS)
def test_nobody_else_creates_under_a_username(viewer: Viewer) -> None:
    assert not can_act_for(viewer, "alice")


@pytest.mark.parametrize(
    "viewer",
    [pytest.param(CURATOR, id="curator"), pytest.param(EDITING_CURATOR, id="editing-curator")],
)
def test_a_user_with_can_feature_stories_may_feature(viewer: Viewer) -> None:
    assert can_feature(viewer)


@pytest.mark.parametrize(
    "viewer",
    [
        pytest.param(ANONYMOUS, id="anonymous"),
        pytest.param(AUTHOR, id="author"),
        pytest.param(EDITOR, id="editor"),
    ],
)
def test_featuring_needs_can_feature_stories_even_for_editors(viewer: Viewer) -> None:
    assert not can_feature(viewer)


@pytest.mark.parametrize("viewer", [*OTHERS, pytest.param(EDITOR, id="editor")])
def test_a_read_of_a_published_story_by_anyone_but_its_author_counts_as_a_view(
    viewer: Viewer,
) -> None:
    assert counts_as_view(viewer, PUBLIC)


def test_a_read_by_the_author_does_not_count_as_a_view() -> None:
    assert not counts_as_view(AUTHOR, PUBLIC)


def test_a_read_of_a_working_story_does_not_count_as_a_view() -> None:
    assert not counts_as_view(EDITOR, _story("working"))


def test_the_anonymous_caller_is_not_authenticated() -> None:
    assert not ANONYMOUS.authenticated
    assert not ANONYMOUS.is_editor


def test_a_user_acting_through_an_application_is_authenticated() -> None:
    assert AUTHOR.authenticated
    assert AUTHOR.is_user("alice")
    assert not AUTHOR.is_user("bob")


def test_an_application_without_a_user_is_not_an_authenticated_caller() -> None:
    viewer = Viewer(app=APP)
    assert not viewer.authenticated
    assert not can_see(viewer, _story("working"))
