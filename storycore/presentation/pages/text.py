"""Hashtags as links (docs/api.md#the-web-host): in plain text (titles, descriptions) and in the
sanitized HTML of text elements, each ``#word`` that the hashtag rule reads
(``storycore.rules.hashtags``) links to its tag's page. On the search page, the words a search
found are marked too (``<mark>``), as the search's word rule finds them
(``storycore.rules.searchtext.found_words``).

Each answers ``Markup``: every piece of text is escaped here, and the only markup added is the
``<a>`` of a tag, whose address is built from the tag alone, and the ``<mark>`` around a word. In
HTML, only text between tags changes, and never inside a link (a link holds no link).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from html import unescape

from markupsafe import Markup, escape

from ...rules.hashtags import hashtag_spans
from ...rules.searchtext import found_words

__all__ = ["linked_hashtags", "linked_hashtags_html", "marked"]

TagAddress = Callable[[str], str]

# a tag of sanitized HTML: nh3 writes every ``<`` of text as ``&lt;`` and keeps no comment
_TAG = re.compile(r"(<[^>]*>)")
_LINK_OPEN = re.compile(r"<a[\s>]", re.IGNORECASE)
_LINK_CLOSE = re.compile(r"</a\s*>", re.IGNORECASE)


def marked(text: str, words: Collection[str] = ()) -> Markup:
    """``text`` as escaped HTML, each of its words found by a search for the query tokens
    ``words`` in a ``<mark>``."""
    pieces: list[str] = []
    at = 0
    for start, end in found_words(text, words):
        pieces.append(f"{escape(text[at:start])}<mark>{escape(text[start:end])}</mark>")
        at = end
    pieces.append(escape(text[at:]))
    return Markup("".join(pieces))  # noqa: S704 - every piece escaped


def linked_hashtags(text: str, tag_address: TagAddress, words: Collection[str] = ()) -> Markup:
    """``text`` as escaped HTML, each ``#word`` a link to ``tag_address(tag)``, and each word a
    search for the query tokens ``words`` found ``marked``."""
    pieces: list[str] = []
    at = 0
    for start, end, tag in hashtag_spans(text):
        pieces.append(marked(text[at:start], words))
        pieces.append(f'<a class="hashtag" href="{escape(tag_address(tag))}">')
        pieces.append(f"{marked(text[start:end], words)}</a>")
        at = end
    pieces.append(marked(text[at:], words))
    return Markup("".join(pieces))  # noqa: S704 - every piece escaped


def linked_hashtags_html(html: str, tag_address: TagAddress) -> Markup:
    """Sanitized ``html`` with the ``#words`` of its text outside links made links."""
    pieces: list[str] = []
    in_link = 0
    for piece in _TAG.split(html):
        if piece.startswith("<"):
            if _LINK_OPEN.match(piece):
                in_link += 1
            elif _LINK_CLOSE.match(piece):
                in_link = max(0, in_link - 1)
            pieces.append(piece)
        elif in_link or "#" not in piece:
            pieces.append(piece)
        else:
            pieces.append(linked_hashtags(unescape(piece), tag_address))
    return Markup("".join(pieces))  # noqa: S704 - sanitized HTML, escaped text
