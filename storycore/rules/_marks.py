"""Combining marks (Unicode general category M) for regular expressions.

``re`` has no ``\\p{M}`` and its ``\\w`` leaves marks out, yet in most scripts of South and
South-East Asia a word holds marks: vowel signs and viramas (``हिन्दी`` is ``ह ि न ् द ी``).
The ranges come from the running Python's Unicode database, read once on first use (some 30 ms).
Only planes 0, 1 and 14 are read: the others hold ideographs and private use, no marks.
"""

from __future__ import annotations

import functools
import unicodedata

__all__ = ["mark_ranges"]

_PLANES_WITH_MARKS = (range(0x0, 0x20000), range(0xE0000, 0xF0000))


@functools.cache
def mark_ranges() -> str:
    """Every combining mark as ranges for the inside of a character class: ``[\\w{ranges}]``."""
    ranges: list[str] = []
    start = end = -1
    for plane in _PLANES_WITH_MARKS:
        for code in plane:
            if unicodedata.category(chr(code))[0] != "M":
                continue
            if code != end + 1:
                if start >= 0:
                    ranges.append(_range(start, end))
                start = code
            end = code
    ranges.append(_range(start, end))
    return "".join(ranges)


def _range(start: int, end: int) -> str:
    return f"\\U{start:08x}" if start == end else f"\\U{start:08x}-\\U{end:08x}"
