"""Search semantics (decisions section 8): what a word is, and how words are compared.

A word is a run of letters and digits. Words are compared ignoring case and accents, so text is
reduced to normalized tokens (NFKD, combining marks dropped, case-folded). Stories and queries go
through the same function, and a story matches when every query token is one of its tokens.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = ["fold", "query_tokens", "token_text", "tokens"]

_WORD = re.compile(r"[^\W_]+")


def fold(text: str) -> str:
    """``text`` without accents, case-folded: the form in which words are compared."""
    if text.isascii():  # nothing to decompose or fold beyond case: the common case, fast
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFKC", stripped.casefold())


def tokens(*texts: str) -> list[str]:
    """The distinct normalized words of ``texts``, in order of first appearance."""
    seen: dict[str, None] = {}
    for text in texts:
        if text:
            for word in _WORD.findall(fold(text)):
                seen.setdefault(word, None)
    return list(seen)


def query_tokens(query: str) -> list[str]:
    """The words a query asks for; every one must occur in a matching story."""
    return tokens(query)


def token_text(words: Iterable[str]) -> str:
    """Tokens joined into one space-separated text, the form a full-text index stores."""
    return " ".join(words)
