"""The memory store (``memory://``): what no other backend shows.

The contract suite runs on it through the shared ``store`` fixture; this file covers opening it
(each open is a new, empty store, a name after ``memory://`` included) and that it owns its
records: what a caller does to a record after storing or reading it never reaches the store.
"""

from __future__ import annotations

import pytest

from storycore.adapters import open_store
from storycore.model.records import Quoted
from tests.contract._factories import (
    add_story,
    add_user,
    make_element,
    make_story,
    make_user,
    read_elements,
)

pytestmark = pytest.mark.memory


@pytest.mark.parametrize("second", ["memory://", "memory://shared"])
def test_each_open_is_a_new_empty_store(second: str) -> None:
    first = open_store("memory://shared")
    user = add_user(first, "alice")
    add_story(first, user.id, "tale")
    other = open_store(second)
    assert other.users.get(user.id) is None
    assert other.users.find(0, 10) == []
    assert list(other.stories.iter_all()) == []


def test_a_memory_store_answers_one_call_at_a_time() -> None:
    assert open_store("memory://").parallel_calls == 1


def test_close_drops_every_record() -> None:
    store = open_store("memory://")
    user = add_user(store, "alice")
    store.close()
    assert store.users.get(user.id) is None


def test_changing_a_story_after_adding_it_changes_nothing_stored() -> None:
    store = open_store("memory://")
    author = add_user(store, "alice")
    element = make_element("kept")
    story = make_story(author.id, "tale", elements=[element], tags=["kept"])
    story.quoted.append(Quoted(username="q", name="Q", userid="1", avatar="", source="s"))
    store.stories.add_many([(story, [element], ["kept"])])
    expected = story.model_copy(deep=True)
    story.title = "changed"
    story.tags.append("changed")
    story.quoted[0].name = "changed"
    assert element.type == "text"
    element.data["text"] = "changed"
    assert store.stories.get(story.id) == expected
    stored = read_elements(store, story.id)[0]
    assert stored.type == "text"
    assert stored.data["text"] == "<p>kept</p>"


def test_changing_a_read_story_changes_nothing_stored() -> None:
    store = open_store("memory://")
    author = add_user(store, "alice")
    story = add_story(store, author.id, "tale", elements=[make_element("kept")], tags=["kept"])
    expected = story.model_copy(deep=True)
    for read in (
        store.stories.get(story.id),
        store.stories.get_by_slug(author.id, "tale"),
        *store.search.search(["kept"], 0, 10),
    ):
        assert read is not None
        read.tags.append("changed")
        read.views = 99
    changed = read_elements(store, story.id)[0]
    assert changed.type == "text"
    changed.data["text"] = "changed"
    assert store.stories.get(story.id) == expected
    stored = read_elements(store, story.id)[0]
    assert stored.type == "text"
    assert stored.data["text"] == "<p>kept</p>"


def test_changing_a_user_after_storing_or_reading_it_changes_nothing_stored() -> None:
    store = open_store("memory://")
    user = make_user("alice", name="Alice")
    store.users.add(user)
    user.search_tokens.append("changed")
    user.settings.notifications.digest = False
    read = store.users.get(user.id)
    assert read is not None
    read.cover_photo.url = "https://changed.example/"
    stored = store.users.get(user.id)
    assert stored is not None
    assert "changed" not in stored.search_tokens
    assert stored.settings.notifications.digest is True
    assert stored.cover_photo.url == ""
