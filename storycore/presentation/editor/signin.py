"""The sign-in page, and the pages that refuse a request (an expired form, too many failed
sign-ins)."""

from __future__ import annotations

from .frame import Desk, render_editor_page

__all__ = ["refused_page", "signin_page"]


def signin_page(
    desk: Desk, *, action: str, next_path: str, username: str = "", problem: str = ""
) -> str:
    """The sign-in form, which returns to ``next_path`` after; holding the ``username`` typed
    and saying what was wrong, after a refused attempt."""
    return render_editor_page(
        "editor/signin.html",
        desk,
        "Sign in",
        action=action,
        next=next_path,
        username=username,
        problem=problem,
    )


def refused_page(
    desk: Desk, heading: str, message: str, *, back: str = "", back_text: str = ""
) -> str:
    """A page saying why a request was refused and that nothing changed."""
    return render_editor_page(
        "editor/refused.html",
        desk,
        heading,
        heading=heading,
        message=message,
        back=back,
        back_text=back_text,
    )
