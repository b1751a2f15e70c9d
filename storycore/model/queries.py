"""Lists (docs/api.md#lists-filters-sorting-and-search): which stories a list holds and in which
total order.

A ``StoryQuery`` is what the service asks storage for; every list is ordered by its sort key,
then by story id in the same direction, so pages never repeat or skip an item.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..errors import InvalidParameter
from .records import Status

__all__ = ["SORT_KEYS", "Audience", "SortField", "StoryQuery", "parse_order", "parse_sort"]

#: Whose view a list takes. ``public``: what anyone may see, published stories that are not
#: private. ``owner``: every story, working and private ones too, as its author or an editor
#: sees them (``StoryQuery.status`` may narrow it to one status).
Audience = Literal["public", "owner"]

SortField = Literal[
    "published", "created", "updated", "popularity", "views", "title_key", "featured_at"
]

SORT_KEYS: dict[str, SortField] = {
    "date.published": "published",
    "date.created": "created",
    "date.modified": "updated",
    "stats.popularity": "popularity",
    "stats.views": "views",
    "title": "title_key",
}


@dataclass(frozen=True, slots=True)
class StoryQuery:
    """A list of stories: an audience and filters, then ``sort`` (a record member) and
    ``descending``.

    ``audience`` chooses visibility; ``status`` (owner audience only: a public list holds
    published stories alone, and a status there is a programming error) and the other filters
    narrow it. Stories whose sort value is
    null come last when descending and first when ascending.
    """

    offset: int
    limit: int
    sort: SortField = "published"
    descending: bool = True
    author_id: str | None = None
    audience: Audience = "public"
    status: Status | None = None
    featured: bool = False
    #: only the stories their authors let search engines index (``not_indexed`` false)
    indexed: bool = False
    topic: str | None = None
    tag: str | None = None
    slug: str | None = None
    containing_element: str | None = None

    def __post_init__(self) -> None:
        if self.audience == "public" and self.status is not None:
            raise ValueError("a public list holds published stories alone: it takes no status")


def parse_sort(value: str | None) -> SortField:
    """The record member a ``sort`` parameter names; the default is ``date.published``."""
    if value is None or value == "":
        return "published"
    try:
        return SORT_KEYS[value]
    except KeyError:
        allowed = ", ".join(SORT_KEYS)
        raise InvalidParameter(f"sort must be one of {allowed}", field="sort") from None


def parse_order(value: str | None) -> bool:
    """Whether an ``order`` parameter asks for descending order (the default)."""
    if value is None or value == "" or value.lower() == "desc":
        return True
    if value.lower() == "asc":
        return False
    raise InvalidParameter("order must be asc or desc", field="order")
