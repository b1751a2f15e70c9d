"""Reading and editing export lines in tests: a line by what its record holds, a line changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

Lines = list[bytes]


def line_of(lines: Lines, kind: str, match: Callable[[dict[str, Any]], bool]) -> int:
    """The number (from 1) of the first line of ``kind`` whose record matches."""
    for number, line in enumerate(lines, start=1):
        item = orjson.loads(line)
        if item["kind"] == kind and match(item["record"]):
            return number
    raise AssertionError(f"no {kind} line matches")


def edited(lines: Lines, number: int, change: Callable[[dict[str, Any]], None]) -> Lines:
    """``lines`` with line ``number`` (from 1) changed in place by ``change``."""
    item = orjson.loads(lines[number - 1])
    change(item)
    return [*lines[: number - 1], orjson.dumps(item) + b"\n", *lines[number:]]
