"""The application-name rule (docs/api.md#credentials): 1 to 100 characters, not blank, stored
without the white space around it.
"""

from __future__ import annotations

from ..errors import InvalidParameter

__all__ = ["MAX_APP_NAME", "WEB_HOST_APP", "WEB_HOST_APP_ID", "validate_app_name"]

MAX_APP_NAME = 100
#: The application whose tokens are the web host's sign-in sessions (docs/editor.md#signing-in):
#: its name is no other application's to take, and it is stored under this id.
WEB_HOST_APP = "storycore web host"
WEB_HOST_APP_ID = "storycore-web-host"


def validate_app_name(name: str, field: str = "name") -> str:
    """``name`` without the white space around it, or ``InvalidParameter`` naming ``field``."""
    if not name.strip() or len(name) > MAX_APP_NAME:
        raise InvalidParameter(f"{field} must be 1 to {MAX_APP_NAME} characters", field=field)
    if name.strip().casefold() == WEB_HOST_APP:
        raise InvalidParameter(f"the name {WEB_HOST_APP!r} is the web host's own", field=field)
    return name.strip()
