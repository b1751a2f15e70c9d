"""StoryRepository: add, read, slugs, replace, remove, featuring and export."""

from __future__ import annotations

import orjson
import pytest

from storycore.errors import DuplicateKey, Missing, StaleVersion
from storycore.model.element_kinds import ElementType
from storycore.model.queries import StoryQuery
from storycore.model.records import UserRecord, element_document
from storycore.ports import Store
from tests.contract._factories import (
    add_story,
    at,
    changed,
    count_view,
    heads,
    make_element,
    make_story,
    read_elements,
)


def _everything(author_id: str) -> StoryQuery:
    """Every story of the author, whatever its visibility."""
    return StoryQuery(
        offset=0,
        limit=100,
        author_id=author_id,
        audience="owner",
    )


# -- add and read ------------------------------------------------------------------------


def test_an_added_story_reads_back_equal_by_id(store: Store, author: UserRecord) -> None:
    story = add_story(
        store,
        author.id,
        "tale",
        elements=[make_element("hello #world", permalink="https://x.example/1")],
        description="told",
        topics=["Science"],
        hashtags=["python"],
    )
    assert store.stories.get(story.id) == story


def test_an_added_story_reads_back_equal_by_slug(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "tale", status="working", private=True)
    assert store.stories.get_by_slug(author.id, "tale") == story


def test_elements_read_back_in_story_order(store: Store, author: UserRecord) -> None:
    elements = [
        make_element("first"),
        make_element("second", kind="quote", permalink="https://x.example/2"),
        make_element("third", kind="link", permalink="https://x.example/3"),
    ]
    story = add_story(store, author.id, elements=elements)
    assert read_elements(store, story.id, 0, 100) == elements


def test_elements_are_sliced_by_offset_and_limit(store: Store, author: UserRecord) -> None:
    elements = [make_element(f"element {n}") for n in range(5)]
    story = add_story(store, author.id, elements=elements)
    assert read_elements(store, story.id, 1, 3) == elements[1:4]
    assert read_elements(store, story.id, 4, 3) == elements[4:]
    assert read_elements(store, story.id, 5, 3) == []


def test_element_documents_are_the_elements_as_json_sliced_alike(
    store: Store, author: UserRecord
) -> None:
    kinds: tuple[ElementType, ...] = ("text", "quote", "link", "video")
    elements = [
        make_element(f"\u00e9l\u00e9ment {n} \u2028 </script>", kind=kind)
        for n, kind in enumerate(kinds)
    ]
    story = add_story(store, author.id, elements=elements)
    documents = store.stories.element_documents(story.id, 1, 2)
    assert [orjson.loads(d) for d in documents] == [
        e.model_dump(mode="json") for e in elements[1:3]
    ]
    assert documents == [element_document(e) for e in elements[1:3]]


# -- read_story: a story read's three reads at once --------------------------------------------


def test_read_story_gives_the_author_the_story_and_a_window_of_its_element_documents(
    store: Store, author: UserRecord
) -> None:
    elements = [make_element(f"element {n}") for n in range(5)]
    story = add_story(store, author.id, "tale", elements=elements)
    read = store.read_story("ALICE", "tale", 1, 3)
    assert (read.author, read.story) == (author, story)
    assert read.documents == [element_document(e) for e in elements[1:4]]


def test_read_story_of_an_unknown_user_finds_nothing(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, "tale", elements=[make_element("hello")])
    assert store.read_story("nobody", "tale", 0, 10) == (None, None, [])


