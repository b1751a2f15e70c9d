"""SearchIndex: whole-token matching over stories and their authors, public stories only."""

from __future__ import annotations

import orjson
import pytest

from storycore.model.derived import story_words
from storycore.model.documents import record_json
from storycore.model.records import Attribution, UserRecord
from storycore.ports import Store
from storycore.rules.searchtext import tokens
from tests.contract._factories import add_story, at, changed, count_view, make_element


def _found(store: Store, query: str, offset: int = 0, limit: int = 100) -> list[str]:
    """The ids of the stories a search for the words of ``query`` answers."""
    return [story.id for story in store.search.search(tokens(query), offset, limit)]


def test_a_word_of_the_title_matches(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, title="Red fox")
    assert _found(store, "fox") == [story.id]


def test_every_word_must_match(store: Store, author: UserRecord) -> None:
    both = add_story(store, author.id, "both", title="Red fox", description="jumps high")
    add_story(store, author.id, "one", title="Red panda")
    assert _found(store, "red jumps") == [both.id]


def test_a_story_missing_one_word_does_not_match(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, title="Red fox")
    assert _found(store, "red fox sleeps") == []


def test_words_match_whole_tokens_only(store: Store, author: UserRecord) -> None:
    add_story(store, author.id, title="Catalogue of running dogs")
    for query in ("cat", "catalog", "run", "dog", "atalogue"):
        assert _found(store, query) == [], query


@pytest.mark.parametrize("word", ["the", "and", "or", "not", "near", "a", "2026"])
def test_common_and_reserved_words_match_like_any_other(
    store: Store, author: UserRecord, word: str
) -> None:
    story = add_story(store, author.id, title=f"Notes {word} more")
    add_story(store, author.id, "other", title="Notes more")
    assert _found(store, f"notes {word}") == [story.id]


def test_accented_and_non_latin_words_match(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, title="Crème brûlée à Tōkyō 日本語 Straße")
    assert _found(store, "CREME Brulee tokyo 日本語 strasse") == [story.id]


def test_words_of_elements_topics_and_hashtags_match(store: Store, author: UserRecord) -> None:
    story = add_story(
        store,
        author.id,
        title="Harbour",
        topics=["Maritime"],
        hashtags=["boats"],
        elements=[make_element("lighthouse"), make_element("Quay", kind="quote")],
    )
    assert _found(store, "harbour maritime boats lighthouse quay") == [story.id]


def test_the_authors_username_and_name_match(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, title="Anything")
    assert _found(store, "alice") == _found(store, "liddell") == [story.id]


