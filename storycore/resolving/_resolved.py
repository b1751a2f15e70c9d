"""What a permalink's metadata becomes in its element (docs/resolver.md).

- A post (``quote``): its words as plain text in ``data.quote.text`` (the oEmbed answer's, else
  the page's description), its author's name, username and address, and as avatar the page's
  image (the networks set ``og:image`` to the author's avatar for a post), in ``attribution``;
  ``posted_at``.
- A ``link``: ``data.link`` title, description and thumbnail. An oEmbed ``photo`` makes it an
  ``image`` (``src``, ``caption`` from the title, ``width``, ``height``); an oEmbed ``video`` a
  ``video`` (``src`` its permalink, ``title``, ``thumbnail``).
- A ``video``: ``data.video`` title and thumbnail; its ``src`` stays.
- Any of them: the author, when known, in ``attribution``, and ``posted_at``.

Provider text is text: markup is taken out, white space collapsed, control characters dropped,
and it is cut to its member's limit. An address that breaks the address rule is left out. Then
the element is validated as a client's would be (``element_kinds``); should that still fail, the
element stays as it was. An oEmbed ``html`` never reaches an element.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import TypeAdapter, ValidationError

from ..input.member_types import MAX_SIZE, SHORT_TEXT, client_context
from ..model.element_kinds import AnyElement, Element, VideoElement
from ..rules.addresses import is_http_url
from ..rules.text import CONTROL_CHARACTERS
from ..rules.timestamps import parse_timestamp
from ..settings import Limits
from ._found import Found
from ._page_metadata import plain_text

__all__ = ["RESOLVED_TYPES", "filled"]

#: The element types whose permalink is fetched: an image's is the image itself.
RESOLVED_TYPES: Final = frozenset({"quote", "link", "video"})

_ELEMENT: Final = TypeAdapter[Element](Element)


def filled(base: AnyElement, found: Found, limits: Limits) -> AnyElement:
    """``base`` with what ``found`` says stored in its members; ``id`` and ``added_at`` kept."""
    if base.type not in RESOLVED_TYPES or not found:
        return base
    document: dict[str, Any] = base.model_dump(exclude={"id", "added_at"}, exclude_none=True)
    title = _short(found.title)
    thumbnail = _address(found.thumbnail, limits)
    author = {
        "name": _short(found.author_name),
        "username": _short(found.author_username),
        "href": _address(found.author_url, limits),
    }
    media = _address(found.media, limits)
    if base.type == "quote":
        author["thumbnail"] = thumbnail
        words = _long(found.text, limits) or _long(found.description, limits)
        _merge(document, "data", {"quote": {"text": words}})
    elif base.type == "link" and found.kind == "photo" and media:
        document["type"] = "image"
        size = {"width": _size(found.width), "height": _size(found.height)}
        document["data"] = {"image": {"src": media, "caption": title, **size}}
    elif base.type == "video" or found.kind == "video":
        source = base.data["video"]["src"] if isinstance(base, VideoElement) else None
        document["type"] = "video"
        video = {"src": source or base.permalink, "title": title, "thumbnail": thumbnail}
        document["data"] = {"video": {k: v for k, v in video.items() if v}}
    else:
        link = {"title": title, "description": _short(found.description), "thumbnail": thumbnail}
        _merge(document, "data", {"link": link})
    if any(author.values()):
        _merge(document, "attribution", author)
    posted_at = parse_timestamp(found.posted_at) if found.posted_at else None
    if posted_at:
        document["posted_at"] = posted_at
    try:
        element: AnyElement = _ELEMENT.validate_python(document, context=client_context(limits))
    except ValidationError:
        return base
    element.id, element.added_at = base.id, base.added_at
    return element


def _merge(document: dict[str, Any], key: str, found: dict[str, Any]) -> None:
    """``document[key]`` with the known values of ``found`` over its own, a level deep."""
    merged = dict(document.get(key) or {})
    for name, value in found.items():
        if isinstance(value, dict):
            merged[name] = {**merged.get(name, {}), **{k: v for k, v in value.items() if v}}
        elif value:
            merged[name] = value
    document[key] = merged


def _short(value: str) -> str:
    """Provider text on one line, within a short member's limit."""
    return " ".join(CONTROL_CHARACTERS.sub("", plain_text(value)).split())[:SHORT_TEXT]


def _long(value: str, limits: Limits) -> str:
    """Provider text with its line breaks, within a post's limit."""
    lines = (
        " ".join(line.split())
        for line in CONTROL_CHARACTERS.sub("", plain_text(value)).splitlines()
    )
    return "\n".join(line for line in lines if line)[: limits.text_element]


def _address(value: str, limits: Limits) -> str:
    """``value`` if it keeps the address rule, else ``""``."""
    return value if len(value) <= limits.address and is_http_url(value) else ""


def _size(value: int) -> int:
    return value if 0 <= value <= MAX_SIZE else 0
