"""Hashtags (decisions section 6): lowercase, without ``#``, from members and ``#words`` in text."""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["extract_hashtags", "normalize_tag"]

_HASHTAG = re.compile(r"(?<![\w&])#(\w{1,100})")


def normalize_tag(tag: str) -> str:
    """A tag as stored and compared: without a leading ``#`` and surrounding space, lowercase."""
    return tag.strip().lstrip("#").strip().lower()


def extract_hashtags(explicit: Iterable[str], *texts: str) -> list[str]:
    """The distinct hashtags of a story: the given ones, then ``#words`` found in ``texts``."""
    found: dict[str, None] = {}
    for tag in explicit:
        key = normalize_tag(tag)
        if key:
            found.setdefault(key, None)
    for text in texts:
        for word in _HASHTAG.findall(text):
            found.setdefault(word.lower(), None)
    return list(found)
