"""Normalizing the ``elements`` a client sends (docs/api.md#elements).

Each item is a permalink string (typed by the resolver) or an element object. Normalizing an
element object is validating it as ``Element``, the union of the kinds of ``element_kinds``:
addresses are http(s), text HTML is sanitized, ``data`` keeps the members of its type, and the
first fault is a 400 naming its dotted field. Ids are kept when sent back and given by the
service otherwise. An object sent without ``type`` takes it from its data or its permalink
(docs/api.md#calls-and-answers, ``_typeless``).

With ``fetch``, a resolver that fetches content (``ContentResolver``, docs/resolver.md) fills
in every permalink string and every element sent with only its permalink, all of them together,
once the whole write has passed its checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from pydantic import TypeAdapter, ValidationError

from ..errors import InvalidParameter
from ..input.fields import Members
from ..input.member_types import client_context, fault
from ..rules.addresses import validate_url
from ..rules.ids import new_element_id
from ..settings import Limits
from ._typeless import with_type
from .element_kinds import ELEMENT_TYPES, Element
from .resolvers import ContentResolver, ElementResolver

__all__ = ["normalize_elements"]

_ELEMENT: Final = TypeAdapter[Element](Element)


def normalize_elements(
    items: Sequence[Any],
    *,
    path: str,
    limits: Limits,
    resolver: ElementResolver,
    previous: Sequence[Element],
    now: str,
    fetch: bool = False,
) -> list[Element]:
    """The stored form of ``items``; ``previous`` are the story's elements before this write.

    An element sent back with the id of a previous one keeps that id and its ``added_at``.
    """
    added_before = {element.id: element.added_at for element in previous}
    taken: set[str] = set()
    result: list[Element] = []
    unresolved: list[int] = []  # where the elements to fill in are
    for index, item in enumerate(items):
        where = f"{path}.{index}"
        if isinstance(item, str):
            permalink = validate_url(item, where, limits.address)
            element = resolver.resolve(permalink, element_id="", added_at=now)
            unresolved.append(index)
        elif isinstance(item, Mapping):
            element, bare = _element_object(item, where, limits, resolver)
            if bare or _only_permalink(element):
                unresolved.append(index)
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
        element.added_at = added_before.get(element.id, element.added_at or now)
        taken.add(element.id)
        result.append(element)
    if fetch and unresolved and isinstance(resolver, ContentResolver):
        filled = resolver.fill([result[index] for index in unresolved])
        for index, element in zip(unresolved, filled, strict=True):
            result[index] = element
    return result


def _only_permalink(element: Element) -> bool:
    """Whether a post or link element says nothing of itself but its permalink."""
    if element.type not in ("quote", "link") or element.permalink is None:
        return False
    data: Any = element.data  # {"quote": {...}} or {"link": {...}}
    said = [value for member in data.values() for value in member.values()]
    unsaid = element.source is None and element.attribution is None and element.posted_at is None
    return unsaid and not any(said)


def _fresh_id(taken: set[str], previous: Mapping[str, str]) -> str:
    while True:
        candidate = new_element_id()
        if candidate not in taken and candidate not in previous:
            return candidate


def _element_object(
    item: Mapping[str, Any], where: str, limits: Limits, resolver: ElementResolver
) -> tuple[Element, bool]:
    """``item`` validated as the element of its type, sent or told (``_typeless``), and whether
    it stands for its permalink string."""
    members, bare = with_type(item, where, limits, resolver)
    try:
        return _ELEMENT.validate_python(members, context=client_context(limits)), bare
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        if error["type"].startswith("union_tag"):  # no type, or an unknown one
            raise _type_fault(Members(item, where)) from None
        raise fault({**error, "loc": error["loc"][1:]}, where) from None  # loc[0] is the type


def _type_fault(members: Members) -> InvalidParameter:
    members.string("type", required=True)  # raises when missing or not a string
    field = members.field("type")
    return InvalidParameter(f"{field} must be one of {', '.join(ELEMENT_TYPES)}", field=field)
