"""The online resolver (docs/resolver.md): what a permalink points to, fetched when a write
adds it and stored in its element, so that reads never fetch and a story keeps what it quotes.

For each permalink, in this order:

1. the oEmbed endpoint of a known provider (``Settings.oembed_providers``), when one has it;
2. else the page itself: the JSON oEmbed it names (discovery, ``<link rel="alternate"
   type="application/json+oembed">``), its answer completed by the page's own metadata;
3. else the page's OpenGraph and Twitter-card metadata (and its ``<title>`` and description).

What is found becomes element members by the rules of ``storycore.resolving._resolved``. One write's
permalinks are resolved together: at most ``Settings.resolver_at_once`` at a time, each within
``resolver_timeout`` seconds, all within ``resolver_budget``; what is not done by then stays as
the offline resolver made it, and the write goes on. A write never fails because of resolving.

What is found is kept per permalink in the process for an hour (at most about 16 MB of it); a
permalink that could not be fetched, or not in time, is tried again by the next write.
The network is reached only through the ``PageFetcher`` port (``storycore.resolving.fetching``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterable, Sequence
from dataclasses import fields
from typing import Final

from ..clocks import Clock, SystemClock
from ..extras import imported_from
from ..model.element_kinds import Element
from ..model.resolvers import ContentResolver, OfflineResolver
from ..rules.addresses import is_http_url
from ..rules.oembed_providers import endpoint_for
from ..settings import Settings
from ._found import Found
from ._page_metadata import read_oembed, read_page
from ._resolved import RESOLVED_TYPES, filled
from .coroutines import run_to_end
from .fetching import HTML_CAP, JSON_CAP, PageFetcher

with imported_from("online"):
    from cachetools import TTLCache

__all__ = ["OnlineResolver"]

logger = logging.getLogger("storycore.resolver")


#: How long a result is kept, in seconds.
KEPT_FOR: Final = 3600
#: About how many bytes of results are kept.
KEPT_BYTES: Final = 16 * 1024 * 1024
_HTML: Final = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
_JSON: Final = "application/json"


class OnlineResolver(ContentResolver):
    """Types permalinks as the offline resolver does, and fills them in through ``fetcher``.
    What it found is kept for ``KEPT_FOR`` seconds of ``clock`` (by default the system's; pass
    the service's clock so that a test moves both)."""

    def __init__(
        self, settings: Settings, fetcher: PageFetcher, *, clock: Clock | None = None
    ) -> None:
        self.settings = settings
        self._offline = OfflineResolver(settings)
        self._fetcher = fetcher
        # how long a result is kept is a rule, counted on the clock (the service's, when given)
        timer = (clock if clock is not None else SystemClock()).monotonic
        self._kept: TTLCache[str, Found] = TTLCache(
            KEPT_BYTES, KEPT_FOR, timer=timer, getsizeof=_size
        )
        self._lock = threading.Lock()

    def resolve(self, permalink: str, *, element_id: str, added_at: str) -> Element:
        return self._offline.resolve(permalink, element_id=element_id, added_at=added_at)

    def fill(self, elements: Sequence[Element]) -> list[Element]:
        wanted = {e.permalink for e in elements if e.type in RESOLVED_TYPES and e.permalink}
        found = (
            run_to_end(self._found_all(wanted), thread_name="storycore-resolver") if wanted else {}
        )
        limits = self.settings.limits
        return [
            filled(element, found[element.permalink], limits)
            if element.permalink in found
            else element
            for element in elements
        ]

    async def _found_all(self, permalinks: Iterable[str]) -> dict[str, Found]:
        """What each permalink points to, of those resolved within the budget."""
        results: dict[str, Found] = {}
        with self._lock:
            for permalink in permalinks:
                kept = self._kept.get(permalink)
                if kept is not None:
                    results[permalink] = kept
        gate = asyncio.Semaphore(self.settings.resolver_at_once)

        async def one(permalink: str) -> None:
            async with gate:
                try:
                    async with asyncio.timeout(self.settings.resolver_timeout):
                        found = await self._found(permalink)
                except TimeoutError:
                    return
                except Exception:  # a bug in resolving must not fail the write
                    logger.exception("resolving %s failed", permalink)
                    return
            results[permalink] = found
            if found:  # what could not be fetched is tried again by the next write
                with self._lock, contextlib.suppress(ValueError):  # ValueError: over the bound
                    self._kept[permalink] = found

        tasks = [asyncio.create_task(one(p)) for p in permalinks if p not in results]
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=self.settings.resolver_budget)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        return results

    async def _found(self, permalink: str) -> Found:
        """What ``permalink`` points to: from its provider, its oEmbed, or its page."""
        endpoint = endpoint_for(self.settings.oembed_providers, permalink)
        if endpoint is not None:
            found = await self._oembed(endpoint)
            if found:
                return found
        page = await self._fetcher.fetch(permalink, accept=_HTML, max_bytes=HTML_CAP)
        if page is None or page.status != 200 or not _is_html(page.content_type):
            return Found()
        metadata, discovered = read_page(page)
        if discovered and is_http_url(discovered):
            found = await self._oembed(discovered)
            if found:
                return found.or_else(metadata)
        return metadata

    async def _oembed(self, url: str) -> Found | None:
        answer = await self._fetcher.fetch(url, accept=_JSON, max_bytes=JSON_CAP)
        if answer is None or answer.status != 200:
            return None
        return read_oembed(answer, answer.url)


def _is_html(content_type: str) -> bool:
    """Whether a ``Content-Type`` is a page's (none at all is taken for one)."""
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind in ("", "text/html", "application/xhtml+xml")


def _size(found: Found) -> int:
    """About how many bytes ``found`` takes, as the cache counts it."""
    return 200 + sum(len(v) for f in fields(found) if isinstance(v := getattr(found, f.name), str))
