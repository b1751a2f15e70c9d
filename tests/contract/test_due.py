"""StoryRepository.due (docs/api.md#scheduled-publishing): the working stories whose ``publish_at``
has
come, earliest first, for the publisher of scheduled stories to publish."""

from __future__ import annotations

from typing import Any

from storycore.model.records import StoryRecord, UserRecord
from storycore.ports import Store
from tests.contract._factories import add_story, at, changed


def _scheduled(store: Store, author_id: str, slug: str, minutes: int, **members: Any) -> str:
    """A stored working story to be published ``minutes`` after the fixed moment; its id."""
    story = add_story(store, author_id, slug, status="working", publish_at=at(minutes), **members)
    return story.id


def _ids(stories: list[StoryRecord]) -> list[str]:
    """The ids of ``stories``, in their order."""
    return [story.id for story in stories]


def test_working_stories_whose_publish_at_has_come_are_due(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    mine = _scheduled(store, author.id, "mine", 5)
    theirs = _scheduled(store, other_author.id, "theirs", 8)
    _scheduled(store, author.id, "later", 20)
    assert _ids(store.stories.due(at(10), 10)) == [mine, theirs]


def test_a_story_scheduled_for_now_is_due(store: Store, author: UserRecord) -> None:
    story = _scheduled(store, author.id, "tale", 10)
    assert _ids(store.stories.due(at(10), 10)) == [story]


def test_a_story_scheduled_later_is_not_due(store: Store, author: UserRecord) -> None:
    _scheduled(store, author.id, "tale", 11)
    assert store.stories.due(at(10), 10) == []


def test_due_stories_come_earliest_publish_at_first(store: Store, author: UserRecord) -> None:
    third = _scheduled(store, author.id, "third", 9)
    first = _scheduled(store, author.id, "first", 1)
    second = _scheduled(store, author.id, "second", 5)
    assert _ids(store.stories.due(at(10), 10)) == [first, second, third]


def test_stories_due_at_the_same_moment_come_by_id(store: Store, author: UserRecord) -> None:
    for n, story_id in enumerate(["m", "c", "x", "a"]):
        _scheduled(store, author.id, f"s{n}", 5, story_id=story_id)
    assert _ids(store.stories.due(at(10), 10)) == ["a", "c", "m", "x"]


def test_due_answers_at_most_limit_stories_the_earliest(store: Store, author: UserRecord) -> None:
    ids = [_scheduled(store, author.id, f"s{n}", n) for n in range(5)]
    assert _ids(store.stories.due(at(10), 3)) == ids[:3]


def test_due_answers_the_stored_records(store: Store, author: UserRecord) -> None:
    story_id = _scheduled(store, author.id, "tale", 5, title="Soon", private=True)
    assert store.stories.due(at(10), 10) == [store.stories.get(story_id)]


def test_a_private_story_is_due_like_any_other(store: Store, author: UserRecord) -> None:
    story = _scheduled(store, author.id, "tale", 5, private=True)
    assert _ids(store.stories.due(at(10), 10)) == [story]


def test_a_published_story_with_a_past_publish_at_is_not_due(
    store: Store, author: UserRecord
) -> None:
    add_story(store, author.id, "tale", status="published", publish_at=at(5))
    assert store.stories.due(at(10), 10) == []


def test_a_story_without_publish_at_is_never_due(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, "tale", status="working")
    assert store.stories.due(at(10**6), 10) == []


def test_nothing_is_due_in_an_empty_store(store: Store) -> None:
    assert store.stories.due(at(10), 10) == []


def test_a_replacement_that_clears_publish_at_makes_the_story_not_due(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale", status="working", publish_at=at(5))
    store.stories.replace(changed(story, [], publish_at=None), expected_version=story.version)
    assert store.stories.due(at(10), 10) == []


def test_a_replacement_that_publishes_the_story_makes_it_not_due(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale", status="working", publish_at=at(5))
    published = changed(story, [], status="published", published=at(6))
    store.stories.replace(published, expected_version=story.version)
    assert store.stories.due(at(10), 10) == []


def test_a_replacement_that_schedules_a_story_makes_it_due(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale", status="working")
    store.stories.replace(changed(story, [], publish_at=at(5)), expected_version=story.version)
    assert _ids(store.stories.due(at(10), 10)) == [story.id]


def test_a_replacement_that_moves_publish_at_later_makes_the_story_not_due_yet(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale", status="working", publish_at=at(5))
    store.stories.replace(changed(story, [], publish_at=at(30)), expected_version=story.version)
    assert store.stories.due(at(10), 10) == []
    assert _ids(store.stories.due(at(30), 10)) == [story.id]


def test_a_removed_story_is_not_due(store: Store, author: UserRecord) -> None:
    story = _scheduled(store, author.id, "tale", 5)
    store.stories.remove(story)
    assert store.stories.due(at(10), 10) == []
