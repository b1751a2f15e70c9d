"""Revisions and scheduled stories on MongoDB: what its lack of transactions asks of them.

The contract suite checks what every backend answers; this file checks how the MongoDB adapter
gets there without a transaction (``storycore.adapters.mongodb._revisions``): a save that dies
between any two of its writes, two saves of one version, refused saves, the element
generations revisions keep and let go, a database made before revisions, and the due lookup's
index. Each runs on mongomock and, when STORYCORE_TEST_MONGODB_URI names one, on a server.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, closing
from dataclasses import dataclass, field, fields
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from storycore.adapters import open_store
from storycore.adapters.mongodb import drop_database
from storycore.adapters.mongodb._client import connect
from storycore.adapters.mongodb._documents import document
from storycore.adapters.mongodb._revisions import COLLECT_AT, MongoRevisions
from storycore.adapters.mongodb._schema import Collections
from storycore.adapters.mongodb._stories import MongoStories
from storycore.errors import DuplicateKey, StaleVersion
from storycore.model.derived import story_words
from storycore.model.records import Element, StoryRecord, UserRecord, element_document
from storycore.model.revisions import Revision, RevisionHead, RevisionMark
from storycore.ports import KEPT_BY_REPLACE, Store, StoryRepository
from tests.contract._factories import add_story, add_user, at, changed, make_element, make_story

pytestmark = pytest.mark.mongodb

SERVER = os.environ.get("STORYCORE_TEST_MONGODB_URI", "")
_WRITES = frozenset(
    {
        "insert_one",
        "insert_many",
        "update_one",
        "update_many",
        "replace_one",
        "delete_one",
        "delete_many",
        "find_one_and_delete",
        "find_one_and_update",
    }
)


@pytest.fixture(params=["mongomock", "server"])
def url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh database's URL, on mongomock or on the server; dropped after the test."""
    name = f"storycore_rev_{uuid.uuid4().hex[:16]}"
    if request.param == "server":
        if not SERVER:
            pytest.skip("set STORYCORE_TEST_MONGODB_URI to run on a real MongoDB")
        made = urlunsplit(urlsplit(SERVER)._replace(path=f"/{name}"))
    else:
        made = f"mongomock://{name}"
    yield made
    drop_database(made)


@pytest.fixture
def opened(url: str) -> Iterator[Callable[[], Store]]:
    """Opens stores on ``url``, as processes do one after another; closes them after the test."""
    with ExitStack() as stores:
        yield lambda: stores.enter_context(closing(open_store(url)))


@pytest.fixture
def store(opened: Callable[[], Store]) -> Store:
    return opened()


@pytest.fixture
def raw(url: str) -> Iterator[Collections]:
    """The collections themselves, for what no read of the adapter shows."""
    collections, close = connect(url)
    yield collections
    close()


@pytest.fixture
def author(store: Store) -> UserRecord:
    return add_user(store, "alice")


class _Crash(BaseException):
    """The process dies: no handler of the adapter runs after it."""


