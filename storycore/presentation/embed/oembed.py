"""The oEmbed 1.0 answer of a story: a ``rich`` object whose ``html`` loads the embed script,
as JSON data or as oEmbed's XML document (section 2.3.4 of the oEmbed specification)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any
from xml.etree import ElementTree

__all__ = ["DEFAULT_WIDTH", "embed_code", "oembed", "oembed_xml"]

DEFAULT_WIDTH = 640
DEFAULT_HEIGHT = 800
#: The members of a thumbnail in an oEmbed object.
_THUMBNAIL = ("thumbnail_url", "thumbnail_width", "thumbnail_height")


def embed_code(script_url: str) -> str:
    """The code that shows a story inside any page: the element that loads its embed script
    at ``script_url``. The story page and the editor show it to copy; oEmbed answers it."""
    return f'<script src="{escape(script_url)}"></script>'


def oembed(
    *,
    title: str,
    author_name: str,
    author_url: str,
    provider_name: str,
    provider_url: str,
    script_url: str,
    maxwidth: int | None,
    maxheight: int | None,
    thumbnails: Sequence[tuple[str, int, int]] = (),
) -> dict[str, Any]:
    """The oEmbed object; ``maxwidth`` and ``maxheight`` bound the announced size. The
    provider is the site (``provider_name``, its name; ``provider_url``, its address).
    ``thumbnails`` are the kept copies of the story's picture (address, width, height): the
    widest within ``maxwidth`` and ``maxheight`` (the narrowest when none is) is its
    ``thumbnail_url``, with its size; a story without one has none (oEmbed asks a thumbnail's
    size, which storycore knows of its own copies only)."""
    width = min(DEFAULT_WIDTH, maxwidth) if maxwidth else DEFAULT_WIDTH
    height = min(DEFAULT_HEIGHT, maxheight) if maxheight else DEFAULT_HEIGHT
    thumbnail = _fitting(thumbnails, maxwidth, maxheight)
    return {
        "version": "1.0",
        "type": "rich",
        "provider_name": provider_name,
        "provider_url": provider_url,
        "title": title,
        "author_name": author_name,
        "author_url": author_url,
        "html": embed_code(script_url),
        "width": width,
        "height": height,
        "cache_age": 3600,
        **({} if thumbnail is None else dict(zip(_THUMBNAIL, thumbnail, strict=True))),
    }


def _fitting(
    thumbnails: Sequence[tuple[str, int, int]], maxwidth: int | None, maxheight: int | None
) -> tuple[str, int, int] | None:
    """The widest of ``thumbnails`` within the bounds, else the narrowest; None for none."""
    if not thumbnails:
        return None
    by_width = sorted(thumbnails, key=lambda found: found[1])
    fitting = [
        found
        for found in by_width
        if (not maxwidth or found[1] <= maxwidth) and (not maxheight or found[2] <= maxheight)
    ]
    return fitting[-1] if fitting else by_width[0]


def oembed_xml(answer: dict[str, Any]) -> bytes:
    """``answer`` as oEmbed's XML: an ``oembed`` element holding one element a member."""
    root = ElementTree.Element("oembed")
    for key, value in answer.items():
        ElementTree.SubElement(root, key).text = str(value)
    document: bytes = ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)
    return document
