"""Retired slugs (aliases) as ``get_by_slug`` answers them, and how slug changes and new stories
make and stop them. A story that left the slug it was asked at has another ``slug``."""

from __future__ import annotations

from storycore.model.records import StoryRecord, UserRecord
from storycore.ports import Store
from tests.contract._factories import add_story, changed


def _move(store: Store, story: StoryRecord, slug: str) -> StoryRecord:
    """``story`` moved to ``slug`` (a slug change, elements kept)."""
    moved = changed(story, [], slug=slug)
    store.stories.replace(moved, expected_version=story.version)
    return moved


def test_a_slug_change_leaves_an_alias_to_the_story(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "old")
    moved = _move(store, story, "new")
    assert store.stories.get_by_slug(author.id, "old") == moved


def test_a_slug_change_moves_the_story_to_the_new_slug(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "old")
    moved = _move(store, story, "new")
    assert store.stories.get_by_slug(author.id, "new") == moved


def test_get_by_slug_at_a_retired_slug_answers_the_story_at_its_live_slug(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "old")
    _move(store, story, "new")
    found = store.stories.get_by_slug(author.id, "old")
    assert found is not None
    assert found.slug == "new"


def test_a_replace_that_keeps_the_slug_leaves_the_story_living_there(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale")
    retold = changed(story, [], title="Retold")
    store.stories.replace(retold, expected_version=story.version)
    assert store.stories.get_by_slug(author.id, "tale") == retold


def test_aliases_follow_a_chain_of_slug_changes(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "a")
    moved = _move(store, _move(store, story, "b"), "c")
    assert store.stories.get_by_slug(author.id, "a") == moved
    assert store.stories.get_by_slug(author.id, "b") == moved


def test_an_alias_belongs_to_its_author(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    story = add_story(store, author.id, "old")
    _move(store, story, "new")
    assert store.stories.get_by_slug(other_author.id, "old") is None


def test_get_by_slug_of_a_slug_never_used_is_none(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, "tale")
    assert store.stories.get_by_slug(author.id, "other") is None


def test_a_new_story_at_a_retired_slug_stops_the_alias(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "old")
    _move(store, story, "new")
    newcomer = add_story(store, author.id, "old")
    assert store.stories.get_by_slug(author.id, "old") == newcomer


def test_a_stopped_alias_stays_stopped_once_the_new_story_is_gone(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "old")
    _move(store, story, "new")
    newcomer = add_story(store, author.id, "old")
    store.stories.remove(newcomer.id)
    assert store.stories.get_by_slug(author.id, "old") is None


def test_a_slug_change_onto_a_retired_slug_stops_the_alias(
    store: Store, author: UserRecord
) -> None:
    first = add_story(store, author.id, "old")
    _move(store, first, "new")
    second = add_story(store, author.id, "other")
    moved = _move(store, second, "old")
    assert store.stories.get_by_slug(author.id, "old") == moved
    gone_again = _move(store, moved, "elsewhere")
    assert store.stories.get_by_slug(author.id, "old") == gone_again


def test_a_story_may_move_back_to_a_slug_it_left(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "a")
    back = _move(store, _move(store, story, "b"), "a")
    assert store.stories.get_by_slug(author.id, "a") == back
    assert store.stories.get_by_slug(author.id, "b") == back


def test_a_story_at_an_alias_of_another_author_leaves_it(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    story = add_story(store, author.id, "old")
    moved = _move(store, story, "new")
    add_story(store, other_author.id, "old")
    assert store.stories.get_by_slug(author.id, "old") == moved
