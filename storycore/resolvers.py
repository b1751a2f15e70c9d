"""Turning a permalink string into a typed element (decisions section 7).

Resolving richer metadata (titles, post text, image sizes) is the job of a pluggable resolver;
the default one works offline, from the address alone:

- a post address of a configured network (``Settings.networks``) is a ``quote``;
- an address whose path ends in an image extension (any case) is an ``image``;
- an address on a configured video host (``Settings.video_hosts``) is a ``video``;
- anything else is a ``link``.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Protocol, runtime_checkable
from urllib.parse import urlsplit

from .records import Attribution, Element, Source
from .settings import Settings

__all__ = ["ElementResolver", "OfflineResolver"]


@runtime_checkable
class ElementResolver(Protocol):
    """Makes an element from an address that passed the address rule."""

    def resolve(self, permalink: str, *, element_id: str, added_at: str) -> Element:
        """The element for ``permalink``; it must not fail for any http(s) address."""
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
                groups = match.groupdict()
                username = groups.get("username") or ""
                return Element(
                    id=element_id,
                    type="quote",
                    permalink=permalink,
                    source=Source(name=name, href=origin, username=username),
                    attribution=Attribution(
                        name=username,
                        username=username,
                        href=f"{origin}/{username}" if username else origin,
                    ),
                    data={"quote": {"text": ""}},
                    added_at=added_at,
                )
        if parts.path.lower().endswith(tuple(self.settings.image_extensions)):
            return Element(
                id=element_id,
                type="image",
                permalink=permalink,
                source=site,
                data={"image": {"src": permalink, "caption": "", "width": 0, "height": 0}},
                added_at=added_at,
            )
        if host in self._video_hosts:
            return Element(
                id=element_id,
                type="video",
                permalink=permalink,
                source=site,
                data={"video": {"src": permalink, "title": "", "thumbnail": ""}},
                added_at=added_at,
            )
        return Element(
            id=element_id,
            type="link",
            permalink=permalink,
            source=site,
            data={"link": {"title": "", "description": "", "thumbnail": ""}},
            added_at=added_at,
        )
