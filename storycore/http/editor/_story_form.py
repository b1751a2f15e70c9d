"""The editor's form (docs/editor.md#the-editor), read and acted on: what the writer holds
(the members as typed, the version their page was made from, the elements in the order the
page holds them, with the texts and captions typed), the element actions its buttons ask for,
and the ``story`` a save sends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...model.records import Element
from ...presentation.editor.editing import StoryFields
from ...usecases.lifecycle import EditedStory
from ..forms import Form

__all__ = [
    "MOVES",
    "Held",
    "fields_of",
    "held_form",
    "held_story",
    "inserted",
    "moved",
    "story_input",
]

#: The moves an element's buttons ask for.
MOVES = ("up", "down", "top", "bottom", "remove")


@dataclass(frozen=True, slots=True)
class Held:
    """What the writer's page holds: the members, the version (as sent: a version that is
    no number is refused by the save), the elements and the text typed in each text element."""

    fields: StoryFields
    version: str
    elements: tuple[Element, ...]
    texts: Mapping[str, str]


def fields_of(edited: EditedStory) -> StoryFields:
    """The members of a story as its editor first shows them."""
    story = edited.story
    return StoryFields(
        title=story.title,
        description=story.description or "",
        thumbnail=story.thumbnail or "",
        topics=", ".join(story.topics),
        hashtags=", ".join(story.hashtags),
        private=story.private,
    )


def held_story(edited: EditedStory) -> Held:
    """What a page made from ``edited`` holds."""
    return Held(fields_of(edited), str(edited.story.version), tuple(edited.elements), {})


def held_form(form: Form, known: Mapping[str, Element]) -> Held:
    """What a posted editor form holds: its members as typed, its ``version``, and its
    ``element`` ids in order, each the element ``known`` has by that id with the caption typed
    for an image and the text typed for a text element (ids known nowhere are left out)."""
    fields = StoryFields(
        title=form.get("title"),
        description=form.get("description"),
        thumbnail=form.get("thumbnail").strip(),
        topics=form.get("topics"),
        hashtags=form.get("hashtags"),
        private=bool(form.get("private")),
    )
    elements: list[Element] = []
    texts: dict[str, str] = {}
    seen: set[str] = set()
    for element_id in form.all("element"):
        element = known.get(element_id)
        if element is None or element_id in seen:
            continue
        seen.add(element_id)
        if element.type == "image" and f"caption-{element_id}" in form:
            element = _captioned(element, form.get(f"caption-{element_id}"))
        if element.type == "text" and f"text-{element_id}" in form:
            texts[element_id] = form.get(f"text-{element_id}")
        elements.append(element)
    return Held(fields, form.get("version"), tuple(elements), texts)


def _captioned(element: Element, caption: str) -> Element:
    data: dict[str, Any] = dict(element.data) if isinstance(element.data, Mapping) else {}
    image = dict(data.get("image") or {})
    image["caption"] = caption.strip()
    return element.model_copy(update={"data": {**data, "image": image}})


def moved(elements: Sequence[Element], element_id: str, move: str) -> tuple[Element, ...]:
    """``elements`` with the one of ``element_id`` moved ``up``, ``down``, to the ``top`` or
    ``bottom``, or ``remove``d; as they are when no element has that id."""
    order = list(elements)
    at = next((i for i, element in enumerate(order) if element.id == element_id), None)
    if at is None:
        return tuple(order)
    element = order.pop(at)
    if move == "remove":
        return tuple(order)
    to = {"up": max(at - 1, 0), "down": at + 1, "top": 0, "bottom": len(order)}[move]
    order.insert(to, element)
    return tuple(order)


def inserted(elements: Sequence[Element], element: Element, where: str) -> tuple[Element, ...]:
    """``elements`` with ``element`` at the ``top``, at the ``bottom``, or ``after:ID`` the
    element of that id (at the bottom when there is none)."""
    order = list(elements)
    if where == "top":
        order.insert(0, element)
        return tuple(order)
    after = where.removeprefix("after:") if where.startswith("after:") else None
    at = next((i + 1 for i, e in enumerate(order) if e.id == after), len(order))
    order.insert(at, element)
    return tuple(order)


def story_input(held: Held) -> dict[str, Any]:
    """The ``story`` a save of ``held`` sends: every member the form holds, and its elements
    as objects (those the writer did not change as stored; the service sanitizes texts)."""
    fields = held.fields
    elements = []
    for element in held.elements:
        sent = element.model_dump(mode="json", exclude_none=True)
        if element.id in held.texts:
            sent["data"] = {"text": held.texts[element.id]}
        elements.append(sent)
    return {
        "title": fields.title,
        "description": fields.description,
        "thumbnail": fields.thumbnail or None,
        "topics": _labels(fields.topics),
        "hashtags": _labels(fields.hashtags),
        "private": fields.private,
        "elements": elements,
    }


def _labels(text: str) -> list[str]:
    """Comma-separated labels, each trimmed, the empty ones left out."""
    return [label.strip() for label in text.split(",") if label.strip()]
