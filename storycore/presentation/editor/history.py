"""A story's history (docs/editor.md#preview-and-history): its revisions, newest first, the
form that compares two, the comparison, and the page that asks before a restore.

A comparison is ``storycore.model.comparison``'s ``Difference``; here it is shown: changed
words inside ``<ins>`` and ``<del>`` (each run said to screen readers as "added:" or
"removed:"), and each element added, removed, moved or changed as the story page shows it
(``render_views``). Every value reaches the markup escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

from ...model.comparison import Difference, ElementDifference
from ...model.element_kinds import Element
from ..pages.elements import element_view, render_views
from ..pages.render import pager_of
from ..pages.site import Site
from .frame import Desk, render_editor_page

__all__ = [
    "Choice",
    "HistoryItem",
    "HistoryStory",
    "Side",
    "compare_page",
    "history_page",
    "restore_page",
]

#: What an element of each kind is called on the page.
_KINDS = {
    "text": "Text",
    "quote": "Quote",
    "image": "Image",
    "video": "Video",
    "link": "Link",
    "other": "Element",
}
#: A story's status in the writer's words.
STATUS_WORDS = {"published": "Published", "working": "Not published"}


@dataclass(frozen=True, slots=True)
class HistoryStory:
    """The story whose history a page shows: its title, its current version, and the
    addresses of its history, editor and preview."""

    title: str
    version: int
    history_url: str
    editor_url: str
    preview_url: str


@dataclass(frozen=True, slots=True)
class HistoryItem:
    """A revision in the list: the version it was, who replaced it and when (a timestamp
    and its words), its title, status and element count, and the address that asks before
    restoring it."""

    version: int
    by: str
    replaced: str
    replaced_text: str
    title: str
    status: str
    elements: int
    restore_url: str

    @property
    def status_text(self) -> str:
        """The revision's status in words."""
        return STATUS_WORDS.get(self.status, self.status)


@dataclass(frozen=True, slots=True)
class Choice:
    """A version the comparison form offers: its value (a version, or ``current``) and its
    words."""

    value: str
    text: str


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a comparison: its words ("Version 3, replaced by alice on ...", "The story
    as it is")."""

    value: str
    text: str


def history_page(
    desk: Desk,
    story: HistoryStory,
    items: Sequence[HistoryItem],
    choices: Sequence[Choice],
    *,
    page: int,
    has_next: bool,
    chosen: tuple[str, str] = ("", "current"),
    problem: str = "",
) -> str:
    """The page ``page`` of the story's revisions, newest first, with the comparison form
    (``chosen``: the versions it holds; ``problem``: what was wrong with them)."""
    return render_editor_page(
        "editor/history.html",
        desk,
        f"History of “{story.title}”",
        story=story,
        items=items,
        choices=choices,
        chosen=chosen,
        problem=problem,
        pager=pager_of(story.history_url, page, has_next),
    )


@dataclass(frozen=True, slots=True)
class _Shown:
    """An element difference as the page shows it: its heading and the element's markup
    (empty when its changed words say it all)."""

    difference: ElementDifference
    heading: str
    markup: Markup


def _name(element: Element) -> str:
    kind = _KINDS.get(element.type, "Element")
    username = element.attribution.username if element.attribution is not None else ""
    if not username and element.source is not None:
        username = element.source.username
    return f"{kind} by @{username}" if element.type == "quote" and username else kind


def _heading(difference: ElementDifference) -> str:
    name = _name(difference.element)
    if difference.state == "added":
        return f"Added: {name.lower()} at position {difference.position_after}"
    if difference.state == "removed":
        return f"Removed: {name.lower()} from position {difference.position_before}"
    what = []
    if difference.moved:
        where = f"from position {difference.position_before} to {difference.position_after}"
        what.append(f"moved {where}")
    if difference.changed:
        what.append("changed")
    return f"{name} at position {difference.position_after}: {' and '.join(what)}"


def _shown(site: Site, difference: ElementDifference) -> _Shown:
    markup = Markup()
    if not difference.members:
        markup = render_views([element_view(difference.element, site)])
    return _Shown(difference, _heading(difference), markup)


def _compared(site: Site, difference: Difference) -> list[_Shown]:
    """The elements that differ, in the newer order with each removed one where it was."""
    return [
        _shown(site, element)
        for element in difference.elements
        if element.state != "kept" or element.moved or element.changed
    ]


def compare_page(
    desk: Desk,
    story: HistoryStory,
    difference: Difference,
    before: Side,
    after: Side,
    choices: Sequence[Choice],
) -> str:
    """What changed from ``before`` to ``after``: the words of the title and the description,
    and each element added, removed, moved or changed; the comparison form holds the two."""
    return render_editor_page(
        "editor/compare.html",
        desk,
        f"Changes to “{story.title}”",
        story=story,
        difference=difference,
        shown=_compared(desk.site, difference),
        before=before,
        after=after,
        choices=choices,
        chosen=(before.value, after.value),
    )


def restore_page(
    desk: Desk,
    story: HistoryStory,
    revision: HistoryItem,
    difference: Difference,
    *,
    action: str,
) -> str:
    """The page that asks before a restore: what the story will take from ``revision`` and
    what changes (``difference``: from the story as it is to the revision), and the form that
    restores it, carrying the story's current version."""
    return render_editor_page(
        "editor/restore.html",
        desk,
        f"Restore version {revision.version} of “{story.title}”?",
        story=story,
        revision=revision,
        difference=difference,
        shown=_compared(desk.site, difference),
        action=action,
    )
