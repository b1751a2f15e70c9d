"""Sanitizing of text-element HTML to the allowlist of docs/api.md#elements, with the ``h2``,
``h3`` and ``h4`` headings real v1 clients write (docs/api.md#calls-and-answers).

Only text elements hold HTML; titles and descriptions are plain text and never pass here.
"""

from __future__ import annotations

import re
from html import unescape

import nh3

from .addresses import is_http_url

__all__ = ["plain_text", "sanitize_html"]

_TAGS = {"p", "br", "b", "strong", "i", "em", "a", "ul", "ol", "li", "blockquote", "h2", "h3", "h4"}
# "*" names the attributes allowed on every tag: none (nh3 would keep ``title`` and ``lang``)
_ATTRIBUTES: dict[str, set[str]] = {"a": {"href"}, "*": set()}
_SCHEMES = {"http", "https"}
_TAG = re.compile(r"<[^>]*>")
_HTML_SPACE = " \t\n\f\r"  # what a browser strips from both ends of an href


def _absolute_links_only(tag: str, attribute: str, value: str) -> str | None:
    """An ``href`` survives only as an absolute http(s) address, the rule of every address the
    service stores: nh3 alone passes relative ones (``/x``, ``//host/x``), which would resolve
    against whatever page embeds the story. None drops the attribute, keeping the link's text.
    """
    if attribute != "href":
        return value
    address = value.strip(_HTML_SPACE)
    return address if is_http_url(address) else None


def sanitize_html(html: str) -> str:
    """``html`` cut down to the allowlist: absolute http(s) links only, no other attribute, no
    scripts, styles or handlers."""
    return nh3.clean(
        html,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        attribute_filter=_absolute_links_only,
        url_schemes=_SCHEMES,
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )


def plain_text(html: str) -> str:
    """The words of sanitized HTML, for search and hashtags (tags become spaces)."""
    return unescape(_TAG.sub(" ", html))
