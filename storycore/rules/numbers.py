"""Whole numbers as parameters: one rule for every integer a caller sends (docs/api.md#pagination,
docs/decisions.md#serving).

An integer is a JSON integer (or a JSON number with no fraction, such as `3.0`) or, where a
parameter may arrive as text (a query string, a form
body), ASCII digits with an optional minus sign. Every integer must also fit the stores: a
signed 64-bit integer, the range of SQLite, MongoDB and PostgreSQL alike. Anything else, or a
value out of the parameter's own range, is ``invalid_parameter`` naming the field and the range.
"""

from __future__ import annotations

from typing import Any

from ..errors import InvalidParameter

__all__ = ["STORE_INT_MAX", "whole_number"]

#: The largest integer every store can hold (a signed 64-bit integer).
STORE_INT_MAX = 2**63 - 1
_MAX_DIGITS = len(str(STORE_INT_MAX)) + 1  # longer text is out of range whatever it says


def whole_number(
    value: Any,
    field: str,
    *,
    minimum: int = 1,
    maximum: int = STORE_INT_MAX,
    text: bool = True,
) -> int:
    """``value`` as an integer from ``minimum`` to ``maximum``; ``text`` allows digit strings.

    ``maximum`` is capped at ``STORE_INT_MAX``, so no caller can pass a store an integer it
    cannot hold.
    """
    maximum = min(maximum, STORE_INT_MAX)
    number = _parsed(value, text)
    if number is None or not minimum <= number <= maximum:
        raise InvalidParameter(
            f"{field} must be an integer from {minimum} to {maximum}", field=field
        )
    return number


def _parsed(value: Any, text: bool) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)  # JSON's 3.0 is the integer 3 (JSON Schema counts it so)
    if not text or not isinstance(value, str):
        return None
    stripped = value.strip()
    digits = stripped.removeprefix("-")
    if not stripped.isascii() or not digits.isdigit() or len(stripped) > _MAX_DIGITS:
        return None
    return int(stripped)
