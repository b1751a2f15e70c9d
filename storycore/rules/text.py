"""What text the service accepts: any Unicode except control characters.

NUL and the other C0 and C1 controls (tab, line feed and carriage return excepted) have no place
in titles, names or parameters, and would reach logs, headers and other systems unseen.
"""

from __future__ import annotations

import re

from ..errors import InvalidParameter

__all__ = ["CONTROL_CHARACTERS", "check_text"]

#: The characters no text the service takes may hold: a class of one character, which the
#: OpenAPI document's text patterns exclude as they are written here.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def check_text(value: str, field: str) -> str:
    """``value``, or ``InvalidParameter`` naming ``field`` when it holds a control character."""
    if CONTROL_CHARACTERS.search(value):
        raise InvalidParameter(f"{field} must not contain control characters", field=field)
    return value
