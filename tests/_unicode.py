"""Hosts written in the characters IDNA maps to ASCII, spelled here without them (they look
like the ASCII they stand for)."""

from __future__ import annotations

__all__ = ["IDEOGRAPHIC_FULL_STOP", "full_width"]

#: ``U+3002``, a dot to IDNA.
IDEOGRAPHIC_FULL_STOP = "\u3002"
# the full-width forms of ``!`` to ``~`` are theirs moved by one offset
_FULL_WIDTH_OFFSET = 0xFF01 - ord("!")


def full_width(text: str) -> str:
    """``text`` (printable ASCII) in full-width letters, digits and signs."""
    return "".join(chr(ord(c) + _FULL_WIDTH_OFFSET) if "!" <= c <= "~" else c for c in text)