@dataclass
class _Watch:
    """What a watched repository's collections were asked: every call by name, and the
    writes. ``die_at``: the write (counted from 1) that crashes instead of running; ``before``:
    what runs once just before the first call of that (collection, method); ``finds``: the
    arguments of each ``find``."""

    calls: list[tuple[str, str]] = field(default_factory=list)
    writes: int = 0
    die_at: int = 0
    before: dict[tuple[str, str], Callable[[], object]] = field(default_factory=dict)
    finds: list[tuple[tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)


class _Watched:
    """A collection whose calls ``watch`` sees."""

    def __init__(self, collection: Any, name: str, watch: _Watch) -> None:
        self._collection, self._name, self._watch = collection, name, watch

    def __getattr__(self, method: str) -> Any:
        member = getattr(self._collection, method)
        if not callable(member):
            return member

        def call(*args: Any, **kwargs: Any) -> Any:
            watch = self._watch
            if hook := watch.before.pop((self._name, method), None):
                hook()
            watch.calls.append((self._name, method))
            if method == "find":
                watch.finds.append((args, kwargs))
            if method in _WRITES:
                watch.writes += 1
                if watch.writes == watch.die_at:
                    raise _Crash
            return member(*args, **kwargs)

        return call


def _watched(raw: Collections, watch: _Watch) -> tuple[MongoStories, MongoRevisions]:
    """The adapter's stories and revisions over ``raw``, watched."""
    seen: dict[str, Any] = {
        f.name: _Watched(getattr(raw, f.name), f.name, watch) for f in fields(Collections)
    }
    watched = Collections(**seen)
    return MongoStories(watched), MongoRevisions(watched)


def _next(story: StoryRecord, elements: list[Element] | None, **members: Any) -> StoryRecord:
    """The next version of ``story``, ``members`` changed (its elements ``elements``)."""
    return changed(story, elements or [], **members)


def _replace(
    stories: StoryRepository,
    story: StoryRecord,
    new: StoryRecord,
    elements: list[Element] | None = None,
    mark: RevisionMark | None = None,
) -> StoryRecord:
    """Replace ``story`` by ``new`` (with ``elements`` when given); the record as stored."""
    words = story_words(new, elements or [])
    stories.replace(
        new, expected_version=story.version, elements=elements, words=words, revision=mark
    )
    return _stored(story, new)


def _stored(story: StoryRecord, new: StoryRecord) -> StoryRecord:
    """``new`` as a replacement of ``story`` stores it: the counters and the rest kept."""
    return new.model_copy(update={name: getattr(story, name) for name in KEPT_BY_REPLACE})


def _as_kept(story: StoryRecord) -> StoryRecord:
    """``story`` as a revision keeps it: the counters and the featured mark at their defaults."""
    return StoryRecord.model_validate(
        {**story.model_dump(exclude=set(KEPT_BY_REPLACE)), "author_id": story.author_id}
    )


def _documents(elements: list[Element]) -> list[str]:
    return [element_document(element) for element in elements]


def _revisions_of(store: Store, story_id: str) -> list[Revision]:
    return store.revisions.of_story(story_id)


def _documents_and_names(raw: Collections, story_id: str) -> tuple[set[str], set[str]]:
    """The story's revision documents, and those its entries name."""
    documents = {found["_id"] for found in raw.revisions.find({"story_id": story_id})}
    story = raw.stories.find_one({"_id": story_id}, {"revisions": 1}) or {}
    return documents, {entry["id"] for entry in story.get("revisions", [])}


def _generations(raw: Collections, story_id: str) -> set[str]:
    """The element generations stored for the story."""
    found = raw.elements.find({"story_id": story_id}, {"rev": 1})
    return {element["rev"] for element in found}


# -- a save that dies ------------------------------------------------------------------------


def _listed(raw: Collections, story_id: str) -> set[str]:
    """The revision documents and generations the story lists as unnamed, for a later save."""
    found = raw.stories.find_one({"_id": story_id}) or {}
    return {*found.get("unnamed_revisions", ()), *found.get("unnamed_elements", ())}


def _saved(
    raw: Collections, store: Store, author: UserRecord, slug: str, listing: int
) -> StoryRecord:
    """A story saved with new elements, keeping at most two revisions, at least twice and until
    its document lists at least ``listing`` unnamed documents and generations."""
    story = add_story(store, author.id, slug, elements=[make_element("first")])
    for n in range(2 * COLLECT_AT):
        if n >= 2 and len(_listed(raw, story.id)) >= listing:
            break
        elements = [make_element(f"save {n}")]
        mark = RevisionMark(at(n), author.id, 2)
        story = _replace(
            store.stories, story, _next(story, elements, title=f"Save {n}"), elements, mark
        )
    return story


def _a_last_save(
    story: StoryRecord, author: UserRecord
) -> tuple[StoryRecord, list[Element], RevisionMark]:
    last = [make_element("last")]
    return _next(story, last, title="Last"), last, RevisionMark(at(99), author.id, 2)


@pytest.mark.parametrize("listing", [0, COLLECT_AT], ids=["lists", "deletes what is listed"])
def test_a_save_that_dies_before_any_of_its_writes_never_shows_a_change_without_its_revision(
    raw: Collections,
    store: Store,
    author: UserRecord,
    opened: Callable[[], Store],
    listing: int,
) -> None:
    counted = _Watch()
    story = _saved(raw, store, author, "counted", listing)
    _replace(_watched(raw, counted)[0], story, *_a_last_save(story, author))
    # new elements, the revision, the story (and what the story listed, deleted)
    assert counted.writes >= (5 if listing else 3)
    for die_at in range(1, counted.writes + 1):
        story = _saved(raw, store, author, f"tale-{die_at}", listing)
        before = _revisions_of(store, story.id)
        shown = store.stories.element_documents(story.id, 0, 10)
        new, last, mark = _a_last_save(story, author)
        with pytest.raises(_Crash):
            _replace(_watched(raw, _Watch(die_at=die_at))[0], story, new, last, mark)

        after = opened()  # what the next process finds
        found = after.stories.get(story.id)
        assert found in (story, _stored(story, new))
        if found == story:  # died before its change: nothing of it shows; it is saved again
            assert _revisions_of(after, story.id) == before
            assert after.stories.element_documents(story.id, 0, 10) == shown
            _replace(after.stories, story, new, last, mark)
        newest = Revision(
            story.id, story.version, mark.replaced, author.id, _as_kept(story), tuple(shown)
        )
        assert after.stories.get(story.id) == _stored(story, new)
        assert after.stories.element_documents(story.id, 0, 10) == _documents(last)
        assert _revisions_of(after, story.id) == [before[-1], newest]
        assert after.revisions.heads(story.id, 0, 10) == [newest.head, before[-1].head]


# -- two saves, refused saves ----------------------------------------------------------------


def test_the_loser_of_two_saves_of_one_version_leaves_no_revision(
    raw: Collections, store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale", elements=[make_element("first")])
    winner = _next(story, None, title="Winner")
    loser = _next(story, None, title="Loser")
    watch = _Watch()
    stories, _ = _watched(raw, watch)
    # the winner saves after the loser read the story, before the loser writes its revision
    watch.before["revisions", "replace_one"] = lambda: _replace(
        store.stories, story, winner, None, RevisionMark(at(5), "winner", 50)
    )
    with pytest.raises(StaleVersion):
        _replace(stories, story, loser, None, RevisionMark(at(6), "loser", 50))
    assert store.revisions.heads(story.id, 0, 10) == [
        RevisionHead(story.version, at(5), "winner", story.title, story.status, 1)
    ]
    documents, named = _documents_and_names(raw, story.id)
    assert documents == named


def test_a_save_refused_for_its_slug_leaves_no_revision_document(
    raw: Collections, store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale")
    watch = _Watch()
    stories, _ = _watched(raw, watch)
    # another story takes the slug between the checks and the update the unique index refuses
    watch.before["stories", "update_one"] = lambda: add_story(store, author.id, "taken")
    with pytest.raises(DuplicateKey):
        _replace(
            stories, story, _next(story, None, slug="taken"), None, RevisionMark(at(5), "x", 50)
        )
    assert store.revisions.count(story.id) == 0
    assert _documents_and_names(raw, story.id) == (set(), set())


# -- element generations ---------------------------------------------------------------------


def test_a_revision_keeps_the_elements_it_shows_without_a_copy(
    raw: Collections, store: Store, author: UserRecord
) -> None:
    first = [make_element("one"), make_element("two"), make_element("three")]
    story = add_story(store, author.id, "tale", elements=first)
    last = [make_element("four")]
    _replace(store.stories, story, _next(story, last), last, RevisionMark(at(5), author.id, 50))
    assert raw.elements.count_documents({"story_id": story.id}) == len(first) + len(last)
    kept = store.revisions.get(story.id, story.version)
    assert kept is not None
    assert kept.elements == tuple(_documents(first))


def test_what_saves_leave_unnamed_is_listed_then_deleted_a_few_saves_later(
    raw: Collections, store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale", elements=[make_element("zero")])
    for n in range(1, 3 * COLLECT_AT):
        elements = [make_element(f"save {n}")]
        mark = RevisionMark(at(n), "x", 1)
        story = _replace(store.stories, story, _next(story, elements), elements, mark)
        shown = raw.stories.find_one({"_id": story.id}) or {}
        entries = shown["revisions"]
        listed = _listed(raw, story.id)
        assert _generations(raw, story.id) == {
            shown["elements_rev"],
            *(entry["elements"] for entry in entries),
            *shown.get("unnamed_elements", ()),
        }
        documents, named = _documents_and_names(raw, story.id)
        assert documents == named | set(shown.get("unnamed_revisions", ()))
        assert len(listed) <= COLLECT_AT + 1  # each save here leaves one of each unnamed


@pytest.mark.parametrize("mark", [None, RevisionMark(at(7), "x", 0)], ids=["none", "keep 0"])
def test_a_save_that_keeps_no_revision_leaves_the_elements_a_revision_shows(
    store: Store, author: UserRecord, mark: RevisionMark | None
) -> None:
    first = [make_element("first")]
    story = add_story(store, author.id, "tale", elements=first, status="working", published=None)
    # published: a revision of the story as it was, showing the very elements it still shows
    published = _next(story, None, status="published", published=at(2))
    story = _replace(store.stories, story, published, None, RevisionMark(at(2), "x", 50))
    last = [make_element("last")]
    _replace(store.stories, story, _next(story, last), last, mark)
    kept = store.revisions.get(story.id, 1)
    assert kept is not None
    assert kept.elements == tuple(_documents(first))


def test_removing_a_story_deletes_its_revision_documents_and_generations(
    raw: Collections, store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale", elements=[make_element("first")])
    for n in range(1, 3):
        elements = [make_element(f"save {n}")]
        story = _replace(
            store.stories, story, _next(story, elements), elements, RevisionMark(at(n), "x", 50)
        )
    assert store.stories.remove(story.id)
    assert _documents_and_names(raw, story.id) == (set(), set())
    assert _generations(raw, story.id) == set()


# -- cost --------------------------------------------------------------------------------------


def _calls_of_a_save(
    raw: Collections, store: Store, author: UserRecord, mark: RevisionMark | None
) -> list[tuple[str, str]]:
    """The collection calls of a save with new elements, of a story with two revisions (so
    that a save keeping two cuts one off)."""
    story = add_story(store, author.id, f"cost-{uuid.uuid4().hex[:6]}", elements=[make_element()])
    for n in range(2):
        elements = [make_element()]
        new = _next(story, elements)
        story = _replace(store.stories, story, new, elements, RevisionMark(at(n), "x", 2))
    watch = _Watch()
    stories, _ = _watched(raw, watch)
    elements = [make_element()]
    _replace(stories, story, _next(story, elements), elements, mark)
    return watch.calls


def test_a_save_with_revisions_off_makes_the_calls_of_a_save_without_them(
    raw: Collections, store: Store, author: UserRecord
) -> None:
    without = _calls_of_a_save(raw, store, author, None)
    assert _calls_of_a_save(raw, store, author, RevisionMark(at(2), "x", 0)) == without
    assert ("revisions", "replace_one") not in without


@pytest.mark.parametrize("keep", [2, 50], ids=["cutting one off", "below the limit"])
def test_a_save_keeping_a_revision_makes_no_more_calls_than_one_without(
    raw: Collections, store: Store, author: UserRecord, keep: int
) -> None:
    without = _calls_of_a_save(raw, store, author, None)
    keeping = _calls_of_a_save(raw, store, author, RevisionMark(at(2), "x", keep))
    assert ("revisions", "replace_one") in keeping
    assert len(keeping) <= len(without)


# -- a database made before revisions ------------------------------------------------------


def test_a_database_made_before_revisions_opens_and_keeps_revisions_from_then_on(
    raw: Collections, author: UserRecord, store: Store, opened: Callable[[], Store]
) -> None:
    story = add_story(
        store, author.id, "tale", elements=[make_element("old")], status="working", published=None
    )
    # as the version before wrote it: no publish_at, no revisions, no due index
    raw.stories.update_many({}, {"$unset": {"publish_at": "", "revisions": ""}})
    raw.stories.drop_index("due")
    raw.revisions.drop()
    store.close()

    again = opened()
    assert again.stories.get(story.id) == story
    assert again.revisions.count(story.id) == 0
    assert again.stories.due(at(100), 10) == []
    assert "due" in raw.stories.index_information()
    scheduled = _next(story, None, publish_at=at(50))
    story = _replace(again.stories, story, scheduled, None, RevisionMark(at(3), author.id, 50))
    assert again.revisions.heads(story.id, 0, 10) == [
        RevisionHead(1, at(3), author.id, "Tale", "working", 1)
    ]
    assert again.stories.due(at(100), 10) == [story]


# -- the due lookup ------------------------------------------------------------------------


def test_the_due_lookup_walks_the_scheduled_stories_index_and_reads_none_when_none_is_due(
    url: str, raw: Collections, store: Store, author: UserRecord
) -> None:
    if not url.startswith("mongodb"):
        pytest.skip("mongomock has no query planner to ask")
    import pymongo

    later = (
        make_story(
            author.id, f"later-{n}", status="working", published=None, publish_at=at(999 + n)
        )
        for n in range(10_000)
    )
    raw.stories.insert_many([{**document(story), "public": False} for story in later])
    add_story(store, author.id, "published")  # not scheduled: its publish_at is null
    watch = _Watch()
    stories, _ = _watched(raw, watch)
    assert stories.due(at(998), 10) == []
    args, options = watch.finds[-1]  # the adapter's own query, as it asked it
    client: pymongo.MongoClient[dict[str, Any]] = pymongo.MongoClient(url)
    with client:
        plan = client.get_default_database().stories.find(*args, **options).explain()
    assert "'indexName': 'due'" in str(plan["queryPlanner"]["winningPlan"])
    assert plan["executionStats"]["totalDocsExamined"] == 0
    assert plan["executionStats"]["totalKeysExamined"] <= 1
