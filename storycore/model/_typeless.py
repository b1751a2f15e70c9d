"""Element objects sent without ``type``, as real v1 clients send them
(docs/api.md#calls-and-answers).

The type comes from ``data`` (``data.text``: text, ``data.quote``: quote, ``data.image``: image,
``data.video``: video, ``data.link``: link, looked for in that order); without such data, from
the ``permalink``, as a permalink string's comes: the resolver types the address and makes the
element, and what the object says of itself (its id, ``added_at``, source, attribution,
``posted_at``) is laid over what the resolver made. An object that says nothing of itself but
its permalink is that permalink string: a content resolver fills it in like one. Data that
tells no type is dropped then, as the members outside a kind's shape are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..errors import InvalidParameter
from ..rules.addresses import validate_url
from ..settings import Limits
from .element_kinds import type_of_data
from .resolvers import ElementResolver

__all__ = ["with_type"]

#: What an element may say of itself besides its permalink, id and ``added_at``.
_SAID: Final = ("source", "attribution", "posted_at")
#: The resolver's members that are the element's own, never its content.
_OWN: Final = {"id", "added_at"}


def with_type(
    item: Mapping[str, Any], where: str, limits: Limits, resolver: ElementResolver
) -> tuple[dict[str, Any], bool]:
    """The members of the element object ``item`` (at ``where``) with its ``type``: as sent, as
    its data tells or as its permalink tells; and whether it is that permalink string.

    An object that tells no type comes back without one, for the union to refuse."""
    members = dict(item)
    if members.get("type") is not None:
        return members, False
    kind = type_of_data(members.get("data"))
    if kind is not None:
        return {**members, "type": kind}, False
    if members.get("permalink") is None:
        return members, False
    permalink = validate_url(members["permalink"], f"{where}.permalink", limits.address)
    data = members.pop("data", None)
    if data is not None and not isinstance(data, Mapping):
        raise InvalidParameter(f"{where}.data must be an object", field=f"{where}.data")
    made = resolver.resolve(permalink, element_id="", added_at="")
    told = made.model_dump(exclude=_OWN, exclude_none=True)
    sent = {key: value for key, value in members.items() if value is not None}
    bare = all(members.get(key) is None for key in _SAID)
    return {**told, **sent, "permalink": permalink, "type": made.type}, bare
