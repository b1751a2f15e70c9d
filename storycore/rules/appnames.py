"""The application-name rule (docs/api.md#credentials): 1 to 100 characters, not blank, stored
without the white space around it.
"""

from __future__ import annotations

from ..errors import InvalidParameter

__all__ = ["MAX_APP_NAME", "validate_app_name"]

MAX_APP_NAME = 100


def validate_app_name(name: str, field: str = "name") -> str:
    """``name`` without the white space around it, or ``InvalidParameter`` naming ``field``."""
    if not name.strip() or len(name) > MAX_APP_NAME:
        raise InvalidParameter(f"{field} must be 1 to {MAX_APP_NAME} characters", field=field)
    return name.strip()
