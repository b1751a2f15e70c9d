"""What only the SQLite store has of revisions and scheduled publishing (docs/api.md#revisions
and 27; the contract suite checks what every backend does): a revision taken in the
replacement's transaction and copied in the database, going with its story through the foreign
key, and the due lookup as one walk of a partial index."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from storycore.adapters.sqlite import SQLiteStore
from storycore.errors import DuplicateKey, Missing
from storycore.model.derived import story_words
from storycore.model.records import Element, StoryRecord
from storycore.model.revisions import Revision, RevisionMark
from storycore.rules.ids import new_id
from tests.contract._factories import add_story, add_user, at, changed, make_element, make_story

pytestmark = pytest.mark.sqlite

KEEP = RevisionMark(at(90), "editor-id", 50)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    """A store in a file, as a user meets it."""
    store = SQLiteStore(str(tmp_path / "stories.db"))
    yield store
    store.close()


def _save(
    store: SQLiteStore,
    story: StoryRecord,
    elements: list[Element],
    mark: RevisionMark | None = KEEP,
    **members: object,
) -> StoryRecord:
    """Replace ``story`` by its next version with ``elements``; the new version."""
    new = changed(story, elements, **members)
    store.stories.replace(
        new,
        expected_version=story.version,
        elements=elements,
        words=story_words(new, elements),
        revision=mark,
    )
    return new


def _rows(store: SQLiteStore, sql: str) -> list[tuple[object, ...]]:
    return store.connection.rows(sql)


def test_a_replacement_refused_for_a_taken_slug_keeps_no_revision(store: SQLiteStore) -> None:
    author = add_user(store, "alice")
    add_story(store, author.id, "taken")
    story = add_story(store, author.id, "tale")
    with pytest.raises(DuplicateKey):  # refused after the revision was copied: rolled back
        _save(store, story, [], slug="taken")
    assert store.revisions.count(story.id) == 0
    assert _rows(store, "SELECT count(*) FROM revisions") == [(0,)]


def test_a_replacement_that_keeps_no_revision_runs_no_statement_more(
    store: SQLiteStore,
) -> None:
    author = add_user(store, "alice")
    story = add_story(store, author.id, "tale", elements=[make_element()])
    statements: list[str] = []
    store.connection.conn.set_trace_callback(statements.append)
    story = _save(store, story, [make_element()], None)
    without = len(statements)
    statements.clear()
    story = _save(store, story, [make_element()], KEEP._replace(keep=0))
    with_none_kept = len(statements)
    statements.clear()
    _save(store, story, [make_element()], KEEP)
    assert with_none_kept == without < len(statements)


def test_a_revision_holds_the_element_documents_as_stored_in_story_order(
    store: SQLiteStore,
) -> None:
    author = add_user(store, "alice")
    texts = [f'line {n}\n"quoted" \\ é 🌊 <b>&amp;</b>' for n in range(12)]
    elements = [make_element(text, element_id=f"e{n:02d}") for n, text in enumerate(texts)]
    story = add_story(store, author.id, "tale", elements=elements)
    stored = store.stories.element_documents(story.id, 0, 100)
    _save(store, story, [])
    revision = store.revisions.get(story.id, story.version)
    assert revision is not None
    assert revision.elements == tuple(stored)
    assert store.revisions.heads(story.id, 0, 10)[0].elements == 12


def test_the_heads_of_revisions_are_read_without_their_records(store: SQLiteStore) -> None:
    author = add_user(store, "alice")
    story = add_story(store, author.id, "tale", title="First title")
    _save(store, story, [make_element()])
    with store.connection.write() as conn:  # what a head must not decode
        conn.execute("UPDATE revisions SET record = 'x', element_documents = 'x'")
    [head] = store.revisions.heads(story.id, 0, 10)
    assert (head.version, head.title, head.status, head.elements) == (
        story.version,
        "First title",
        "published",
        0,
    )


def test_a_smaller_keep_drops_the_oldest_revisions_down_to_it(store: SQLiteStore) -> None:
    author = add_user(store, "alice")
    story = add_story(store, author.id, "tale")
    for _ in range(4):
        story = _save(store, story, [])
    story = _save(store, story, [], KEEP._replace(keep=2))
    assert [head.version for head in store.revisions.heads(story.id, 0, 10)] == [5, 4]


def test_removing_a_story_removes_its_revisions_rows_and_no_other(store: SQLiteStore) -> None:
    author = add_user(store, "alice")
    story, other = add_story(store, author.id, "tale"), add_story(store, author.id, "other")
    _save(store, story, [make_element()])
    _save(store, other, [make_element()])
    assert store.stories.remove(story.id)
    assert _rows(store, "SELECT count(*) FROM revisions") == [(1,)]
    assert store.revisions.count(other.id) == 1


def test_an_import_keeps_the_revisions_before_a_refused_one(store: SQLiteStore) -> None:
    author = add_user(store, "alice")
    story = add_story(store, author.id, "tale")
    revision = Revision(story.id, 1, at(5), "someone", story, ("{}",))
    with pytest.raises(Missing):
        store.revisions.add_many([revision, revision._replace(story_id="nowhere")])
    with pytest.raises(DuplicateKey):
        store.revisions.add_many([revision._replace(version=2), revision])
    assert [r.version for r in store.revisions.of_story(story.id)] == [1, 2]
    assert store.revisions.get(story.id, 1) == revision


def _scheduled(author_id: str, count: int, publish_at: str) -> Iterator[StoryRecord]:
    """``count`` working stories of ``author_id`` to be published at ``publish_at``."""
    story = make_story(author_id, "later", status="working", publish_at=publish_at)
    for n in range(count):
        yield story.model_copy(update={"id": new_id(), "slug": f"later-{n}"})


def _instructions(store: SQLiteStore, now: str) -> int:
    """How many virtual machine instructions SQLite runs for a due lookup at ``now``."""
    counted = [0]

    def count() -> int:
        counted[0] += 1
        return 0

    store.connection.conn.set_progress_handler(count, 1)
    try:
        store.stories.due(now, 10)
    finally:
        store.connection.conn.set_progress_handler(None, 1)
    return counted[0]


def test_the_due_lookup_reads_as_much_with_10000_stories_scheduled_as_with_one() -> None:
    store = SQLiteStore(None)  # every statement on the one connection, which is counted
    try:
        author = add_user(store, "alice")
        add_story(store, author.id, "first", status="working", publish_at=at(1000))
        one = _instructions(store, at(500))
        later = _scheduled(author.id, 9999, at(2000))
        store.stories.add_many((story, [], []) for story in later)
        assert _instructions(store, at(500)) == one
        assert [s.slug for s in store.stories.due(at(1500), 10)] == ["first"]
    finally:
        store.close()


def test_the_due_lookup_walks_the_partial_index_of_scheduled_stories(store: SQLiteStore) -> None:
    author = add_user(store, "alice")
    add_story(store, author.id, "soon", status="working", publish_at=at(1))
    statements: list[str] = []
    store.connection.conn.set_trace_callback(statements.append)
    with store.connection.write():  # a read inside a write runs on the traced connection
        store.stories.due(at(2), 10)
    [lookup] = [s for s in statements if "publish_at" in s]
    plan = store.connection.conn.execute(f"EXPLAIN QUERY PLAN {lookup}").fetchall()
    assert [row[-1] for row in plan] == ["SEARCH s USING INDEX stories_due (publish_at<?)"]
