"""Search semantics (docs/api.md#lists-filters-sorting-and-search): what a word is, and how words
are compared.

A word is a letter or digit followed by letters, digits and combining marks; anything else
(spaces, punctuation, an underscore) separates words. Marks belong to the word because in most
scripts of South and South-East Asia they spell it: ``हिन्दी`` holds vowel signs and a virama,
and is one word, not ``ह`` and ``नद``.

Words are compared ignoring case and accents, so text is reduced to normalized tokens: NFKD,
case-folded, accents dropped, NFKC. An accent is a combining mark on a letter of an alphabet
whose marks are optional diacritics: Latin, Greek and Cyrillic accents (``é`` matches ``e``),
and the vowel points of Hebrew and Arabic. After any other character a mark is kept, as part of
the spelling (Devanagari vowel signs, Tamil and Khmer viramas, Thai tone marks, the voicing mark
of kana). A letter's alphabet is the first word of its Unicode name (``LATIN SMALL LETTER E``).

Stories and queries go through the same function, and a story matches when every query token is
one of its tokens. A token never holds a space or ASCII punctuation, so a full-text index may
store tokens joined by spaces and split on spaces alone.

The words a search page marks in what it found (``found_words``) are found by the same rule:
each word of the text as written whose tokens are among the query's. A symbol that is no letter
but folds to letters (``㎏``, ``kg``) is searched as them but not marked.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

from ._marks import mark_ranges

__all__ = ["fold", "found_words", "query_tokens", "token_text", "tokens", "word_pattern"]

_ASCII_WORD = re.compile(r"[a-z0-9]+")  # a word of folded ASCII text
_ACCENTED_ALPHABETS = ("LATIN ", "GREEK ", "CYRILLIC ", "HEBREW ", "ARABIC ")


@functools.cache
def word_pattern() -> str:
    """The regular expression of one word, for every rule that finds words (hashtags too)."""
    return rf"[^\W_](?:[^\W_]|[{mark_ranges()}])*"


@functools.cache
def _word() -> re.Pattern[str]:
    return re.compile(word_pattern())


@functools.lru_cache(maxsize=4096)
def _takes_accents(letter: str) -> bool:
    """Whether the marks on ``letter`` are accents (dropped), not part of the spelling (kept)."""
    return letter.isalpha() and unicodedata.name(letter, "").startswith(_ACCENTED_ALPHABETS)


def _without_accents(decomposed: str) -> str:
    kept: list[str] = []
    base = ""
    for char in decomposed:
        if unicodedata.category(char)[0] == "M":
            if _takes_accents(base):
                continue
        else:
            base = char
        kept.append(char)
    return "".join(kept)


def fold(text: str) -> str:
    """``text`` without accents, case-folded: the form in which words are compared."""
    if text.isascii():  # nothing to decompose or fold beyond case: the common case, fast
        return text.lower()
    # folded before the accents go, so the marks are judged by the letters that stay
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    return unicodedata.normalize("NFKC", _without_accents(folded))


def tokens(*texts: str) -> list[str]:
    """The distinct normalized words of ``texts``, in order of first appearance."""
    seen: dict[str, None] = {}
    for text in texts:
        if text:
            folded = fold(text)
            word = _ASCII_WORD if folded.isascii() else _word()
            for found in word.findall(folded):
                seen.setdefault(found, None)
    return list(seen)


def query_tokens(query: str) -> list[str]:
    """The words a query asks for; every one must occur in a matching story."""
    return tokens(query)


def found_words(text: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """Where in ``text`` the query tokens ``words`` occur: the start and end of each word of
    ``text`` as written (``Crème``, ``STRAßE``) that folds to one of them, in order.

    A word is the word rule's, read in ``text`` as written, and folded on its own: so it is
    the word the search matched, and a search page marks it whole (docs/api.md#the-search-page).
    """
    wanted = set(words)
    if not wanted:
        return []
    return [
        match.span()
        for match in _word().finditer(text)
        if not wanted.isdisjoint(tokens(match.group()))
    ]


def token_text(words: Iterable[str]) -> str:
    """Tokens joined into one space-separated text, the form a full-text index stores."""
    return " ".join(words)
