"""Derived data is versioned by the core: a store written by an older derivation
version, or an unknown one, is recomputed through the core by the step that brings a store up
to date (``bring_up_to_date``, which composing a service runs once: tests/contrib/
test_reindex_once.py), and by ``storycore reindex``; opening a ``Service`` leaves it to that
step; a reindex is not an edit. Run on the stores that keep their data.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.cli import main
from storycore.model.derived import DERIVATION_VERSION, with_derived_members
from storycore.model.records import Element, StoryRecord, UserRecord
from storycore.ports import Store, StoryRepository
from storycore.rules.searchtext import tokens
from storycore.usecases.reindex import Reindexed, bring_up_to_date, reindex
from tests.conftest import TEST_SETTINGS
from tests.contract._factories import at, make_element, make_story, make_user, read_elements

pytestmark = pytest.mark.storycore_store_urls("sqlite:///{dir}/stories.db", "mongomock://{name}")

_OLDER = DERIVATION_VERSION - 1


def _write_stale(store: Store, derivation: int | None = _OLDER) -> tuple[UserRecord, StoryRecord]:
    """A user and a story written straight through the ports with derived data no rule makes,
    as an older derivation left them: wrong search tokens, tags, topic and title keys, counts.
    """
    user = make_user("alice", name="Alice Liddell").model_copy(update={"search_tokens": ["stale"]})
    store.users.add(user)
    image = {"image": {"src": "https://img.example/gull.jpg", "caption": "a gull"}}
    elements = [
        make_element("salt and #wind"),
        make_element(kind="image").model_copy(update={"data": image}),
    ]
    story = make_story(
        user.id,
        "harbour",
        title="Harbour tales #sea",
        topics=["Old Town"],
        elements=elements,
        version=3,
        updated=at(5),
    ).model_copy(
        update={
            "tags": ["stale"],
            "topic_keys": ["stale"],
            "title_key": "stale",
            "element_counts": {},
            "cover": "",
        }
    )
    store.stories.add_many([(story, elements, ["stale"])])
    if derivation is not None:
        store.set_derivation(derivation)
    return user, story


def _found(store: Store, query: str) -> list[str]:
    return [story.id for story in store.search.search(tokens(query), 0, 10)]


def _recomputed(store: Store, story: StoryRecord) -> StoryRecord:
    """``story`` as the current rules derive it from its stored elements."""
    return with_derived_members(story, read_elements(store, story.id))


def test_bringing_a_store_up_to_date_recomputes_the_stories_of_an_older_derivation(
    store: Store,
) -> None:
    _, story = _write_stale(store)
    bring_up_to_date(store)
    assert store.stories.get(story.id) == _recomputed(store, story)
    assert _found(store, "harbour gull") == [story.id]
    assert _found(store, "stale") == []


def test_bringing_a_store_up_to_date_recomputes_the_users_of_an_older_derivation(
    store: Store,
) -> None:
    user, story = _write_stale(store)
    bring_up_to_date(store)
    assert store.users.get(user.id).search_tokens == tokens("alice", "Alice Liddell")  # type: ignore[union-attr]
    assert _found(store, "liddell harbour") == [story.id]


def test_bringing_a_store_of_unknown_derivation_up_to_date_recomputes_it(store: Store) -> None:
    _, story = _write_stale(store, derivation=None)
    assert bring_up_to_date(store) == Reindexed(users=1, stories=1, skipped=0)
    assert store.stories.get(story.id) == _recomputed(store, story)
    assert store.derivation() == DERIVATION_VERSION


def test_opening_a_service_leaves_a_stale_store_to_the_step_that_brings_it_up_to_date(
    store: Store,
) -> None:
    _, story = _write_stale(store)
    with Service(store, TEST_SETTINGS):
        assert store.stories.get(story.id) == story
        assert store.derivation() == _OLDER


def test_a_reindex_keeps_the_version_and_update_time_of_a_story(store: Store) -> None:
    _, story = _write_stale(store)
    reindex(store)
    stored = store.stories.get(story.id)
    assert stored is not None
    assert (stored.version, stored.updated) == (3, at(5))


def test_a_reindex_keeps_the_elements_and_counters_of_a_story(store: Store) -> None:
    _, story = _write_stale(store)
    elements = read_elements(store, story.id)
    store.stories.add_views({story.id: 4}, {}, max_embed_pages=10)
    reindex(store)
    assert read_elements(store, story.id) == elements
    assert store.stories.get(story.id).views == 4  # type: ignore[union-attr]


def test_a_reindex_records_the_current_derivation(store: Store) -> None:
    _write_stale(store)
    assert reindex(store) == Reindexed(users=1, stories=1, skipped=0)
    assert store.derivation() == DERIVATION_VERSION


def test_bringing_an_empty_store_up_to_date_marks_it_current(store: Store) -> None:
    assert bring_up_to_date(store) is None
    assert store.derivation() == DERIVATION_VERSION


def test_a_store_of_the_current_derivation_is_up_to_date_already(store: Store) -> None:
    _, story = _write_stale(store, derivation=DERIVATION_VERSION)
    assert bring_up_to_date(store) is None
    assert store.stories.get(story.id) == story
    assert _found(store, "stale") == [story.id]


def test_a_store_of_a_newer_derivation_is_left_as_it_is(store: Store) -> None:
    _, story = _write_stale(store, derivation=DERIVATION_VERSION + 1)
    assert bring_up_to_date(store) is None
    assert store.stories.get(story.id) == story
    assert store.derivation() == DERIVATION_VERSION + 1


# -- the command and reopening, by URL ----------------------------------------------------------


@pytest.fixture
def store_url(storycore_store_url: str, tmp_path: Path) -> str:
    """A storage URL of a new store that keeps its data across opens (in this process)."""
    name = f"reindex_{uuid.uuid4().hex[:12]}"
    return storycore_store_url.replace("{dir}", str(tmp_path)).replace("{name}", name)


def test_the_derivation_is_kept_when_the_store_is_reopened(store_url: str) -> None:
    store = open_store(store_url)
    store.set_derivation(7)
    store.close()
    reopened = open_store(store_url)
    try:
        assert reopened.derivation() == 7
    finally:
        reopened.close()


def test_the_reindex_command_recomputes_the_store_and_says_what_it_did(
    store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = open_store(store_url)
    _, story = _write_stale(store)
    store.close()
    assert main(["--db", store_url, "reindex"]) == 0
    assert capsys.readouterr().out == (
        f"reindexed 1 user and 1 story (derivation version {DERIVATION_VERSION})\n"
    )
    store = open_store(store_url)
    try:
        assert store.stories.get(story.id) == _recomputed(store, story)
        assert store.derivation() == DERIVATION_VERSION
    finally:
        store.close()


def test_the_reindex_command_recomputes_a_store_of_the_current_derivation_too(
    store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = open_store(store_url)
    _, story = _write_stale(store, derivation=DERIVATION_VERSION)
    store.close()
    assert main(["--db", store_url, "reindex"]) == 0
    store = open_store(store_url)
    try:
        assert _found(store, "harbour") == [story.id]
    finally:
        store.close()


def test_the_reindex_command_fails_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", f"sqlite:///{tmp_path}", "reindex"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1
    assert captured.err.startswith("storycore: cannot open the SQLite database")


# -- a story changed while a reindex runs -------------------------------------------------------


class _EditedWhileRead:
    """Stories whose every read by ``iter_all`` is followed at once by a writer's edit, as a
    concurrent writer would make it between the reindex's read and its write.
    """

    def __init__(self, stories: StoryRepository) -> None:
        self._stories = stories

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stories, name)

    def iter_all(self) -> Iterator[tuple[StoryRecord, list[Element]]]:
        for story, elements in self._stories.iter_all():
            edited = with_derived_members(
                story.model_copy(update={"title": "Edited", "version": story.version + 1}),
                elements,
            )
            self._stories.replace(edited, expected_version=story.version, words=["edited"])
            yield story, elements


class _StoreEditedWhileRead:
    def __init__(self, store: Store) -> None:
        self._store = store
        self.stories = _EditedWhileRead(store.stories)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


@pytest.mark.storycore_store_urls("memory://")
def test_a_story_changed_while_reindexing_is_skipped_and_keeps_its_writers_change(
    store: Store,
) -> None:
    _, story = _write_stale(store)
    done = reindex(cast(Store, _StoreEditedWhileRead(store)))
    assert (done.stories, done.skipped) == (0, 1)
    stored = store.stories.get(story.id)
    assert stored is not None
    assert (stored.title, stored.version) == ("Edited", 4)
    assert _found(store, "edited") == [story.id]
