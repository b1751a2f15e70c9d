"""Normalizing the ``elements`` a client sends (decisions section 7).

Each item is a permalink string (typed by the resolver) or an element object, checked member by
member: addresses are http(s), text HTML is sanitized to the allowlist, ``data`` is reduced to
the members of its type. Ids are kept when sent back and given by the service otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .addresses import validate_url
from .errors import InvalidParameter
from .fields import Members
from .ids import new_element_id
from .records import ELEMENT_TYPES, Attribution, Element, Source
from .resolvers import ElementResolver
from .sanitize import sanitize_html
from .settings import Limits

__all__ = ["normalize_elements"]

_ELEMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # with fullmatch: ``$`` takes a final newline
_SHORT_TEXT = 2000


def normalize_elements(
    items: Sequence[Any],
    *,
    path: str,
    limits: Limits,
    resolver: ElementResolver,
    previous: Sequence[Element],
    now: str,
) -> list[Element]:
    """The stored form of ``items``; ``previous`` are the story's elements before this write.

    An element sent back with the id of a previous one keeps that id and its ``added_at``.
    """
    added_before = {element.id: element.added_at for element in previous}
    taken: set[str] = set()
    result: list[Element] = []
    for index, item in enumerate(items):
        where = f"{path}.{index}"
        if isinstance(item, str):
            permalink = validate_url(item, where, limits.address)
            element = resolver.resolve(permalink, element_id="", added_at=now)
        elif isinstance(item, Mapping):
            element = _element_object(Members(item, where), limits, now)
        else:
            raise InvalidParameter(
                f"{where} must be a permalink string or an element object", field=where
            )
        if element.id in taken:
            raise InvalidParameter(
                f"{where}.id repeats an earlier element's id", field=f"{where}.id"
            )
        if not element.id:
            element.id = _fresh_id(taken, added_before)
        element.added_at = added_before.get(element.id, element.added_at)
        taken.add(element.id)
        result.append(element)
    return result


def _fresh_id(taken: set[str], previous: Mapping[str, str]) -> str:
    while True:
        candidate = new_element_id()
        if candidate not in taken and candidate not in previous:
            return candidate


def _element_object(members: Members, limits: Limits, now: str) -> Element:
    kind = members.string("type", required=True)
    if kind not in ELEMENT_TYPES:
        raise InvalidParameter(
            f"{members.field('type')} must be one of {', '.join(ELEMENT_TYPES)}",
            field=members.field("type"),
        )
    element_id = members.string("id") or ""
    if element_id and not _ELEMENT_ID.fullmatch(element_id):
        raise InvalidParameter(
            f"{members.field('id')} must be 1 to 32 letters, digits, - or _",
            field=members.field("id"),
        )
    permalink = members.url(
        "permalink", max_length=limits.address, required=kind in ("quote", "link")
    )
    return Element(
        id=element_id,
        type=kind,
        permalink=permalink or None,
        source=_source(members.object("source"), limits),
        attribution=_attribution(members.object("attribution"), limits),
        data=_data(kind, members, limits),
        posted_at=members.timestamp("posted_at"),
        added_at=members.timestamp("added_at") or now,
    )


def _source(members: Members | None, limits: Limits) -> Source | None:
    if members is None:
        return None
    return Source(
        name=members.string("name", max_length=_SHORT_TEXT) or "",
        href=members.url("href", max_length=limits.address) or "",
        username=members.string("username", max_length=_SHORT_TEXT) or "",
        userid=members.string("userid", max_length=_SHORT_TEXT) or "",
    )


def _attribution(members: Members | None, limits: Limits) -> Attribution | None:
    if members is None:
        return None
    return Attribution(
        name=members.string("name", max_length=_SHORT_TEXT) or "",
        username=members.string("username", max_length=_SHORT_TEXT) or "",
        href=members.url("href", max_length=limits.address) or "",
        thumbnail=members.url("thumbnail", max_length=limits.address) or "",
    )


def _data(kind: str, members: Members, limits: Limits) -> dict[str, Any]:
    data = members.object("data") or Members({}, members.field("data"))
    if kind == "text":
        text = data.string("text", max_length=limits.text_element) or ""
        return {"text": sanitize_html(text)}
    if kind == "other":
        return {}
    inner = data.object(kind) or Members({}, data.field(kind))
    url = limits.address
    if kind == "quote":
        return {"quote": {"text": inner.string("text", max_length=limits.text_element) or ""}}
    if kind == "link":
        return {
            "link": {
                "title": inner.string("title", max_length=_SHORT_TEXT) or "",
                "description": inner.string("description", max_length=_SHORT_TEXT) or "",
                "thumbnail": inner.url("thumbnail", max_length=url) or "",
            }
        }
    if kind == "image":
        return {
            "image": {
                "src": inner.url("src", max_length=url, required=True),
                "caption": inner.string("caption", max_length=_SHORT_TEXT) or "",
                "width": inner.integer("width", maximum=100_000) or 0,
                "height": inner.integer("height", maximum=100_000) or 0,
            }
        }
    return {
        "video": {
            "src": inner.url("src", max_length=url, required=True),
            "title": inner.string("title", max_length=_SHORT_TEXT) or "",
            "thumbnail": inner.url("thumbnail", max_length=url) or "",
        }
    }
