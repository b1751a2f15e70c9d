"""The oEmbed providers the online resolver asks first (docs/resolver.md).

A permalink that one of a provider's ``schemes`` matches is resolved by asking the provider's
``endpoint`` (``?url=<permalink>&format=json``) before anything else: one request, and the
provider's own answer rather than what its page says. A scheme is an address with ``*``
standing for any run of characters (the form of oembed.com's provider list); its ``http`` or
``https`` matches either. Any other permalink goes on to oEmbed discovery and the page's
metadata (``storycore.resolving.online_resolver``).

``DEFAULT_OEMBED_PROVIDERS`` is ``Settings.oembed_providers`` unless configured: YouTube,
Vimeo, Flickr, SoundCloud, Dailymotion, X, Bluesky and Reddit (their schemes and endpoints are
below, and in docs/resolver.md). A deployment adds its own providers, or takes some out, by
giving ``Settings(oembed_providers=...)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property
from urllib.parse import urlencode

from pydantic import BaseModel, ConfigDict

__all__ = ["DEFAULT_OEMBED_PROVIDERS", "OEmbedProvider", "endpoint_for"]


class OEmbedProvider(BaseModel):
    """A site that answers oEmbed requests for the addresses its ``schemes`` match."""

    model_config = ConfigDict(frozen=True)

    name: str
    schemes: tuple[str, ...]
    endpoint: str

    @cached_property
    def _patterns(self) -> tuple[re.Pattern[str], ...]:
        return tuple(
            re.compile(re.escape(_without_scheme(scheme)).replace(r"\*", ".*"), re.IGNORECASE)
            for scheme in self.schemes
        )

    def matches(self, permalink: str) -> bool:
        """Whether ``permalink`` is one of this provider's addresses."""
        address = _without_scheme(permalink)
        return any(pattern.fullmatch(address) for pattern in self._patterns)

    def request_url(self, permalink: str) -> str:
        """The address that asks the endpoint for ``permalink``'s oEmbed answer in JSON."""
        joiner = "&" if "?" in self.endpoint else "?"
        return f"{self.endpoint}{joiner}{urlencode({'url': permalink, 'format': 'json'})}"


def _without_scheme(address: str) -> str:
    """``address`` after its ``http://`` or ``https://``: either scheme matches a scheme."""
    return re.sub(r"^https?://", "", address, flags=re.IGNORECASE)


def endpoint_for(providers: Sequence[OEmbedProvider], permalink: str) -> str | None:
    """The oEmbed request for ``permalink`` of the first provider that has it, or None."""
    for provider in providers:
        if provider.matches(permalink):
            return provider.request_url(permalink)
    return None


DEFAULT_OEMBED_PROVIDERS = (
    OEmbedProvider(
        name="YouTube",
        schemes=(
            "https://*.youtube.com/watch*",
            "https://youtube.com/watch*",
            "https://*.youtube.com/shorts/*",
            "https://youtube.com/shorts/*",
            "https://youtu.be/*",
        ),
        endpoint="https://www.youtube.com/oembed",
    ),
    OEmbedProvider(
        name="Vimeo",
        schemes=("https://vimeo.com/*", "https://player.vimeo.com/video/*"),
        endpoint="https://vimeo.com/api/oembed.json",
    ),
    OEmbedProvider(
        name="Flickr",
        schemes=(
            "https://*.flickr.com/photos/*",
            "https://flickr.com/photos/*",
            "https://flic.kr/p/*",
        ),
        endpoint="https://www.flickr.com/services/oembed/",
    ),
    OEmbedProvider(
        name="SoundCloud",
        schemes=("https://soundcloud.com/*", "https://*.soundcloud.com/*"),
        endpoint="https://soundcloud.com/oembed",
    ),
    OEmbedProvider(
        name="Dailymotion",
        schemes=(
            "https://*.dailymotion.com/video/*",
            "https://dailymotion.com/video/*",
            "https://dai.ly/*",
        ),
        endpoint="https://www.dailymotion.com/services/oembed",
    ),
    OEmbedProvider(
        name="X",
        schemes=(
            "https://twitter.com/*/status/*",
            "https://*.twitter.com/*/status/*",
            "https://x.com/*/status/*",
        ),
        endpoint="https://publish.twitter.com/oembed",
    ),
    OEmbedProvider(
        name="Bluesky",
        schemes=("https://bsky.app/profile/*/post/*",),
        endpoint="https://embed.bsky.app/oembed",
    ),
    OEmbedProvider(
        name="Reddit",
        schemes=("https://reddit.com/r/*/comments/*", "https://*.reddit.com/r/*/comments/*"),
        endpoint="https://www.reddit.com/oembed",
    ),
)
