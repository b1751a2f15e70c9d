"""Revisions and scheduled publishing on PostgreSQL beyond the contract: the migration of a
schema the previous version made, replacements the database refuses keeping no revision, the
element documents copied in the database byte for byte, the import's storage errors, and the
due lookup walking its partial index.

The contract suite checks what every backend does (``-m postgresql`` runs it here); this file
what only the PostgreSQL adapter has. The server is the session's (``tests/_postgresql.py``).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from storycore.adapters import open_store
from storycore.adapters.postgresql import PostgreSQLStore, drop_schema
from storycore.adapters.postgresql._stories import DUE
from storycore.errors import DuplicateKey, Missing, StaleVersion
from storycore.model.revisions import Revision, RevisionMark
from tests import _postgresql
from tests.adapters.test_postgresql_store import rewind
from tests.contract._factories import add_story, add_user, at, changed, make_element, make_story

pytestmark = pytest.mark.postgresql

MARK = RevisionMark(replaced=at(30), by="editor-id", keep=50)


@pytest.fixture
def schema() -> str:
    return f"storycore_rev_{uuid.uuid4().hex[:12]}"


@pytest.fixture
def url(schema: str) -> Iterator[str]:
    """The storage URL of a fresh schema on the session's server, dropped after the test."""
    parts = urlsplit(_postgresql.server_uri(socket=True))
    made = urlunsplit(parts._replace(query=f"{parts.query}&schema={schema}".lstrip("&")))
    yield made
    drop_schema(made)


@pytest.fixture
def store(url: str) -> Iterator[PostgreSQLStore]:
    opened = open_store(url)
    assert isinstance(opened, PostgreSQLStore)
    yield opened
    opened.close()


def _server(schema: str) -> psycopg.Connection[Any]:
    conn = psycopg.connect(_postgresql.server_uri(socket=True), autocommit=True)
    conn.execute(f'SET search_path = "{schema}"')
    return conn


def test_a_schema_of_the_previous_version_migrates_its_stories_unscheduled_without_revisions(
    url: str, schema: str
) -> None:
    store = open_store(url)
    author = add_user(store, "alice")
    elements = [make_element("one"), make_element("two")]
    story = add_story(store, author.id, "tale", elements=elements, status="working")
    before = store.stories.element_documents(story.id, 0, 10)
    store.close()
    rewind(schema, to=3)  # as the previous version left it: its records hold no publish_at
    store = open_store(url)
    try:
        assert store.stories.get(story.id) == story
        assert story.publish_at is None
        assert store.stories.due(at(10**6), 10) == []
        assert store.revisions.count(story.id) == 0
        store.stories.replace(changed(story, elements), expected_version=1, revision=MARK)
        assert [r.elements for r in store.revisions.of_story(story.id)] == [tuple(before)]
    finally:
        store.close()


def test_a_replacement_refused_for_its_slug_keeps_no_revision(store: PostgreSQLStore) -> None:
    author = add_user(store, "alice")
    add_story(store, author.id, "taken")
    story = add_story(store, author.id, "tale", elements=[make_element()])
    with pytest.raises(DuplicateKey):
        store.stories.replace(
            changed(story, [], slug="taken"), expected_version=1, elements=[], revision=MARK
        )
    assert store.revisions.count(story.id) == 0
    assert store.stories.get(story.id) == story


def test_a_stale_replacement_keeps_no_revision(store: PostgreSQLStore) -> None:
    story = add_story(store, add_user(store, "alice").id, "tale")
    with pytest.raises(StaleVersion):
        store.stories.replace(changed(story, []), expected_version=7, revision=MARK)
    assert store.revisions.count(story.id) == 0


def test_a_revision_holds_the_element_documents_byte_for_byte(store: PostgreSQLStore) -> None:
    awkward = ['a "quote", a \\ backslash', "{braces}, commas", "NULL", "", "ünï 🌊 \t\n"]
    elements = [make_element(text) for text in awkward]
    story = add_story(store, add_user(store, "alice").id, "tale", elements=elements)
    stored = store.stories.element_documents(story.id, 0, 100)
    store.stories.replace(changed(story, []), expected_version=1, elements=[], revision=MARK)
    revision = store.revisions.get(story.id, 1)
    assert revision is not None
    assert revision.elements == tuple(stored)
    assert revision.head.elements == len(awkward)


def test_an_imported_revision_of_a_missing_story_is_refused_as_missing(
    store: PostgreSQLStore,
) -> None:
    story = make_story(add_user(store, "alice").id, "never-stored")
    with pytest.raises(Missing) as refused:
        store.revisions.add_many([Revision(story.id, 1, at(1), "someone", story, ())])
    assert refused.value.kind == "story"


def test_an_imported_revision_at_a_taken_version_is_refused_as_a_duplicate(
    store: PostgreSQLStore,
) -> None:
    story = add_story(store, add_user(store, "alice").id, "tale")
    store.stories.replace(changed(story, []), expected_version=1, revision=MARK)
    with pytest.raises(DuplicateKey) as refused:
        store.revisions.add_many([Revision(story.id, 1, at(1), "someone", story, ())])
    assert refused.value.key == "revision"


def _plan(store: PostgreSQLStore, schema: str, now: str) -> dict[str, Any]:
    """The executed plan of the due lookup at ``now``, with the buffers it read."""
    with _server(schema) as conn:
        found = conn.execute(
            f"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) {DUE}", {"now": now, "limit": 100}
        ).fetchone()
    assert found is not None
    said = json.loads(found[0]) if isinstance(found[0], str) else found[0]
    plan: dict[str, Any] = said[0]["Plan"]
    return plan


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", ()):
        yield from _nodes(child)


def test_the_due_lookup_reads_one_index_leaf_when_none_of_10000_scheduled_stories_is_due(
    store: PostgreSQLStore, schema: str
) -> None:
    author = add_user(store, "alice")
    scheduled = [
        make_story(author.id, f"tale-{n}", status="working", publish_at=at(1000 + n))
        for n in range(10_000)
    ]
    unscheduled = [make_story(author.id, f"plain-{n}") for n in range(2000)]
    store.stories.add_many((story, [], []) for story in [*scheduled, *unscheduled])
    plan = _plan(store, schema, now=at(999))
    scans = [node for node in _nodes(plan) if "Index Name" in node]
    assert [node["Index Name"] for node in scans] == ["stories_due"]
    assert plan["Actual Rows"] == 0
    assert plan["Shared Hit Blocks"] + plan.get("Shared Read Blocks", 0) <= 2  # root, one leaf
    assert store.stories.due(at(999), 100) == []
    assert [story.slug for story in store.stories.due(at(1002), 100)] == [
        "tale-0",
        "tale-1",
        "tale-2",
    ]


@pytest.mark.parametrize("mark", [None, MARK._replace(keep=0)])
def test_a_save_that_keeps_no_revision_never_touches_the_revisions_table(
    store: PostgreSQLStore, schema: str, mark: RevisionMark | None
) -> None:
    story = add_story(store, add_user(store, "alice").id, "tale", elements=[make_element()])
    new = [make_element("new")]
    with _server(schema) as conn, conn.transaction():
        conn.execute("LOCK TABLE revisions IN ACCESS EXCLUSIVE MODE")  # any reader would wait
        store.stories.replace(
            changed(story, new), expected_version=1, elements=new, words=[], revision=mark
        )
    assert store.revisions.count(story.id) == 0
