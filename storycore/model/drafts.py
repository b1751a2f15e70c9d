"""The ``story`` parameter of create, save and publish (docs/api.md#stories, docs/api.md#limits,
docs/api.md).

A draft holds the members that were sent; a member left out is None and keeps its stored value
at save. A member that no story object has is refused (``members``), as is a known member of
the wrong type. ``STORY_WRITE`` declares what a story write takes, member by member: the draft
reads it, and so do imports, Storify's reader and the OpenAPI schema (``STORY_WRITE_MEMBERS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Final

from ..errors import InvalidParameter
from ..input.declared import Address, Declaration, Elements, Flag, Labels, Slug, Text, read_declared
from ..input.fields import Members, decode_object
from ..settings import Limits
from .members import ELEMENT_MEMBERS, STORY_READ_BACK, refuse_unknown

__all__ = ["STORY_MEMBERS", "STORY_WRITE", "STORY_WRITE_MEMBERS", "StoryDraft", "parse_story"]

#: The members a story write takes (docs/api.md#stories, docs/api.md#scheduled-publishing), in
#: order. Those sent as null go back to their defaults (no description, a thumbnail derived from
#: the first image): the nullable ones; any other sent as null is refused.
STORY_WRITE: Final[Declaration] = {
    "title": Text(attrgetter("title")),
    "slug": Slug(),
    "description": Text(attrgetter("description"), nullable=True),
    "thumbnail": Address(empty_is_unsent=True),
    "elements": Elements(
        attrgetter("elements"),
        "permalinks of external items (strings, protocol-relative ones taken as https) or "
        "element objects, with or without `type`",
    ),
    "private": Flag(),
    "topics": Labels(),
    "hashtags": Labels(
        "hashtags, with or without `#` (`meta.hashtags` shows them lowercase, without it)"
    ),
}
#: The names of ``STORY_WRITE``, in order.
STORY_WRITE_MEMBERS: Final = tuple(STORY_WRITE)
#: Every member a ``story`` object may carry: what a write takes, and what a read answered,
#: which a client may send back and a write ignores (``members``).
STORY_MEMBERS: Final = frozenset(STORY_WRITE_MEMBERS) | STORY_READ_BACK
_CLEARABLE: Final = tuple(name for name, kind in STORY_WRITE.items() if kind.nullable)


@dataclass(frozen=True, slots=True)
class StoryDraft:
    """The members of one ``story`` parameter, checked: those of ``STORY_WRITE``. None means
    "not sent".

    ``clear`` names members sent as null, which go back to their defaults.
    """

    title: str | None = None
    slug: str | None = None
    description: str | None = None
    thumbnail: str | None = None
    elements: list[Any] | None = None
    private: bool | None = None
    topics: list[str] | None = None
    hashtags: list[str] | None = None
    clear: frozenset[str] = frozenset()

    def record_members(self) -> dict[str, Any]:
        """The story record's members this draft sets, by name: those sent, but ``elements``
        (a write normalizes them first) and ``clear`` (which a caller applies)."""
        return {
            name: value
            for name in STORY_WRITE_MEMBERS
            if name != "elements" and (value := getattr(self, name)) is not None
        }


def parse_story(raw: object, limits: Limits, field: str = "story") -> StoryDraft:
    """The draft in ``raw`` (an object, or a string of serialized JSON)."""
    data = decode_object(raw, field)
    refuse_unknown(data, STORY_MEMBERS, field, what="a story", hints=STORY_WRITE_MEMBERS)
    for key in STORY_WRITE_MEMBERS:
        if key not in _CLEARABLE and key in data and data[key] is None:
            raise InvalidParameter(f"{field}.{key} must not be null", field=f"{field}.{key}")
    clear = frozenset(key for key in _CLEARABLE if key in data and data[key] is None)
    members = Members(data, field)
    read = read_declared(STORY_WRITE, members, limits)
    for index, item in enumerate(read["elements"] or ()):
        # the common case first: a JSON object whose members are all known
        if (type(item) is dict or isinstance(item, Mapping)) and not item.keys() <= ELEMENT_MEMBERS:
            where = members.field(f"elements.{index}")
            refuse_unknown(item, ELEMENT_MEMBERS, where, what="an element", hints=ELEMENT_MEMBERS)
    return StoryDraft(**read, clear=clear)
