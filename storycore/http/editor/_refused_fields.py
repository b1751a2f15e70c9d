"""A refused value beside its field (docs/editor.md#the-editor): the field the service names
(``story.title``, ``story.elements.3.data.image.caption``, ``address.0``) mapped to the input of
the editor's form that holds it, and the message said with the input's label."""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import StorycoreError
from ...model.records import Element
from ...presentation.editor.editing import Problems

__all__ = ["problems_of"]

#: The story members the form has an input for, and the input's label.
_MEMBERS = {
    "title": "The title",
    "description": "The description",
    "thumbnail": "The thumbnail address",
    "topics": "The topics",
    "hashtags": "The hashtags",
    "private": "Private",
}
#: Other inputs whose fields the service names: the address to add, the sources' words.
_INPUTS = {"address": ("address", "The address"), "q": ("q", "The words")}


def problems_of(refused: StorycoreError, elements: Sequence[Element]) -> Problems:
    """Where ``refused`` goes in a form holding ``elements`` (in the order sent)."""
    field = refused.field or ""
    input_id, label = _input_of(field.split("."), elements)
    if not input_id:
        return Problems(general=refused.message)
    message = refused.message
    if message.startswith(field):
        message = label + message[len(field) :]
    return Problems(by_input={input_id: message})


def _input_of(parts: list[str], elements: Sequence[Element]) -> tuple[str, str]:
    if parts[0] in _INPUTS:
        return _INPUTS[parts[0]]
    if parts[0] != "story" or len(parts) < 2:
        return "", ""
    member = parts[1]
    if member in _MEMBERS:
        return member, _MEMBERS[member]
    if member != "elements" or len(parts) < 3 or not parts[2].isdigit():
        return "", ""
    index = int(parts[2])
    if index >= len(elements):
        return "", ""
    element = elements[index]
    if element.type == "text":
        return f"text-{element.id}", "The text"
    if element.type == "image" and "caption" in parts:
        return f"caption-{element.id}", "The caption"
    return f"element-{element.id}", f"Element {index + 1}"
