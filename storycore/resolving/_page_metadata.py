"""Reading what a page and an oEmbed answer say (docs/resolver.md), with selectolax's
HTML5 parser (lexbor): a page's OpenGraph, Twitter-card and plain metadata, its oEmbed
discovery link, an oEmbed answer's members, and provider text as plain text.

Nothing here judges the values: ``storycore.resolving._resolved`` decides what becomes which element
member, under the element rules.
"""

from __future__ import annotations

import codecs
import contextlib
import re
from collections.abc import Mapping
from typing import Any, Final
from urllib.parse import urljoin

import orjson

from ..extras import imported_from
from ._found import Found
from .fetching import Fetched

with imported_from("online"):
    from selectolax.lexbor import LexborHTMLParser, LexborNode

__all__ = ["plain_text", "read_oembed", "read_page"]

_CHARSET = re.compile(r"charset\s*=\s*[\"']?([A-Za-z0-9._:-]+)", re.IGNORECASE)
#: Elements after which text breaks onto a new line.
_BLOCKS: Final = "p,div,li,blockquote,h1,h2,h3,h4,h5,h6,tr,pre"
_OEMBED_JSON: Final = "application/json+oembed"


def read_page(page: Fetched) -> tuple[Found, str]:
    """The metadata of an HTML page, and the address of its JSON oEmbed (``""`` if none)."""
    tree = LexborHTMLParser(_decoded(page.body, page.content_type))
    meta: dict[str, str] = {}
    for node in tree.css("meta"):
        attributes = node.attributes
        key = attributes.get("property") or attributes.get("name") or attributes.get("itemprop")
        content = attributes.get("content")
        if key and content:
            meta.setdefault(key.strip().lower(), content.strip())
    title = tree.css_first("title")

    def first(*keys: str) -> str:
        return next((meta[key] for key in keys if meta.get(key)), "")

    def address(*keys: str) -> str:
        found = first(*keys)
        return urljoin(page.url, found) if found else ""

    author = first("article:author", "author")
    found = Found(
        title=first("og:title", "twitter:title") or (title.text() if title else ""),
        description=first("og:description", "twitter:description", "description"),
        author_name="" if author.startswith(("http://", "https://")) else author,
        author_username=first("twitter:creator").lstrip("@"),
        author_url=urljoin(page.url, author) if author.startswith(("http://", "https://")) else "",
        posted_at=first("article:published_time", "og:article:published_time", "datepublished"),
        thumbnail=address(
            "og:image:secure_url", "og:image:url", "og:image", "twitter:image", "twitter:image:src"
        ),
    )
    return found, _oembed_link(tree, page.url)


def _oembed_link(tree: LexborHTMLParser, base: str) -> str:
    for node in tree.css("link[href]"):
        attributes = node.attributes
        rel = (attributes.get("rel") or "").lower().split()
        kind = (attributes.get("type") or "").strip().lower()
        href = attributes.get("href")
        if "alternate" in rel and kind == _OEMBED_JSON and href:
            return urljoin(base, href.strip())
    return ""


def read_oembed(answer: Fetched, base: str) -> Found | None:
    """The members of a JSON oEmbed answer (addresses made absolute against ``base``), or None
    when it is not one. Its ``html`` is read for a post's words only, and kept nowhere."""
    if not answer.complete:
        return None
    try:
        data = orjson.loads(answer.body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None

    def text(key: str) -> str:
        value = data.get(key)
        return value.strip() if isinstance(value, str) else ""

    def address(key: str) -> str:
        value = text(key)
        return urljoin(base, value) if value else ""

    kind = text("type").lower()
    photo = kind == "photo"
    return Found(
        kind=kind,
        title=text("title"),
        text=_post_words(text("html")),
        author_name=text("author_name"),
        author_url=address("author_url"),
        thumbnail=address("thumbnail_url"),
        media=address("url") if photo else "",
        width=_whole(data, "width") if photo else 0,
        height=_whole(data, "height") if photo else 0,
    )


def _whole(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _post_words(html: str) -> str:
    """The words of a post in an oEmbed ``html``: its paragraphs' text, by the convention of
    the networks that quote a post as ``<blockquote><p>words</p>&mdash; author ...``."""
    if not html:
        return ""
    tree = LexborHTMLParser(html)
    paragraphs = tree.css("blockquote p") or tree.css("p")
    return "\n".join(_text_of(paragraph) for paragraph in paragraphs).strip()


def plain_text(value: str) -> str:
    """``value`` with its markup taken out: tags dropped (scripts and styles with their
    content), entities decoded, line breaks after breaks and blocks."""
    if "<" not in value and "&" not in value:
        return value
    tree = LexborHTMLParser(value)
    return _text_of(tree.body) if tree.body is not None else ""


def _text_of(node: LexborNode) -> str:
    node.strip_tags(["script", "style", "template"])  # lexbor: removes these with content
    for line_break in node.css("br"):
        line_break.replace_with("\n")
    for block in node.css(_BLOCKS):
        block.insert_after("\n")
    return node.text(separator="")


def _decoded(body: bytes, content_type: str) -> str:
    """``body`` as text, in the ``charset`` its ``Content-Type`` names (UTF-8 otherwise)."""
    match = _CHARSET.search(content_type)
    encoding = "utf-8"
    if match:
        with contextlib.suppress(LookupError):  # a charset Python does not know: UTF-8
            encoding = codecs.lookup(match.group(1)).name
    return body.decode(encoding, errors="replace")
