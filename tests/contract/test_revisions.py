"""Revisions (docs/api.md#revisions): what ``StoryRepository.replace`` keeps of a story with a
``RevisionMark``, what ``RevisionRepository`` reads of them and stores from an import, and how
they go with their story.

A revision is the stored story as it was before the replacement: its record (without the
counters and the featured mark, but with its author) and its element documents in story order,
under the version it had, with when and by whom it was replaced.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from storycore.errors import DuplicateKey, Missing, StaleVersion
from storycore.model.records import Element, StoryRecord, UserRecord, element_document
from storycore.model.revisions import Revision, RevisionHead, RevisionMark
from storycore.ports import KEPT_BY_REPLACE, Store
from tests.contract._factories import (
    add_story,
    at,
    changed,
    count_view,
    make_element,
    make_story,
    read_elements,
)

#: Enough for every test that does not try the limit.
KEEP = 50


def _mark(by: str, *, minutes: int = 90, keep: int = KEEP) -> RevisionMark:
    """A mark: replaced ``minutes`` after the fixed moment by the user ``by``."""
    return RevisionMark(replaced=at(minutes), by=by, keep=keep)


def _as_kept(story: StoryRecord) -> StoryRecord:
    """``story`` as a revision's record holds it: the members ``KEPT_BY_REPLACE`` at their
    defaults, but the author."""
    fields = StoryRecord.model_fields
    return story.model_copy(
        update={name: fields[name].get_default() for name in KEPT_BY_REPLACE - {"author_id"}}
    )


def _documents(elements: Sequence[Element]) -> tuple[str, ...]:
    """The element documents a revision holds of ``elements``."""
    return tuple(element_document(element) for element in elements)


def _replace(
    store: Store,
    story: StoryRecord,
    elements: Sequence[Element] | None = None,
    *,
    mark: RevisionMark | None,
    **members: object,
) -> StoryRecord:
    """Replace the stored ``story`` by its next version (``members`` applied, ``elements``
    replacing its elements when given) with ``mark``; the new record as given."""
    new = changed(story, elements if elements is not None else [], **members)
    store.stories.replace(new, expected_version=story.version, elements=elements, revision=mark)
    return new


def _versions(store: Store, story_id: str) -> list[int]:
    """The versions of the story's revisions, oldest first."""
    return [revision.version for revision in store.revisions.of_story(story_id)]


# -- a replacement with a mark ---------------------------------------------------------------


def test_a_replacement_with_a_mark_keeps_the_story_as_it_was(
    store: Store, author: UserRecord
) -> None:
    elements = [make_element("first"), make_element("second", kind="link")]
    story = add_story(
        store,
        author.id,
        "tale",
        elements=elements,
        title="Draft",
        status="working",
        description="told",
        thumbnail="https://img.example/t.png",
        publish_at=at(30),
        topics=["Science"],
        version=3,
    )
    _replace(store, story, [make_element("new")], mark=_mark(author.id), title="Final")
    assert store.revisions.get(story.id, 3) == Revision(
        story_id=story.id,
        version=3,
        replaced=at(90),
        by=author.id,
        record=story,
        elements=_documents(elements),
    )


def test_a_replacement_without_a_mark_keeps_no_revision(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, elements=[make_element("a")])
    _replace(store, story, [make_element("b")], mark=None, title="Retold")
    assert store.revisions.count(story.id) == 0
    assert store.revisions.get(story.id, story.version) is None


def test_a_revision_is_kept_at_the_version_the_story_had(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, version=4)
    new = _replace(store, story, mark=_mark(author.id), title="Retold")
    assert _versions(store, story.id) == [4]
    assert store.revisions.get(story.id, new.version) is None


