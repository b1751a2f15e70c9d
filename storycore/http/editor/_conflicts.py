"""What a save that met a newer version shows (docs/editor.md#the-editor): what the newer
version changed since the one the writer held (members and elements), and the writer's own
elements with those the newer version added put back among them, so that applying the writer's
changes again loses nothing either side wrote."""

from __future__ import annotations

from collections.abc import Sequence

from ...model.records import Element
from ...presentation.editor.editing import Conflict
from ...presentation.editor.element_names import element_name
from ...presentation.pages import Site
from ...presentation.pages.elements import element_view
from ...usecases.lifecycle import EditedStory
from ._story_form import fields_of

__all__ = ["conflict_of", "merged_elements"]

#: The members a conflict compares, with their names in words.
_NAMES = {
    "title": "Title",
    "description": "Description",
    "thumbnail": "Thumbnail address",
    "topics": "Topics",
    "hashtags": "Hashtags",
    "private": "Private",
}


def conflict_of(held: EditedStory, newer: EditedStory, site: Site) -> Conflict:
    """What ``newer`` changed since ``held``."""
    before, after = fields_of(held), fields_of(newer)
    members = [
        (name, _said(getattr(after, member)))
        for member, name in _NAMES.items()
        if getattr(before, member) != getattr(after, member)
    ]
    if held.story.slug != newer.story.slug:
        members.append(("Slug", f"“{newer.story.slug}”"))
    if held.story.status != newer.story.status:
        members.append(("Status", newer.story.status))
    held_ids = {element.id for element in held.elements}
    newer_ids = {element.id for element in newer.elements}
    return Conflict(
        held=held.story.version,
        newer=newer.story.version,
        members=members,
        added=[_name(e, site) for e in newer.elements if e.id not in held_ids],
        removed=[_name(e, site) for e in held.elements if e.id not in newer_ids],
    )


def merged_elements(
    mine: Sequence[Element], held: EditedStory, newer: EditedStory
) -> tuple[tuple[Element, ...], frozenset[str]]:
    """The writer's elements ``mine`` with each element ``newer`` added since ``held`` put
    after the element before it in ``newer`` (at the top when none is there), and the ids of
    those put back. What the newer version removed and the writer kept stays: the writer
    decides."""
    held_ids = {element.id for element in held.elements}
    order = list(mine)
    ids = {element.id for element in order}
    added: set[str] = set()
    before: str | None = None
    for element in newer.elements:
        if element.id not in held_ids and element.id not in ids:
            at = next((i + 1 for i, e in enumerate(order) if e.id == before), 0)
            order.insert(at, element)
            ids.add(element.id)
            added.add(element.id)
        if element.id in ids:
            before = element.id
    return tuple(order), frozenset(added)


def _said(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"“{value}”" if value else "empty"


def _name(element: Element, site: Site) -> str:
    return element_name(element_view(element, site))
