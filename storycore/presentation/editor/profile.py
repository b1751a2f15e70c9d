"""The writer's profile page: the profile's members and the password change, two forms."""

from __future__ import annotations

from collections.abc import Mapping

from ...rules.credentials import MIN_PASSWORD_LENGTH
from .frame import Desk, render_editor_page

__all__ = ["profile_page"]


def profile_page(
    desk: Desk,
    *,
    action: str,
    values: Mapping[str, str],
    problems: Mapping[str, str],
    summary: str = "",
    passwords: bool = True,
) -> str:
    """The profile form holding ``values`` (name, bio, location, website, avatar) and, with
    ``passwords``, the password form (always empty); each refused field says why beside it
    (``problems``, by field name), and ``summary`` what no field holds."""
    return render_editor_page(
        "editor/profile.html",
        desk,
        "Your profile",
        action=action,
        values=values,
        problems=problems,
        summary=summary,
        passwords=passwords,
        min_password=MIN_PASSWORD_LENGTH,
    )
