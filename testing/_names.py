"""Strategies of slugs and usernames, valid and invalid."""

from __future__ import annotations

import string

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from storycore.rules.slugs import MAX_SLUG_LENGTH, derive_slug, is_valid_slug
from storycore.rules.usernames import RESERVED_USERNAMES

from ._text import titles
from .rules import is_valid_username

__all__ = ["any_case", "invalid_slugs", "invalid_usernames", "usernames", "valid_slugs"]

_LOWER_DIGITS = string.ascii_lowercase + string.digits
_WORD_CHARS = string.ascii_letters + string.digits + "_"


def valid_slugs(*, max_length: int = MAX_SLUG_LENGTH) -> SearchStrategy[str]:
    """Slugs that keep the slug rule: lowercase ASCII letters and digits in words joined by
    single hyphens, 1 to ``max_length`` characters; some derived from titles, some at the
    length limit.
    """
    word = st.text(_LOWER_DIGITS, min_size=1, max_size=10)
    joined = st.lists(word, min_size=1, max_size=5).map("-".join)
    edges = st.sampled_from(["a", "0", "a-b", "story", "story-2", "x" * max_length])
    derived = titles().map(lambda title: derive_slug(title, max_length))
    return (edges | joined | derived).filter(lambda slug: is_valid_slug(slug, max_length))


def invalid_slugs(*, max_length: int = MAX_SLUG_LENGTH) -> SearchStrategy[str]:
    """Strings that break the slug rule: empty, uppercase, spaces, underscores, accents,
    leading, trailing or doubled hyphens, punctuation, path tricks, one over the length limit.
    """
    samples = [
        "",
        "-",
        "a-",
        "-a",
        "a--b",
        "A",
        "Hello",
        "my story",
        "my_story",
        "ü",
        "a.b",
        "a/b",
        "../a",
        "%20",
        " a",
        "a\n",
        "story!",
        "ß",
        "x" * (max_length + 1),
    ]
    arbitrary = st.text(max_size=20) | valid_slugs(max_length=max_length).map(str.upper)
    return (st.sampled_from(samples) | arbitrary).filter(
        lambda slug: not is_valid_slug(slug, max_length)
    )


def usernames() -> SearchStrategy[str]:
    """Usernames a user may be created with: 1 to 30 ASCII letters, digits or underscores,
    not reserved (in any case). Two of them may differ only in case, which is one user.
    """
    samples = st.sampled_from(["alice", "Bob", "carol_2", "_", "0", "x" * 30, "Stories2"])
    return (samples | st.text(_WORD_CHARS, min_size=1, max_size=30)).filter(is_valid_username)


def any_case(word: str) -> SearchStrategy[str]:
    """``word`` with each letter in upper or lower case (``"admin"``, ``"AdMiN"``, ...)."""
    return st.lists(st.booleans(), min_size=len(word), max_size=len(word)).map(
        lambda upper: "".join(c.upper() if u else c for c, u in zip(word, upper, strict=True))
    )


def invalid_usernames() -> SearchStrategy[str]:
    """Usernames that are refused: reserved names in any case, empty, over 30 characters,
    spaces, hyphens, dots, accents and other scripts.
    """
    reserved = st.sampled_from(sorted(RESERVED_USERNAMES)).flatmap(any_case)
    samples = st.sampled_from(["", "x" * 31, "al ice", "al-ice", "al.ice", "alïce", "алиса", "@a"])
    return (reserved | samples | st.text(max_size=35)).filter(lambda n: not is_valid_username(n))
