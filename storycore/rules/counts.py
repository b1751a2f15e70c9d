"""A count said in words, as the command line prints it: ``1 story``, ``2 stories``."""

from __future__ import annotations

__all__ = ["counted"]


def counted(number: int, noun: str) -> str:
    """``number`` and ``noun`` (singular), the noun made plural unless the number is 1: a
    consonant's ``y`` becomes ``ies`` (``story``, ``stories``), anything else takes ``s``."""
    if number == 1:
        return f"{number} {noun}"
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return f"{number} {noun[:-1]}ies"
    return f"{number} {noun}s"
