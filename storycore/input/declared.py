"""The members a write takes, declared once (docs/api.md#stories, docs/api.md#limits): a write's
declaration maps each member's name to its kind, in the order the interface lists them.

A kind reads a client's value (``read``, through ``Members``, so a fault names its field), and
the OpenAPI document states each kind as a JSON Schema (``storycore/http/_write_schemas.py``):
the reader and the schema are made from the same declaration. A ``nullable`` kind's schema takes
``null``, which the write reads as "not sent" or as "back to the default"; the others' refuse it.

Element objects are declared by their classes (``storycore.model.element_kinds``), whose members
are typed with ``member_types``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

from ..rules.slugs import validate_slug
from ..settings import Limits
from .fields import Members

__all__ = [
    "MAX_LABELS",
    "MAX_LABEL_LENGTH",
    "Address",
    "Declaration",
    "Elements",
    "Flag",
    "Kind",
    "Labels",
    "Slug",
    "Text",
    "read_declared",
]

#: How many topics, and hashtags, a story holds, and how long each may be.
MAX_LABELS: Final = 50
MAX_LABEL_LENGTH: Final = 100


class Kind(Protocol):
    """What a member is: how it is read."""

    @property
    def nullable(self) -> bool:
        """Whether ``null`` is taken (the write says what it means)."""

    def read(self, members: Members, key: str, limits: Limits) -> Any:
        """The value of ``key`` in ``members``, checked; None when not sent."""


#: A write's members: each name with its kind, in order.
Declaration = Mapping[str, Kind]


@dataclass(frozen=True, slots=True)
class Text:
    """Text without control characters, up to ``limit`` characters received."""

    limit: Callable[[Limits], int]
    nullable: bool = False

    def read(self, members: Members, key: str, limits: Limits) -> str | None:
        return members.string(key, max_length=self.limit(limits))


@dataclass(frozen=True, slots=True)
class Address:
    """An http(s) address (a protocol-relative one taken as https), or ``""`` for none: kept
    as ``""``, or read as not sent when ``empty_is_unsent``. ``null`` is taken."""

    empty_is_unsent: bool = False
    nullable: bool = True

    def read(self, members: Members, key: str, limits: Limits) -> str | None:
        found = members.url(key, max_length=limits.address)
        return (found or None) if self.empty_is_unsent else found


@dataclass(frozen=True, slots=True)
class Slug:
    """A slug (docs/api.md#slugs), or ``""``: not sent."""

    nullable: bool = False

    def read(self, members: Members, key: str, limits: Limits) -> str | None:
        slug = members.string(key)
        return validate_slug(slug, members.field(key), limits.slug) if slug else None


@dataclass(frozen=True, slots=True)
class Flag:
    """JSON ``true`` or ``false``."""

    nullable: bool = False

    def read(self, members: Members, key: str, limits: Limits) -> bool | None:
        return members.boolean(key)


@dataclass(frozen=True, slots=True)
class Labels:
    """Up to ``MAX_LABELS`` non-blank texts of up to ``MAX_LABEL_LENGTH`` characters each,
    trimmed; ``description`` says more of them."""

    description: str = ""
    nullable: bool = False

    def read(self, members: Members, key: str, limits: Limits) -> list[str] | None:
        return members.strings(key, max_items=MAX_LABELS, max_length=MAX_LABEL_LENGTH)


@dataclass(frozen=True, slots=True)
class Elements:
    """A story's elements: a JSON array of up to ``limit`` permalinks and element objects,
    which the write normalizes further (``storycore.model.elements``); ``description`` says
    what they are."""

    limit: Callable[[Limits], int]
    description: str = ""
    nullable: bool = False

    def read(self, members: Members, key: str, limits: Limits) -> list[Any] | None:
        return members.array(key, max_items=self.limit(limits))


def read_declared(declaration: Declaration, members: Members, limits: Limits) -> dict[str, Any]:
    """Every declared member of ``members`` read by its kind, in order (None: not sent)."""
    return {key: kind.read(members, key, limits) for key, kind in declaration.items()}
