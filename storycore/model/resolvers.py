"""Turning a permalink string into a typed element (docs/api.md#elements).

Resolving richer metadata (titles, post text, image sizes) is the job of a pluggable resolver;
the default one works offline, from the address alone:

- a post address of a configured network (``Settings.networks``) is a ``quote``;
- an address whose path ends in an image extension (any case) is an ``image``;
- an address on a configured video host (``Settings.video_hosts``) is a ``video``;
- anything else is a ``link``.

A ``ContentResolver`` also fetches what permalinks point to when a write adds them: the online
resolver of docs/resolver.md (``storycore.resolving.online_resolver``, docs/resolver.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property
from typing import Protocol, runtime_checkable
from urllib.parse import urlsplit

from ..settings import Settings
from .element_kinds import (
    Attribution,
    Element,
    ImageElement,
    LinkElement,
    QuoteElement,
    Source,
    VideoElement,
)

__all__ = ["ContentResolver", "ElementResolver", "OfflineResolver"]


@runtime_checkable
class ElementResolver(Protocol):
    """Makes an element from an address that passed the address rule."""

    def resolve(self, permalink: str, *, element_id: str, added_at: str) -> Element:
        """The element for ``permalink``; it must not fail for any http(s) address."""
        ...


@runtime_checkable
class ContentResolver(ElementResolver, Protocol):
    """A resolver that also stores in elements what their permalinks point to."""

    def fill(self, elements: Sequence[Element]) -> list[Element]:
        """``elements``, in order, each with what its permalink points to stored in its
        members; ids and ``added_at`` kept. All of them are resolved concurrently, within one
        write's budget: an element that cannot be resolved in time comes back as given. Never
        raises.
        """
        ...


class OfflineResolver:
    """The default resolver: classifies by host and path, fetches nothing."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @cached_property
    def _networks(self) -> list[tuple[str, frozenset[str], re.Pattern[str]]]:
        return [
            (net.name, frozenset(h.lower() for h in net.hosts), re.compile(net.post_path))
            for net in self.settings.networks
        ]

    @cached_property
    def _video_hosts(self) -> frozenset[str]:
        return frozenset(h.lower() for h in self.settings.video_hosts)

    def resolve(self, permalink: str, *, element_id: str, added_at: str) -> Element:
        parts = urlsplit(permalink)
        host = (parts.hostname or "").lower()
        origin = f"{parts.scheme.lower()}://{parts.netloc}"
        site = Source(name=host, href=origin)
        for name, hosts, post_path in self._networks:
            match = post_path.match(parts.path) if host in hosts else None
            if match:
                username = match.groupdict().get("username") or ""
                return QuoteElement(
                    id=element_id,
                    permalink=permalink,
                    source=Source(name=name, href=origin, username=username),
                    attribution=Attribution(
                        name=username,
                        username=username,
                        href=f"{origin}/{username}" if username else origin,
                    ),
                    added_at=added_at,
                )
        if parts.path.lower().endswith(tuple(self.settings.image_extensions)):
            image = {"image": {"src": permalink}}
            return ImageElement(
                id=element_id, permalink=permalink, source=site, data=image, added_at=added_at
            )
        if host in self._video_hosts:
            video = {"video": {"src": permalink}}
            return VideoElement(
                id=element_id, permalink=permalink, source=site, data=video, added_at=added_at
            )
        return LinkElement(id=element_id, permalink=permalink, source=site, added_at=added_at)
