"""The writer's profile page: the profile's members and the password change, two forms."""

from __future__ import annotations

from collections.abc import Mapping

from ...rules.credentials import MIN_PASSWORD_LENGTH
from .frame import Desk, render_editor_page

__all__ = ["PROFILE_LABELS", "profile_page"]

#: What the page calls each field (the words of its labels, and of what it says when one is
#: refused).
PROFILE_LABELS = {
    "name": "Name",
    "bio": "Bio",
    "location": "Location",
    "website": "Website",
    "avatar": "Avatar address",
    "current_password": "Current password",
    "new_password": "New password",
}


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
        labels=PROFILE_LABELS,
        min_password=MIN_PASSWORD_LENGTH,
    )
