"""Sanitizing of text-element HTML to the allowlist of decisions section 7.

Only text elements hold HTML; titles and descriptions are plain text and never pass here.
"""

from __future__ import annotations

import re
from html import unescape

import nh3

__all__ = ["plain_text", "sanitize_html"]

_TAGS = {"p", "br", "b", "strong", "i", "em", "a", "ul", "ol", "li", "blockquote"}
_ATTRIBUTES = {"a": {"href"}}
_SCHEMES = {"http", "https"}
_TAG = re.compile(r"<[^>]*>")


def sanitize_html(html: str) -> str:
    """``html`` cut down to the allowlist: http(s) links only, no scripts, styles or handlers."""
    return nh3.clean(
        html,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes=_SCHEMES,
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )


def plain_text(html: str) -> str:
    """The words of sanitized HTML, for search and hashtags (tags become spaces)."""
    return unescape(_TAG.sub(" ", html))
