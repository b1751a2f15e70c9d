"""The writer's desk: their stories, latest change first, and the form that starts one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..pages.render import pager_of
from .frame import Desk, render_editor_page

__all__ = ["DeskItem", "desk_page"]


@dataclass(frozen=True, slots=True)
class DeskItem:
    """A story on the desk: its title, its state (``working``, ``scheduled``, ``published``)
    said in words, when it last changed, and the addresses of its editor, preview and page
    (a page only once it is published)."""

    title: str
    state: str
    state_text: str
    private: bool
    updated: str
    edit_url: str
    preview_url: str
    page_url: str


def desk_page(
    desk: Desk,
    items: Sequence[DeskItem],
    *,
    new_url: str,
    page: int,
    has_next: bool,
    problem: str = "",
) -> str:
    """The desk's page ``page`` of the writer's stories."""
    return render_editor_page(
        "editor/desk.html",
        desk,
        "Your stories",
        items=items,
        new_url=new_url,
        problem=problem,
        pager=pager_of(desk.desk_url, page, has_next),
    )
