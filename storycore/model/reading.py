"""How long a story takes to read (docs/api.md#the-web-host): the "N min read" of its page.

The words are those search reads in each element (``derived.element_words``): a text
element's text without its tags, a quote's text, an image's caption, a link's title and
description, a video's title; a word is what search calls one (``searchtext.word_pattern``).
They are read at ``WORDS_PER_MINUTE``, Medium's rate, and each picture adds a few seconds, as
Medium counts them: 12 for the first, one fewer for each next, 3 from the tenth on. The total is
rounded to the nearest minute (halves up), and a story is never under a minute: one of no words
is "1 min read" too, for a page that said "0 min" would say there is nothing to read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from ..rules.searchtext import word_pattern
from .derived import element_words
from .element_kinds import Element

__all__ = ["WORDS_PER_MINUTE", "image_seconds", "reading_minutes", "story_words_read"]

#: The words a reader reads in a minute (Medium's figure).
WORDS_PER_MINUTE = 265
#: The seconds the first picture adds, and the fewest any picture adds.
_FIRST_PICTURE, _LEAST_PICTURE = 12, 3


@cache
def _word() -> re.Pattern[str]:
    return re.compile(word_pattern())


def story_words_read(elements: Iterable[Element]) -> int:
    """How many words ``elements`` give a reader to read."""
    finder = _word()
    return sum(
        sum(1 for _ in finder.finditer(text))
        for element in elements
        for text in element_words(element)
    )


def image_seconds(pictures: int) -> int:
    """The seconds ``pictures`` pictures add: 12 for the first, one fewer for each next, 3 for
    the tenth and each after it."""
    return sum(max(_FIRST_PICTURE - n, _LEAST_PICTURE) for n in range(pictures))


def reading_minutes(elements: Iterable[Element]) -> int:
    """The minutes a story of ``elements`` takes to read: at least 1."""
    shown = list(elements)
    pictures = sum(1 for element in shown if element.type == "image")
    seconds = story_words_read(shown) * 60 / WORDS_PER_MINUTE + image_seconds(pictures)
    return max(1, int(seconds / 60 + 0.5))