def test_read_story_at_a_slug_the_author_has_no_story_at_finds_the_author_alone(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    add_story(store, other_author.id, "tale", elements=[make_element("theirs")])
    assert store.read_story("alice", "tale", 0, 10) == (author, None, [])


def test_read_story_at_a_retired_slug_finds_the_author_alone(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale", elements=[make_element("moved")])
    store.stories.replace(changed(story, [], slug="moved"), expected_version=story.version)
    assert store.read_story("alice", "tale", 0, 10) == (author, None, [])


def test_read_story_past_the_last_element_has_no_documents(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale", elements=[make_element("only")])
    assert store.read_story("alice", "tale", 1, 10) == (author, story, [])


def test_add_stores_counters_and_featured_at_as_given(store: Store, author: UserRecord) -> None:
    story = add_story(
        store,
        author.id,
        views=7,
        likes=2,
        comments=1,
        element_comments=3,
        popularity=27,
        featured_at=at(5),
        version=4,
    )
    assert store.stories.get(story.id) == story


def test_get_of_an_unknown_id_is_none(store: Store, author: UserRecord) -> None:
    add_story(store, author.id)
    assert store.stories.get("nope") is None


def test_get_by_slug_of_an_unknown_slug_is_none(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, "tale")
    assert store.stories.get_by_slug(author.id, "other") is None


def test_get_by_slug_looks_only_at_the_authors_stories(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    add_story(store, author.id, "tale")
    assert store.stories.get_by_slug(other_author.id, "tale") is None


def test_a_slug_is_unique_per_author(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, "tale")
    with pytest.raises(DuplicateKey, match=r"story\.slug"):
        add_story(store, author.id, "tale")


def test_an_add_refused_for_its_slug_stores_nothing(store: Store, author: UserRecord) -> None:
    first = add_story(store, author.id, "tale")
    element = make_element("zebra", permalink="https://x.example/zebra")
    second = make_story(author.id, "tale", elements=[element], title="Zebra")
    with pytest.raises(DuplicateKey, match=r"story\.slug"):
        store.stories.add_many([(second, [element], ["zebra"])])
    assert store.stories.get(second.id) is None
    assert store.stories.get_by_slug(author.id, "tale") == first
    assert read_elements(store, second.id, 0, 10) == []
    assert store.stories.find(_everything(author.id)) == heads([first])
    assert store.search.search(["zebra"], 0, 10) == []


def test_two_authors_may_use_the_same_slug(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    mine = add_story(store, author.id, "tale")
    theirs = add_story(store, other_author.id, "tale")
    assert store.stories.get_by_slug(author.id, "tale") == mine
    assert store.stories.get_by_slug(other_author.id, "tale") == theirs


# -- taken_slugs ---------------------------------------------------------------------------


def test_taken_slugs_are_those_asked_that_the_author_lives_at(
    store: Store, author: UserRecord
) -> None:
    for slug in ("tale", "tale-2", "tale-10"):
        add_story(store, author.id, slug)
    asked = ["tale", "tale-2", "tale-3", "tale-10", "tales"]
    assert store.stories.taken_slugs(author.id, asked) == {"tale", "tale-2", "tale-10"}


def test_taken_slugs_of_nothing_asked_is_empty(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, "tale")
    assert store.stories.taken_slugs(author.id, []) == set()


def test_taken_slugs_look_only_at_the_authors_stories(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    add_story(store, other_author.id, "tale")
    assert store.stories.taken_slugs(author.id, ["tale"]) == set()


def test_taken_slugs_leave_out_retired_slugs(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "tale")
    store.stories.replace(changed(story, [], slug="moved"), expected_version=story.version)
    assert store.stories.taken_slugs(author.id, ["tale", "moved"]) == {"moved"}


# -- replace -------------------------------------------------------------------------------


def test_replace_stores_the_new_record(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "tale", status="working", published=None)
    new = changed(
        story,
        [],
        title="Retold",
        description="again",
        status="published",
        published=at(30),
        private=True,
        modified=True,
        topics=["Sport"],
    )
    store.stories.replace(new, expected_version=story.version)
    assert store.stories.get(story.id) == new


def test_replace_with_a_stale_version_raises_stale_version(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, version=3)
    with pytest.raises(StaleVersion):
        store.stories.replace(changed(story, [], title="Late"), expected_version=2)


def test_a_version_conflict_changes_nothing(store: Store, author: UserRecord) -> None:
    elements = [make_element("kept")]
    story = add_story(store, author.id, "tale", elements=elements, version=3)
    with pytest.raises(StaleVersion):
        store.stories.replace(
            changed(story, [make_element("lost")], title="Late", slug="moved"),
            expected_version=2,
            elements=[make_element("lost")],
        )
    assert store.stories.get(story.id) == story
    assert read_elements(store, story.id, 0, 10) == elements
    assert store.stories.get_by_slug(author.id, "tale") == story
    assert store.stories.get_by_slug(author.id, "moved") is None


def test_replace_of_a_missing_story_raises_missing(store: Store, author: UserRecord) -> None:
    story = make_story(author.id)
    with pytest.raises(Missing):
        store.stories.replace(changed(story, []), expected_version=story.version)
    assert store.stories.get(story.id) is None


def test_replace_of_a_removed_story_raises_missing(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    store.stories.remove(story.id)
    with pytest.raises(Missing):
        store.stories.replace(changed(story, []), expected_version=story.version)
    assert store.stories.get(story.id) is None


def test_replace_onto_another_live_slug_raises_duplicate_slug(
    store: Store, author: UserRecord
) -> None:
    add_story(store, author.id, "taken")
    story = add_story(store, author.id, "tale")
    with pytest.raises(DuplicateKey, match=r"story\.slug"):
        store.stories.replace(changed(story, [], slug="taken"), expected_version=story.version)


def test_a_slug_change_refused_for_its_slug_changes_nothing(
    store: Store, author: UserRecord
) -> None:
    other = add_story(store, author.id, "taken")
    elements = [make_element("kept")]
    story = add_story(store, author.id, "tale", elements=elements)
    new = changed(story, [make_element("lost")], slug="taken", title="Lost")
    with pytest.raises(DuplicateKey, match=r"story\.slug"):
        store.stories.replace(new, expected_version=story.version, elements=[make_element("x")])
    assert store.stories.get(story.id) == story
    assert store.stories.get_by_slug(author.id, "tale") == story
    assert store.stories.get_by_slug(author.id, "taken") == other
    assert read_elements(store, story.id, 0, 10) == elements


def test_replace_may_move_onto_another_authors_slug(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    add_story(store, other_author.id, "taken")
    story = add_story(store, author.id, "tale")
    new = changed(story, [], slug="taken")
    store.stories.replace(new, expected_version=story.version)
    assert store.stories.get_by_slug(author.id, "taken") == new


def test_a_bulk_add_of_an_id_the_store_holds_raises_duplicate_story_id(
    store: Store, author: UserRecord
) -> None:
    first = add_story(store, author.id, "first")
    with pytest.raises(DuplicateKey, match=r"story\.id"):
        store.stories.add_many([(make_story(author.id, "second", story_id=first.id), [], [])])
    assert store.stories.get_by_slug(author.id, "second") is None


def test_replace_keeps_the_stored_author(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    story = add_story(store, author.id, "tale")
    store.stories.replace(
        changed(story, [], author_id=other_author.id, title="Retold"),
        expected_version=story.version,
    )
    stored = store.stories.get(story.id)
    assert stored is not None
    assert (stored.author_id, stored.title) == (author.id, "Retold")
    assert store.stories.get_by_slug(author.id, "tale") is not None
    assert store.stories.get_by_slug(other_author.id, "tale") is None


def test_replace_keeps_the_stored_counters_and_featured_at(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, views=5, likes=1, comments=2, popularity=30)
    count_view(store, story.id)
    store.stories.set_featured(story.id, at(9))
    stored = store.stories.get(story.id)
    assert stored is not None
    new = changed(
        story,
        [],
        title="Retold",
        views=999,
        likes=999,
        comments=999,
        element_comments=999,
        popularity=999,
        featured_at=None,
    )
    store.stories.replace(new, expected_version=story.version)
    after = store.stories.get(story.id)
    assert after is not None
    assert after.title == "Retold"
    kept = ("views", "likes", "comments", "element_comments", "popularity", "featured_at")
    assert {name: getattr(after, name) for name in kept} == {
        "views": 6,
        "likes": 1,
        "comments": 2,
        "element_comments": 0,
        "popularity": 31,
        "featured_at": at(9),
    }


def test_replace_does_not_feature_a_story(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    store.stories.replace(changed(story, [], featured_at=at(9)), expected_version=story.version)
    after = store.stories.get(story.id)
    assert after is not None
    assert after.featured_at is None


def test_replace_with_elements_replaces_all_elements(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, elements=[make_element("a"), make_element("b")])
    new_elements = [make_element("c", kind="link", permalink="https://x.example/c")]
    store.stories.replace(
        changed(story, new_elements), expected_version=story.version, elements=new_elements
    )
    assert read_elements(store, story.id, 0, 10) == new_elements


def test_replace_with_no_elements_removes_them_all(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, elements=[make_element("a"), make_element("b")])
    store.stories.replace(changed(story, []), expected_version=story.version, elements=[])
    assert read_elements(store, story.id, 0, 10) == []


def test_replace_without_elements_keeps_them(store: Store, author: UserRecord) -> None:
    elements = [make_element("a"), make_element("b")]
    story = add_story(store, author.id, elements=elements)
    store.stories.replace(changed(story, elements, title="Retold"), expected_version=story.version)
    assert read_elements(store, story.id, 0, 10) == elements


# -- remove --------------------------------------------------------------------------------


def test_remove_deletes_the_story(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "tale")
    assert store.stories.remove(story.id) is True
    assert store.stories.get(story.id) is None
    assert store.stories.get_by_slug(author.id, "tale") is None
    assert store.stories.find(_everything(author.id)) == []


def test_remove_deletes_the_elements(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, elements=[make_element("a")])
    store.stories.remove(story.id)
    assert read_elements(store, story.id, 0, 10) == []


def test_remove_deletes_the_aliases(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "tale")
    store.stories.replace(changed(story, [], slug="moved"), expected_version=story.version)
    store.stories.remove(story.id)
    assert store.stories.get_by_slug(author.id, "tale") is None
    assert store.stories.get_by_slug(author.id, "moved") is None


def test_remove_deletes_the_embed_counts(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    count_view(store, story.id, "https://page.example/")
    store.stories.remove(story.id)
    assert store.stories.embeds([story.id]) == {}
    assert store.stories.author_stats([author.id])[author.id].embeds == 0


def test_remove_deletes_the_search_entry(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, title="Zebra")
    store.stories.remove(story.id)
    assert store.search.search(["zebra"], 0, 10) == []


def test_remove_answers_whether_the_story_existed(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    assert store.stories.remove(story.id) is True
    assert store.stories.remove(story.id) is False


def test_remove_leaves_other_stories(store: Store, author: UserRecord) -> None:
    kept = add_story(store, author.id, "kept", elements=[make_element("k")])
    gone = add_story(store, author.id, "gone")
    store.stories.remove(gone.id)
    assert store.stories.get(kept.id) == kept
    assert len(read_elements(store, kept.id, 0, 10)) == 1


def test_a_removed_storys_slug_is_free_again(store: Store, author: UserRecord) -> None:
    gone = add_story(store, author.id, "tale")
    store.stories.remove(gone.id)
    new = add_story(store, author.id, "tale")
    assert store.stories.get_by_slug(author.id, "tale") == new


# -- set_featured --------------------------------------------------------------------------


def test_set_featured_marks_the_story_featured_since_the_time(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    store.stories.set_featured(story.id, at(9))
    assert store.stories.get(story.id) == story.model_copy(update={"featured_at": at(9)})


def test_set_featured_with_none_unfeatures_the_story(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, featured_at=at(9))
    store.stories.set_featured(story.id, None)
    assert store.stories.get(story.id) == story.model_copy(update={"featured_at": None})


# -- iter_all ------------------------------------------------------------------------------


def test_iter_all_yields_every_story_with_all_its_elements(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    many = [make_element(f"element {n}") for n in range(30)]
    stories = {
        add_story(store, author.id, "one", elements=many).id: many,
        add_story(store, author.id, "two", status="working").id: [],
        add_story(store, other_author.id, "three", private=True, elements=many[:1]).id: many[:1],
    }
    exported = {story.id: (story, elements) for story, elements in store.stories.iter_all()}
    assert {key: elements for key, (_, elements) in exported.items()} == stories
    assert all(store.stories.get(key) == story for key, (story, _) in exported.items())


def test_iter_all_yields_stories_in_id_order(store: Store, author: UserRecord) -> None:
    for n, story_id in enumerate(["m", "c", "x", "a"]):
        add_story(store, author.id, f"s{n}", story_id=story_id)
    assert [story.id for story, _ in store.stories.iter_all()] == ["a", "c", "m", "x"]


def test_iter_all_of_an_empty_store_yields_nothing(store: Store) -> None:
    assert list(store.stories.iter_all()) == []
