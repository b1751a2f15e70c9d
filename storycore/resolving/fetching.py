"""The online resolver's one way out to the network (docs/resolver.md).

The core decides what to ask for and what an answer means
(``storycore.resolving.online_resolver``); the port only carries one GET, safely:
``storycore.contrib.fetch.HttpFetcher`` is the real one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol, runtime_checkable

__all__ = ["HTML_CAP", "JSON_CAP", "Fetched", "PageFetcher"]

#: The most of a page that is read: its metadata is in its head, near the start.
HTML_CAP: Final = 1024 * 1024
#: The most of an oEmbed answer that is read; a longer one is not used.
JSON_CAP: Final = 256 * 1024


@dataclass(frozen=True, slots=True)
class Fetched:
    """What a site answered: the address it was answered from (after redirects), its status,
    its ``Content-Type`` and at most ``max_bytes`` of its body (``complete``: all of it)."""

    url: str
    status: int
    content_type: str
    body: bytes
    complete: bool


@runtime_checkable
class PageFetcher(Protocol):
    """Sends the online resolver's requests."""

    async def fetch(self, url: str, *, accept: str, max_bytes: int) -> Fetched | None:
        """``GET url`` (``Accept: accept``), following at most 3 redirects.

        Connects only over http(s), and only to public unicast addresses, checked on the
        address it connects to, for the first request and each redirect alike; hosts the
        deployment allowed (``Settings.resolver_allowed_hosts``) are reached wherever they are.
        Reads at most ``max_bytes`` of the body (decoded). Returns None when the request was
        refused, failed or went over the redirects; never raises but for cancellation, which
        is how the caller bounds its time.
        """
        ...
