"""The editor shows each element as the story page shows it (docs/editor.md#the-editor): the
markup of an element in the editor is the one element renderer's for that element alone; a
text element is edited in place instead."""

from __future__ import annotations

from typing import Any

import pytest

from storycore.model.element_kinds import ELEMENT_CLASSES
from storycore.presentation.editor.editing import element_item
from storycore.presentation.editor.element_names import element_name
from storycore.presentation.pages import Site
from storycore.presentation.pages.elements import element_view, render_views
from storycore.settings import Settings

SITE = Site("https://news.example", "Harbour News", Settings().video_players)

ELEMENTS: list[dict[str, Any]] = [
    {"type": "quote", "permalink": "https://socialA.example/bob/status/1",
     "source": {"name": "socialA", "username": "bob"},
     "attribution": {"name": "Bob <b>", "username": "bob"},
     "data": {"quote": {"text": "line one\nline & two"}}},
    {"type": "image", "data": {"image": {"src": "https://img.example/a.jpg", "caption": "Boats"}}},
    {"type": "video", "data": {"video": {"src": "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
                                         "title": "Song"}}},
    {"type": "link", "permalink": "https://www.other.example/x/y"},
]  # fmt: skip


@pytest.mark.parametrize("members", ELEMENTS, ids=[m["type"] for m in ELEMENTS])
def test_an_element_in_the_editor_is_shown_as_the_story_page_shows_it(
    members: dict[str, Any],
) -> None:
    element = ELEMENT_CLASSES[members["type"]].model_validate({"id": "e1", **members})
    assert element_item(element, SITE).markup == render_views([element_view(element, SITE)])


def test_a_text_element_is_edited_in_place_not_shown() -> None:
    element = ELEMENT_CLASSES["text"].model_validate(
        {"id": "e1", "type": "text", "data": {"text": "<p>#sea and <em>more</em></p>"}}
    )
    item = element_item(element, SITE)
    assert (item.markup, item.text) == ("", "<p>#sea and <em>more</em></p>")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("<p>One two three four five six seven</p>", "text “One two three four five six…”"),
        ("<p>Short one</p>", "text “Short one”"),
        ("<p>" + "x" * 500 + " tail</p>", "text “" + "x" * 59 + "…”"),
    ],
    ids=["six words", "fewer", "a long word"],
)
def test_a_text_element_is_named_by_its_first_words_within_sixty_characters(
    text: str, name: str
) -> None:
    element = ELEMENT_CLASSES["text"].model_validate(
        {"id": "e1", "type": "text", "data": {"text": text}}
    )
    assert element_name(element_view(element, SITE)) == name