def test_words_may_match_in_the_story_and_its_author(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    mine = add_story(store, author.id, "mine", title="Harbour")
    add_story(store, other_author.id, "theirs", title="Harbour")
    assert _found(store, "harbour liddell") == [mine.id]


def test_words_of_other_authors_do_not_match(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    add_story(store, author.id, title="Harbour")
    assert _found(store, "harbour builder") == []


def test_private_and_working_stories_are_not_found(store: Store, author: UserRecord) -> None:
    shown = add_story(store, author.id, "shown", title="Harbour")
    add_story(store, author.id, "private", title="Harbour", private=True)
    add_story(store, author.id, "working", title="Harbour", status="working")
    add_story(store, author.id, "both", title="Harbour", status="working", private=True)
    assert _found(store, "harbour") == [shown.id]


def test_results_are_newest_publication_first_then_id_descending(
    store: Store, author: UserRecord
) -> None:
    for story_id, published in [("a", 2), ("b", 3), ("c", 1), ("d", 2)]:
        add_story(
            store,
            author.id,
            f"s-{story_id}",
            story_id=story_id,
            title="Harbour",
            created=at(0),
            published=at(published),
        )
    assert _found(store, "harbour") == ["b", "d", "a", "c"]


@pytest.mark.parametrize("order", ["ascending", "descending", "shuffled"])
def test_stories_published_in_one_millisecond_are_found_by_id_descending(
    store: Store, author: UserRecord, order: str
) -> None:
    ids = [f"id{n:03d}" for n in range(48)]  # more than halving a place range leaves room for
    added = {"ascending": ids, "descending": ids[::-1], "shuffled": ids[1::2] + ids[::2]}
    for story_id in added[order]:
        add_story(store, author.id, story_id, story_id=story_id, title="Harbour", published=at(5))
    assert _found(store, "harbour") == ids[::-1]
    assert _found(store, "harbour", offset=40, limit=5) == ids[7:2:-1]


def test_a_story_published_before_the_stories_found_takes_its_place(
    store: Store, author: UserRecord
) -> None:
    """An import brings stories published long ago after newer ones."""
    for n, published in enumerate([10, 30, 20, 0, 25]):
        add_story(
            store, author.id, f"s{n}", story_id=f"id{n}", title="Harbour", published=at(published)
        )
    assert _found(store, "harbour") == ["id1", "id4", "id2", "id0", "id3"]


def test_a_story_published_again_later_moves_to_its_new_place(
    store: Store, author: UserRecord
) -> None:
    first = add_story(store, author.id, "first", story_id="id1", title="Harbour", published=at(1))
    add_story(store, author.id, "second", story_id="id2", title="Harbour", published=at(2))
    hidden = changed(first, [], status="working", published=None)
    store.stories.replace(hidden, expected_version=first.version)
    assert _found(store, "harbour") == ["id2"]
    again = changed(hidden, [], status="published", published=at(3))
    store.stories.replace(again, expected_version=hidden.version)
    assert _found(store, "harbour") == ["id1", "id2"]


def test_results_are_sliced_by_offset_and_limit(store: Store, author: UserRecord) -> None:
    for n in range(5):
        add_story(store, author.id, f"s{n}", story_id=f"id{n}", title="Harbour", published=at(n))
    assert _found(store, "harbour", offset=1, limit=2) == ["id3", "id2"]
    assert _found(store, "harbour", offset=4, limit=2) == ["id0"]
    assert _found(store, "harbour", offset=5, limit=2) == []


def test_found_stories_are_the_stored_records(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, title="Harbour", views=4, featured_at=at(1))
    count_view(store, story.id)
    stored = store.stories.get(story.id)
    assert stored is not None
    assert store.search.search(["harbour"], 0, 10) == [stored]


def test_search_follows_a_replaced_story(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, title="Harbour")
    new = changed(story, [], title="Lighthouse")
    store.stories.replace(new, expected_version=story.version, words=story_words(new, []))
    assert _found(store, "harbour") == []
    assert _found(store, "lighthouse") == [story.id]


def test_a_replace_without_words_keeps_the_stored_ones(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, title="Harbour")
    store.stories.replace(changed(story, [], title="Lighthouse"), expected_version=story.version)
    assert _found(store, "harbour") == [story.id]
    assert _found(store, "lighthouse") == []


def test_search_follows_replaced_elements(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, title="Tale", elements=[make_element("harbour")])
    elements = [make_element("lighthouse")]
    new = changed(story, elements)
    store.stories.replace(
        new,
        expected_version=story.version,
        elements=elements,
        words=story_words(new, elements),
    )
    assert _found(store, "harbour") == []
    assert _found(store, "lighthouse") == [story.id]


def test_a_story_replaced_as_private_is_no_longer_found(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, title="Harbour")
    store.stories.replace(changed(story, [], private=True), expected_version=story.version)
    assert _found(store, "harbour") == []


def test_a_story_replaced_as_published_is_found(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, title="Harbour", status="working")
    store.stories.replace(
        changed(story, [], status="published", published=at(3)), expected_version=story.version
    )
    assert _found(store, "harbour") == [story.id]


def test_search_stored_answers_the_members_of_searchs_records(
    store: Store, author: UserRecord
) -> None:
    quote = make_element("said so", kind="quote").model_copy(
        update={"attribution": Attribution(name="Bob", username="bob")}
    )
    add_story(store, author.id, "one", title="Red fox", elements=[quote], topics=["Woods"])
    add_story(store, author.id, "two", title="Red fox again", description="a sequel")
    count_view(store, add_story(store, author.id, "three", title="Red fox, last").id)
    records = store.search.search(tokens("red fox"), 0, 10)
    assert sorted(len(r.quoted) for r in records) == [0, 0, 1]
    stored = store.search.search_stored(tokens("red fox"), 0, 10)
    # the same members in the same order: an answer made of either is the same JSON
    assert [orjson.dumps(s, default=record_json) for s in stored] == [
        orjson.dumps(r.__dict__, default=record_json) for r in records
    ]
    assert [s["id"] for s in store.search.search_stored(tokens("red fox"), 1, 1)] == [records[1].id]
    assert store.search.search_stored([], 0, 10) == []
