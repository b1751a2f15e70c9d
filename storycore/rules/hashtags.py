"""Hashtags (docs/api.md#stories): lowercase, without ``#``, from members and ``#words`` in text.

A ``#word`` is ``#`` then one word of search's word rule (``storycore.rules.searchtext``,
docs/api.md#limits), so a tag found in text is a word that search finds too: ``#हिन्दी`` is
``हिन्दी``, and
``#foo_bar`` is ``foo`` (an underscore separates words).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from .searchtext import word_pattern

__all__ = ["extract_hashtags", "hashtag_spans", "normalize_tag"]

_MAX_LENGTH = 100


@functools.cache
def _hashtag() -> re.Pattern[str]:
    return re.compile(rf"(?<![\w&])#({word_pattern()})")


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
        for word in _hashtag().findall(text):
            if len(word) <= _MAX_LENGTH:
                found.setdefault(word.lower(), None)
    return list(found)


def hashtag_spans(text: str) -> list[tuple[int, int, str]]:
    """Where ``text`` holds ``#words``: each one's start, end (``#`` included) and tag, by the
    rule ``extract_hashtags`` reads them with, so a page links the very tags a story has."""
    return [
        (found.start(), found.end(), found.group(1).lower())
        for found in _hashtag().finditer(text)
        if len(found.group(1)) <= _MAX_LENGTH
    ]
