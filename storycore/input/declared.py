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
from urllib.parse import urlsplit

from ..errors import InvalidParameter
from ..rules.addresses import validate_url
from ..rules.hosts import canonical_host, canonical_hosts, is_plainly_private
from ..rules.slugs import validate_slug
from ..rules.text import check_text
from ..settings import Limits
from .fields import Members

__all__ = [
    "MAX_LABELS",
    "MAX_LABEL_LENGTH",
    "Address",
    "Declaration",
    "Elements",
    "EventTypes",
    "Flag",
    "Kind",
    "Labels",
    "Slug",
    "Text",
    "WebhookAddress",
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


@dataclass(frozen=True, slots=True)
class WebhookAddress:
    """An address a webhook may be registered for (docs/webhooks.md): an http(s) address (a
    protocol-relative one taken as https) without credentials, that is not plainly private: an
    IP address must be public unicast, and ``localhost`` is refused, unless the deployment
    allowed the host (``allowed_hosts``, docs/resolver.md). The host is judged as a connection
    reads it (``storycore.rules.hosts``: ``127.1`` and a full-width ``LOCALHOST`` are what they
    lead to), as every delivery judges it; names are checked again, on the address connected
    to, at every delivery. It must be sent."""

    allowed_hosts: tuple[str, ...] = ()
    nullable: bool = False

    def read(self, members: Members, key: str, limits: Limits) -> str:
        field = members.field(key)
        url = validate_url(members.data.get(key), field, limits.address)
        parts = urlsplit(url)
        if parts.username is not None or parts.password is not None:
            raise InvalidParameter("a webhook address holds no credentials", field=field)
        try:
            host = canonical_host(parts.hostname or "")
        except ValueError:
            raise InvalidParameter(f"{parts.hostname} is not a host name", field=field) from None
        if host not in canonical_hosts(self.allowed_hosts) and is_plainly_private(host):
            raise InvalidParameter(
                f"{parts.hostname} is not a public address (a deployment may allow it:"
                " --resolve-allow-host)",
                field=field,
            )
        return url


@dataclass(frozen=True, slots=True)
class EventTypes:
    """The event types a webhook receives: a list of ``types`` (or a text of them, comma
    separated), or ``[every]`` for every one; a type named twice counts once. Not sent (or
    ``""``) is every one. Read as a tuple."""

    types: tuple[str, ...]
    every: str
    nullable: bool = False

    def read(self, members: Members, key: str, limits: Limits) -> tuple[str, ...]:
        field = members.field(key)
        events = members.data.get(key)
        if events is None or events == "":
            return (self.every,)
        if isinstance(events, str):
            events = [part.strip() for part in check_text(events, field).split(",")]
        if not isinstance(events, list) or not events:
            raise InvalidParameter(
                f'{field} must be a list of event types, or ["{self.every}"]', field=field
            )
        kept: list[str] = []
        for kind in events:
            if kind == self.every:
                return (self.every,)
            if not isinstance(kind, str) or kind not in self.types:
                shown = kind if isinstance(kind, str) else type(kind).__name__
                raise InvalidParameter(
                    f"{shown[:64]!r} is not an event type: one of {', '.join(self.types)},"
                    f" or {self.every}",
                    field=field,
                )
            if kind not in kept:
                kept.append(kind)
        return tuple(kept)


def read_declared(declaration: Declaration, members: Members, limits: Limits) -> dict[str, Any]:
    """Every declared member of ``members`` read by its kind, in order (None: not sent)."""
    return {key: kind.read(members, key, limits) for key, kind in declaration.items()}
