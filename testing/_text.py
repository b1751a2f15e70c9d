"""Strategies of text: plain text, titles, hostile text, the HTML of text elements."""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Final

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from storycore.settings import Limits

__all__ = [
    "HOSTILE_FRAGMENTS",
    "hostile_text",
    "long_text",
    "plain_text",
    "tag_soup",
    "text_html",
    "titles",
]

LIMITS: Final = Limits()
_WORD_CHARS = string.ascii_letters + string.digits + "_"


def plain_text(*, min_size: int = 0, max_size: int = 80) -> SearchStrategy[str]:
    """Any Unicode text the service accepts as plain text (titles, descriptions, names):
    letters of every script, marks, symbols and emoji, without control characters or lone
    surrogates.
    """
    return st.text(
        st.characters(exclude_categories=("Cc", "Cs")), min_size=min_size, max_size=max_size
    )


def titles(*, max_size: int = LIMITS.title) -> SearchStrategy[str]:
    """Story titles within the limit (200 characters): realistic ones, ones whose derived slug
    collides with another's, and arbitrary Unicode, possibly empty.
    """
    samples = [
        "A walk by the harbour",
        "a walk by the HARBOUR!",
        "Café au lait, s'il vous plaît",
        "Ünïcödé",
        "日本語のタイトル",
        "Notes from a #sunday morning",
        "2026",
        "",
        "   ",
        "x" * max_size,
    ]
    return st.sampled_from([t for t in samples if len(t) <= max_size]) | plain_text(
        max_size=min(max_size, 60)
    )


HOSTILE_FRAGMENTS: Final[tuple[str, ...]] = (
    "<script>alert(1)</script>",
    "</script><script>alert(1)</script>",
    "<!--",
    "-->",
    '<img src=x onerror="alert(1)">',
    '<a href="javascript:alert(1)">x</a>',
    "<svg/onload=alert(1)>",
    "javascript:alert(1)",
    "\u2028",
    "\u2029",
    "\u202e",
    "\ufeff",
    "\u200b",
    "'; DROP TABLE stories; --",
    '" OR 1=1 --',
    'NEAR(a b) "unterminated * AND OR NOT',
    "{{7*7}}${7*7}",
    "../../etc/passwd",
    "%00%2e%2e",
    "\\u0000",
    "e\u0301",
    "\U0001f600",
    "İß",
)
"""Markup, script breakouts, line and direction controls, SQL and full-text syntax."""

_CONTROL_FRAGMENTS = ("\x00", "\x1b[31m", "\x7f", "\x85", "\x08", "\r\n")


def long_text(*, around: Sequence[int] = (200, 2000, 2048, 20000)) -> SearchStrategy[str]:
    """Strings of a length at, just under or just over each of the limits ``around``."""
    lengths = sorted({max(n + d, 0) for n in around for d in (-1, 0, 1)})
    return st.tuples(st.sampled_from(lengths), st.sampled_from("aé#<")).map(
        lambda pair: pair[1] * pair[0]
    )


def hostile_text(
    *, max_size: int = 12, control_characters: bool = True, long: bool = True
) -> SearchStrategy[str]:
    """Text meant to break things: markup and script breakouts, U+2028/U+2029, direction
    overrides, SQL and full-text syntax, combining marks, emoji, and (unless narrowed off)
    control characters and strings at the length limits. Mixed with ordinary text; up to
    ``max_size`` fragments.
    """
    fragments = list(HOSTILE_FRAGMENTS)
    if control_characters:
        fragments += _CONTROL_FRAGMENTS
    pieces = st.sampled_from(fragments) | plain_text(max_size=10)
    if control_characters:
        pieces |= st.text(max_size=5)
    mixed = st.lists(pieces, min_size=1, max_size=max_size).map("".join)
    return mixed | long_text() if long else mixed


def text_html(*, max_size: int = 6) -> SearchStrategy[str]:
    """The HTML of a text element: allowed markup (``p br b strong i em a ul ol li
    blockquote``) around plain text and ``#hashtags``, with hostile markup mixed in, which
    the service sanitizes away.
    """
    words = plain_text(min_size=1, max_size=20).map(
        lambda w: w.replace("<", " ").replace(">", " ").replace("&", " ")
    )
    hashtag = st.text(_WORD_CHARS, min_size=1, max_size=12).map(lambda w: f" #{w} ")
    allowed = st.one_of(
        words.map(lambda w: f"<p>{w}</p>"),
        words.map(lambda w: f"<b>{w}</b>"),
        words.map(lambda w: f"<em>{w}</em>"),
        words.map(lambda w: f'<a href="https://example.org/">{w}</a>'),
        words.map(lambda w: f"<ul><li>{w}</li></ul>"),
        words.map(lambda w: f"<blockquote>{w}</blockquote>"),
        st.just("<br>"),
        hashtag,
        words,
    )
    hostile = hostile_text(max_size=2, control_characters=False, long=False)
    return st.lists(allowed | hostile, max_size=max_size).map("".join)


_SOUP_PIECES = (
    "<p>", "</p>", "<b>", "</b>", '<a href="', '">', "</a>", "<script>", "</script>",
    "<img src=x onerror=alert(1)>", "<style>", "javascript:", "https://a.example/",
    "data:text/html,", ' onclick="x()"', "<!--", "-->", "<", ">", '"', "'", "&amp;",
    "&lt;", "text", " ", "<ul><li>", "</li></ul>", "<br>", "<iframe src=", "<svg>",
)  # fmt: skip


def tag_soup(*, max_size: int = 25) -> SearchStrategy[str]:
    """Broken HTML: up to ``max_size`` pieces joined at random (allowed and forbidden tags,
    opened and closed anywhere, attribute quotes, event handlers, ``javascript:`` and
    ``data:`` addresses, entities, comments) and a few arbitrary characters, so that tags,
    attributes and schemes form and break in every way. For a sanitizer to survive.
    """
    return st.lists(st.sampled_from(_SOUP_PIECES) | st.text(max_size=4), max_size=max_size).map(
        "".join
    )