def test_a_revision_holds_when_and_by_whom_the_story_was_replaced(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    story = add_story(store, author.id)
    _replace(store, story, mark=_mark(other_author.id, minutes=75), title="Retold")
    revision = store.revisions.get(story.id, story.version)
    assert revision is not None
    assert (revision.replaced, revision.by) == (at(75), other_author.id)


def test_a_revisions_record_holds_no_counters_nor_featured_mark_but_the_author(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, views=5, likes=2, comments=1, popularity=25)
    count_view(store, story.id, "https://page.example/")
    store.stories.set_featured(story.id, at(9))
    _replace(store, story, mark=_mark(author.id), title="Retold")
    revision = store.revisions.get(story.id, story.version)
    assert revision is not None
    assert revision.record == _as_kept(story)
    assert revision.record.author_id == author.id


def test_a_revisions_elements_are_the_element_documents_in_story_order(
    store: Store, author: UserRecord
) -> None:
    elements = [
        make_element("\u00e9l\u00e9ment \u2028 </script>"),
        make_element("a quote", kind="quote"),
        make_element("a link", kind="link"),
        make_element("a video", kind="video"),
        make_element("an image", kind="image"),
        make_element("last"),
    ]
    story = add_story(store, author.id, elements=elements)
    _replace(store, story, list(reversed(elements)), mark=_mark(author.id))
    revision = store.revisions.get(story.id, story.version)
    assert revision is not None
    assert revision.elements == _documents(elements)


def test_a_revision_of_a_story_without_elements_has_none(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    _replace(store, story, [make_element("first")], mark=_mark(author.id))
    revision = store.revisions.get(story.id, story.version)
    assert revision is not None
    assert revision.elements == ()


def test_a_replacement_that_replaces_the_elements_keeps_the_old_ones_in_its_revision(
    store: Store, author: UserRecord
) -> None:
    old = [make_element("old one"), make_element("old two")]
    new = [make_element("new")]
    story = add_story(store, author.id, elements=old)
    _replace(store, story, new, mark=_mark(author.id))
    revision = store.revisions.get(story.id, story.version)
    assert revision is not None
    assert revision.elements == _documents(old)
    assert read_elements(store, story.id) == new


def test_a_replacement_that_keeps_the_elements_keeps_them_in_its_revision_too(
    store: Store, author: UserRecord
) -> None:
    elements = [make_element("one"), make_element("two")]
    story = add_story(store, author.id, elements=elements)
    second = _replace(store, story, None, mark=_mark(author.id), title="Second")
    _replace(store, second, None, mark=_mark(author.id), title="Third")
    assert [r.elements for r in store.revisions.of_story(story.id)] == [
        _documents(elements),
        _documents(elements),
    ]
    assert read_elements(store, story.id) == elements


def test_each_revision_holds_the_story_as_it_was_at_its_version(
    store: Store, author: UserRecord
) -> None:
    first_elements = [make_element("first")]
    second_elements = [make_element("second"), make_element("more")]
    first = add_story(store, author.id, "tale", elements=first_elements, title="First")
    second = _replace(store, first, second_elements, mark=_mark(author.id), title="Second")
    _replace(store, second, [], mark=_mark(author.id, minutes=120), title="Third")
    assert store.revisions.of_story(first.id) == [
        Revision(first.id, 1, at(90), author.id, first, _documents(first_elements)),
        Revision(first.id, 2, at(120), author.id, second, _documents(second_elements)),
    ]


def test_a_slug_changes_revision_holds_the_old_slug(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, "tale")
    _replace(store, story, mark=_mark(author.id), slug="moved")
    revision = store.revisions.get(story.id, story.version)
    assert revision is not None
    assert revision.record.slug == "tale"


# -- a refused replacement keeps no revision ------------------------------------------------


def test_a_replacement_refused_as_stale_keeps_no_revision_and_changes_nothing(
    store: Store, author: UserRecord
) -> None:
    elements = [make_element("kept")]
    story = add_story(store, author.id, "tale", elements=elements)
    current = _replace(store, story, mark=_mark(author.id), title="Current")
    before = store.revisions.of_story(story.id)
    late = changed(story, [make_element("lost")], title="Late")
    with pytest.raises(StaleVersion):
        store.stories.replace(
            late,
            expected_version=story.version,
            elements=[make_element("lost")],
            revision=_mark(author.id, minutes=120),
        )
    assert store.revisions.of_story(story.id) == before
    assert store.stories.get(story.id) == current
    assert read_elements(store, story.id) == elements


def test_a_replacement_of_a_missing_story_keeps_no_revision(
    store: Store, author: UserRecord
) -> None:
    story = make_story(author.id, elements=[make_element("never stored")])
    with pytest.raises(Missing):
        store.stories.replace(
            changed(story, []), expected_version=story.version, revision=_mark(author.id)
        )
    assert store.revisions.count(story.id) == 0
    assert store.revisions.get(story.id, story.version) is None
    assert store.stories.get(story.id) is None


def test_a_replacement_of_a_removed_story_keeps_no_revision(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, elements=[make_element("gone")])
    store.stories.remove(story.id)
    with pytest.raises(Missing):
        store.stories.replace(
            changed(story, []), expected_version=story.version, revision=_mark(author.id)
        )
    assert store.revisions.of_story(story.id) == []
    assert store.stories.get(story.id) is None


def test_a_replacement_refused_for_its_slug_keeps_no_revision_and_changes_nothing(
    store: Store, author: UserRecord
) -> None:
    add_story(store, author.id, "taken")
    elements = [make_element("kept")]
    story = add_story(store, author.id, "tale", elements=elements)
    current = _replace(store, story, mark=_mark(author.id), title="Current")
    before = store.revisions.of_story(story.id)
    with pytest.raises(DuplicateKey, match=r"story\.slug"):
        _replace(store, current, [make_element("lost")], mark=_mark(author.id), slug="taken")
    assert store.revisions.of_story(story.id) == before
    assert store.stories.get(story.id) == current
    assert read_elements(store, story.id) == elements


# -- keep ----------------------------------------------------------------------------------


def test_a_story_keeps_at_most_keep_revisions_the_oldest_going_first(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    for n in range(5):
        story = _replace(store, story, mark=_mark(author.id, keep=3), title=f"Take {n}")
    assert _versions(store, story.id) == [3, 4, 5]


def test_a_smaller_keep_drops_the_revisions_beyond_it_in_the_same_replacement(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    for n in range(4):
        story = _replace(store, story, mark=_mark(author.id, keep=10), title=f"Take {n}")
    _replace(store, story, mark=_mark(author.id, keep=2), title="Last")
    assert _versions(store, story.id) == [4, 5]


def test_keep_zero_keeps_no_revision(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, elements=[make_element("a")])
    _replace(store, story, [make_element("b")], mark=_mark(author.id, keep=0))
    assert store.revisions.count(story.id) == 0
    assert store.revisions.get(story.id, story.version) is None


def test_keep_zero_still_replaces_the_story(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, elements=[make_element("a")])
    new_elements = [make_element("b")]
    new = _replace(store, story, new_elements, mark=_mark(author.id, keep=0), title="Retold")
    assert store.stories.get(story.id) == new
    assert read_elements(store, story.id) == new_elements


def test_keep_zero_leaves_the_revisions_kept_before(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    story = _replace(store, story, mark=_mark(author.id), title="Second")
    before = store.revisions.of_story(story.id)
    _replace(store, story, mark=_mark(author.id, keep=0), title="Third")
    assert store.revisions.of_story(story.id) == before


def test_keep_drops_only_the_storys_own_revisions(store: Store, author: UserRecord) -> None:
    kept = add_story(store, author.id, "kept")
    for n in range(3):
        kept = _replace(store, kept, mark=_mark(author.id), title=f"Kept {n}")
    trimmed = add_story(store, author.id, "trimmed")
    for n in range(3):
        trimmed = _replace(store, trimmed, mark=_mark(author.id, keep=1), title=f"Trim {n}")
    assert _versions(store, kept.id) == [1, 2, 3]
    assert _versions(store, trimmed.id) == [3]


# -- heads, count, get, of_story -----------------------------------------------------------


def test_heads_list_the_revisions_newest_first_with_title_status_and_element_count(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    story = add_story(
        store, author.id, status="working", title="Draft", elements=[make_element("a")]
    )
    second = _replace(
        store,
        story,
        [make_element("b"), make_element("c")],
        mark=_mark(author.id, minutes=70),
        title="Published",
        status="published",
        published=at(70),
    )
    _replace(store, second, [], mark=_mark(other_author.id, minutes=80), title="Emptied")
    assert store.revisions.heads(story.id, 0, 10) == [
        RevisionHead(2, at(80), other_author.id, "Published", "published", 2),
        RevisionHead(1, at(70), author.id, "Draft", "working", 1),
    ]


def test_each_head_is_what_its_revision_shows(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, elements=[make_element("a")])
    for n in range(3):
        elements = [make_element(f"e{k}") for k in range(n)]
        story = _replace(store, story, elements, mark=_mark(author.id), title=f"Take {n}")
    revisions = store.revisions.of_story(story.id)
    assert store.revisions.heads(story.id, 0, 10) == [r.head for r in reversed(revisions)]


def test_heads_are_sliced_by_offset_and_limit(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    for n in range(5):
        story = _replace(store, story, mark=_mark(author.id), title=f"Take {n}")

    def versions(offset: int, limit: int) -> list[int]:
        return [head.version for head in store.revisions.heads(story.id, offset, limit)]

    assert versions(0, 2) == [5, 4]
    assert versions(1, 3) == [4, 3, 2]
    assert versions(4, 3) == [1]
    assert versions(5, 3) == []


def test_heads_of_a_story_without_revisions_are_empty(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    assert store.revisions.heads(story.id, 0, 10) == []


def test_count_is_how_many_revisions_the_story_has(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    assert store.revisions.count(story.id) == 0
    for n in range(3):
        story = _replace(store, story, mark=_mark(author.id), title=f"Take {n}")
    assert store.revisions.count(story.id) == 3


def test_count_of_an_unknown_story_is_zero(store: Store) -> None:
    assert store.revisions.count("nope") == 0


def test_get_of_an_unknown_version_is_none(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, version=2)
    _replace(store, story, mark=_mark(author.id), title="Retold")
    assert store.revisions.get(story.id, 1) is None
    assert store.revisions.get(story.id, 3) is None


def test_get_of_an_unknown_story_is_none(store: Store) -> None:
    assert store.revisions.get("nope", 1) is None


def test_of_story_gives_every_revision_whole_oldest_first(store: Store, author: UserRecord) -> None:
    elements: list[Element] = []
    story = add_story(store, author.id)
    expected = []
    for n in range(4):
        mark = _mark(author.id, minutes=90 + n)
        expected.append(
            Revision(story.id, story.version, mark.replaced, mark.by, story, _documents(elements))
        )
        elements = [make_element(f"take {n}")]
        story = _replace(store, story, elements, mark=mark, title=f"Take {n}")
    assert store.revisions.of_story(story.id) == expected


def test_of_story_of_a_story_without_revisions_is_empty(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id)
    assert store.revisions.of_story(story.id) == []


def test_revisions_of_one_story_never_show_under_another(
    store: Store, author: UserRecord, other_author: UserRecord
) -> None:
    mine = add_story(store, author.id, "tale", title="Mine", elements=[make_element("mine")])
    theirs = add_story(store, other_author.id, "tale", title="Theirs")
    _replace(store, mine, mark=_mark(author.id), title="Mine again")
    _replace(store, theirs, mark=_mark(other_author.id), title="Theirs again")
    for story, by in ((mine, author.id), (theirs, other_author.id)):
        assert [(r.story_id, r.record.title, r.by) for r in store.revisions.of_story(story.id)] == [
            (story.id, story.title, by)
        ]
        assert [head.title for head in store.revisions.heads(story.id, 0, 10)] == [story.title]
        assert store.revisions.count(story.id) == 1
        revision = store.revisions.get(story.id, 1)
        assert revision is not None
        assert revision.record == story


# -- remove --------------------------------------------------------------------------------


def test_remove_deletes_the_storys_revisions(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, elements=[make_element("a")])
    for n in range(2):
        story = _replace(store, story, mark=_mark(author.id), title=f"Take {n}")
    store.stories.remove(story.id)
    assert store.revisions.count(story.id) == 0
    assert store.revisions.heads(story.id, 0, 10) == []
    assert store.revisions.of_story(story.id) == []
    assert store.revisions.get(story.id, 1) is None


def test_remove_leaves_other_stories_revisions(store: Store, author: UserRecord) -> None:
    kept = add_story(store, author.id, "kept")
    gone = add_story(store, author.id, "gone")
    _replace(store, kept, mark=_mark(author.id), title="Kept again")
    _replace(store, gone, mark=_mark(author.id), title="Gone again")
    store.stories.remove(gone.id)
    assert [r.record for r in store.revisions.of_story(kept.id)] == [kept]


def test_a_new_story_at_a_removed_storys_slug_has_none_of_its_revisions(
    store: Store, author: UserRecord
) -> None:
    gone = add_story(store, author.id, "tale")
    _replace(store, gone, mark=_mark(author.id), title="Retold")
    store.stories.remove(gone.id)
    new = add_story(store, author.id, "tale")
    assert store.revisions.count(new.id) == 0
    assert store.revisions.of_story(new.id) == []


# -- add_many (import) ---------------------------------------------------------------------


def _imported(story: StoryRecord, version: int, *, by: str, title: str) -> Revision:
    """A revision of ``story`` as an import brings it: the story at ``version`` titled
    ``title``, with one element."""
    record = _as_kept(story).model_copy(update={"version": version, "title": title})
    return Revision(story.id, version, at(version), by, record, _documents([make_element(title)]))


def test_add_many_stores_revisions_as_given(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, version=4)
    given = [
        _imported(story, version, by=author.id, title=f"Take {version}") for version in (1, 3, 2)
    ]
    assert store.revisions.add_many(given) == 3
    assert store.revisions.of_story(story.id) == sorted(given, key=lambda r: r.version)
    assert store.revisions.get(story.id, 3) == given[1]
    assert store.revisions.heads(story.id, 0, 10) == [given[1].head, given[2].head, given[0].head]


def test_add_many_of_nothing_stores_nothing(store: Store) -> None:
    assert store.revisions.add_many([]) == 0


def test_add_many_of_a_revision_of_a_missing_story_raises_missing_story(
    store: Store, author: UserRecord
) -> None:
    story = make_story(author.id)
    with pytest.raises(Missing, match="story"):
        store.revisions.add_many([_imported(story, 1, by=author.id, title="Lost")])
    assert store.revisions.of_story(story.id) == []


def test_add_many_at_a_version_the_story_has_a_revision_at_raises_duplicate_revision(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id, version=3)
    first = _imported(story, 1, by=author.id, title="First")
    store.revisions.add_many([first])
    with pytest.raises(DuplicateKey, match="revision"):
        store.revisions.add_many([_imported(story, 1, by=author.id, title="Again")])
    assert store.revisions.of_story(story.id) == [first]


def test_add_many_at_the_version_of_a_revision_a_replacement_kept_raises_duplicate_revision(
    store: Store, author: UserRecord
) -> None:
    story = add_story(store, author.id)
    _replace(store, story, mark=_mark(author.id), title="Retold")
    before = store.revisions.of_story(story.id)
    with pytest.raises(DuplicateKey, match="revision"):
        store.revisions.add_many([_imported(story, story.version, by=author.id, title="Again")])
    assert store.revisions.of_story(story.id) == before


def test_added_revisions_go_with_their_story(store: Store, author: UserRecord) -> None:
    story = add_story(store, author.id, version=3)
    store.revisions.add_many([_imported(story, 1, by=author.id, title="First")])
    store.stories.remove(story.id)
    assert store.revisions.count(story.id) == 0
