"""How long a story takes to read (docs/api.md#the-web-host): the "N min read" of its page.

The text is what search reads in each element (``derived.element_words``): a text element's
text without its tags, a quote's text, an image's caption, a link's title and description, a
video's title. Its words (what search calls one: ``searchtext.word_pattern``) are read at
``WORDS_PER_MINUTE``, Medium's rate; Chinese, Japanese and Korean, which a word count cannot
measure (a paragraph of Chinese has no spaces: it is one word to search), are read by the
character at ``CHARACTERS_PER_MINUTE``, Medium's rate for them. Each picture adds a few seconds,
as Medium counts them: 12 for the first, one fewer for each next, 3 from the tenth on. The total
is rounded to the nearest minute (halves up), and a story is never under a minute: one of no
words is "1 min read" too, for a page that said "0 min" would say there is nothing to read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from ..rules.searchtext import word_pattern
from .derived import element_words
from .element_kinds import Element

__all__ = [
    "CHARACTERS_PER_MINUTE",
    "WORDS_PER_MINUTE",
    "image_seconds",
    "reading_minutes",
    "story_words_read",
]

#: The words a reader reads in a minute (Medium's figure).
WORDS_PER_MINUTE = 265
#: The characters of Chinese, Japanese or Korean a reader reads in a minute (Medium's figure).
CHARACTERS_PER_MINUTE = 500
#: The seconds the first picture adds, and the fewest any picture adds.
_FIRST_PICTURE, _LEAST_PICTURE = 12, 3
#: A character read one by one: kana, CJK ideographs (and their extension A and compatibility
#: forms), Hangul syllables.
_CHARACTER = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")


@cache
def _word() -> re.Pattern[str]:
    return re.compile(word_pattern())


def _texts(elements: Iterable[Element]) -> Iterable[str]:
    return (text for element in elements for text in element_words(element))


def _count(pattern: re.Pattern[str], text: str) -> int:
    return sum(1 for _ in pattern.finditer(text))


def story_words_read(elements: Iterable[Element]) -> int:
    """How many words ``elements`` give a reader to read, besides the characters read one by
    one (Chinese, Japanese, Korean)."""
    return sum(_count(_word(), _CHARACTER.sub(" ", text)) for text in _texts(elements))


def image_seconds(pictures: int) -> int:
    """The seconds ``pictures`` pictures add: 12 for the first, one fewer for each next, 3 for
    the tenth and each after it."""
    return sum(max(_FIRST_PICTURE - n, _LEAST_PICTURE) for n in range(pictures))


def reading_minutes(elements: Iterable[Element]) -> int:
    """The minutes a story of ``elements`` takes to read: at least 1."""
    shown = list(elements)
    pictures = sum(1 for element in shown if element.type == "image")
    characters = sum(_count(_CHARACTER, text) for text in _texts(shown))
    seconds = (
        story_words_read(shown) * 60 / WORDS_PER_MINUTE
        + characters * 60 / CHARACTERS_PER_MINUTE
        + image_seconds(pictures)
    )
    return max(1, int(seconds / 60 + 0.5))
