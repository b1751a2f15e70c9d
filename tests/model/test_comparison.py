"""Comparing two versions of a story (docs/editor.md#preview-and-history): elements matched
by their id, words compared in the title, description, text, captions and quotes."""

from __future__ import annotations

from typing import Any

from storycore.model.comparison import StoryVersion, compare, compare_words
from storycore.model.element_kinds import Element
from storycore.model.records import trusted_element


def _text(id: str, html: str) -> Element:
    return trusted_element({"id": id, "type": "text", "data": {"text": html}})


def _image(id: str, caption: str, src: str = "https://pics.example/a.jpg") -> Element:
    image: dict[str, Any] = {"src": src, "caption": caption, "width": 0, "height": 0}
    return trusted_element({"id": id, "type": "image", "data": {"image": image}})


def _quote(id: str, text: str) -> Element:
    return trusted_element(
        {
            "id": id,
            "type": "quote",
            "permalink": "https://social.example/@bo/1",
            "data": {"quote": {"text": text}},
        }
    )


def _version(*elements: Element, title: str = "A title", description: str = "") -> StoryVersion:
    return StoryVersion(title=title, description=description, elements=elements)


def _states(pieces: Any) -> list[tuple[str, str]]:
    return [(piece.state, piece.text) for piece in pieces]


def test_changed_words_are_marked_added_and_removed() -> None:
    words = compare_words("Fog in the harbour", "Fog over the old harbour")
    assert _states(words.pieces) == [
        ("same", "Fog"),
        ("removed", "in"),
        ("added", "over"),
        ("same", "the"),
        ("added", "old"),
        ("same", "harbour"),
    ]


def test_runs_join_the_words_of_one_state() -> None:
    words = compare_words("Fog in the harbour", "Fog over an old harbour")
    assert _states(words.runs) == [
        ("same", "Fog"),
        ("removed", "in the"),
        ("added", "over an old"),
        ("same", "harbour"),
    ]


def test_the_same_words_are_no_change() -> None:
    assert not compare_words("Fog  in\nthe harbour", "Fog in the harbour").changed


def test_title_and_description_changes_are_word_differences() -> None:
    difference = compare(
        _version(title="Fog", description="Boats wait"),
        _version(title="Fog lifts", description="Boats wait"),
    )
    assert (difference.title.changed, difference.description.changed) == (True, False)


def test_an_element_only_after_is_added() -> None:
    difference = compare(
        _version(_text("a", "<p>one</p>")),
        _version(_text("a", "<p>one</p>"), _text("b", "<p>two</p>")),
    )
    assert [element.id for element in difference.added] == ["b"]


def test_an_element_only_before_is_removed() -> None:
    difference = compare(
        _version(_text("a", "<p>one</p>"), _text("b", "<p>two</p>")),
        _version(_text("b", "<p>two</p>")),
    )
    assert [element.id for element in difference.removed] == ["a"]


def test_an_element_out_of_its_order_is_moved() -> None:
    before = _version(_text("a", "<p>1</p>"), _text("b", "<p>2</p>"), _text("c", "<p>3</p>"))
    after = _version(_text("b", "<p>2</p>"), _text("c", "<p>3</p>"), _text("a", "<p>1</p>"))
    moved = compare(before, after).moved
    assert [(element.id, element.position_before, element.position_after) for element in moved] == [
        ("a", 1, 3)
    ]


def test_an_element_shifted_by_an_addition_is_not_moved() -> None:
    before = _version(_text("a", "<p>1</p>"), _text("b", "<p>2</p>"))
    after = _version(_text("new", "<p>0</p>"), _text("a", "<p>1</p>"), _text("b", "<p>2</p>"))
    assert compare(before, after).moved == ()


def test_a_text_change_is_compared_as_words_of_its_text_not_its_markup() -> None:
    difference = compare(
        _version(_text("a", "<p>The <b>old</b> pier</p>")),
        _version(_text("a", "<p>The <i>old</i> stone pier</p>")),
    )
    (changed,) = difference.changed
    (member,) = changed.members
    assert (member.name, _states(member.words.pieces)) == (
        "text",
        [("same", "The"), ("same", "old"), ("added", "stone"), ("same", "pier")],
    )


def test_markup_alone_is_no_change_of_words() -> None:
    difference = compare(
        _version(_text("a", "<p>The <b>old</b> pier</p>")),
        _version(_text("a", "<p>The <i>old</i> pier</p>")),
    )
    (changed,) = difference.changed
    assert changed.members == ()


def test_a_caption_change_is_compared_as_words() -> None:
    difference = compare(_version(_image("a", "A boat")), _version(_image("a", "A red boat")))
    assert [member.name for member in difference.changed[0].members] == ["caption"]


def test_a_quote_change_is_compared_as_words() -> None:
    difference = compare(_version(_quote("a", "")), _version(_quote("a", "Out at sea")))
    assert [member.name for member in difference.changed[0].members] == ["quote"]


def test_a_change_without_words_is_still_a_change() -> None:
    before = _version(_image("a", "A boat", src="https://pics.example/a.jpg"))
    after = _version(_image("a", "A boat", src="https://pics.example/b.jpg"))
    assert [element.id for element in compare(before, after).changed] == ["a"]


def test_an_unchanged_element_is_none_of_the_changes() -> None:
    version = _version(_text("a", "<p>one</p>"))
    difference = compare(version, version)
    assert (
        difference.added,
        difference.removed,
        difference.moved,
        difference.changed,
        difference.changes,
    ) == ((), (), (), (), False)


def test_removed_elements_are_listed_where_they_were() -> None:
    before = _version(_text("a", "<p>1</p>"), _text("gone", "<p>x</p>"), _text("b", "<p>2</p>"))
    after = _version(_text("a", "<p>1</p>"), _text("b", "<p>2</p>"))
    assert [element.id for element in compare(before, after).elements] == ["a", "gone", "b"]
