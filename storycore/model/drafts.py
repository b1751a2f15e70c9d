"""The ``story`` parameter of create, save and publish (docs/api.md#stories, docs/api.md#limits,
docs/api.md).

A draft holds the members that were sent; a member left out is None and keeps its stored value
at save. A member that no story object has is refused (``members``), as is a known member of
the wrong type. ``StoryDraft``'s members are the one list of what a story write takes
(``STORY_WRITE_MEMBERS``): imports, Storify's reader and the OpenAPI schema read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from ..errors import InvalidParameter
from ..input.fields import Members, decode_object
from ..rules.slugs import validate_slug
from ..settings import Limits
from .members import ELEMENT_MEMBERS, STORY_READ_BACK, refuse_unknown

__all__ = [
    "MAX_LABELS",
    "MAX_LABEL_LENGTH",
    "STORY_MEMBERS",
    "STORY_WRITE_MEMBERS",
    "StoryDraft",
    "parse_story",
]

#: How many topics, and hashtags, a story holds, and how long each may be.
MAX_LABELS: Final = 50
MAX_LABEL_LENGTH: Final = 100
_CLEARABLE = ("description", "thumbnail")


@dataclass(frozen=True, slots=True)
class StoryDraft:
    """The members of one ``story`` parameter, checked. None means "not sent".

    ``clear`` names members sent as null, which go back to their defaults (no description,
    a thumbnail derived from the first image).
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


#: The members a story write takes (docs/api.md#stories, docs/api.md#scheduled-publishing), in
#: order: the draft's.
STORY_WRITE_MEMBERS: Final = tuple(f.name for f in fields(StoryDraft) if f.name != "clear")
#: Every member a ``story`` object may carry: what a write takes, and what a read answered,
#: which a client may send back and a write ignores (``members``).
STORY_MEMBERS: Final = frozenset(STORY_WRITE_MEMBERS) | STORY_READ_BACK


def parse_story(raw: object, limits: Limits, field: str = "story") -> StoryDraft:
    """The draft in ``raw`` (an object, or a string of serialized JSON)."""
    data = decode_object(raw, field)
    refuse_unknown(data, STORY_MEMBERS, field, what="a story", hints=STORY_WRITE_MEMBERS)
    for key in STORY_WRITE_MEMBERS:
        if key not in _CLEARABLE and key in data and data[key] is None:
            raise InvalidParameter(f"{field}.{key} must not be null", field=f"{field}.{key}")
    clear = frozenset(key for key in _CLEARABLE if key in data and data[key] is None)
    members = Members(data, field)
    slug = members.string("slug")
    elements = members.array("elements", max_items=limits.elements)
    for index, item in enumerate(elements or ()):
        if isinstance(item, Mapping):
            where = members.field(f"elements.{index}")
            refuse_unknown(item, ELEMENT_MEMBERS, where, what="an element", hints=ELEMENT_MEMBERS)
    return StoryDraft(
        title=members.string("title", max_length=limits.title),
        slug=validate_slug(slug, members.field("slug"), limits.slug) if slug else None,
        description=members.string("description", max_length=limits.description),
        thumbnail=members.url("thumbnail", max_length=limits.address) or None,
        elements=elements,
        private=members.boolean("private"),
        topics=members.strings("topics", max_items=MAX_LABELS, max_length=MAX_LABEL_LENGTH),
        hashtags=members.strings("hashtags", max_items=MAX_LABELS, max_length=MAX_LABEL_LENGTH),
        clear=clear,
    )
