"""The one settings object: limits (docs/api.md#limits), addresses and element networks.

Every limit is configurable; the defaults are the decisions' values.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from .errors import InvalidParameter
from .rules.oembed_providers import DEFAULT_OEMBED_PROVIDERS, OEmbedProvider
from .rules.origins import origin_of
from .rules.sites import checked_site_name, checked_web_url
from .rules.video_players import DEFAULT_VIDEO_PLAYERS, VideoPlayer
from .rules.webhook_secrets import WebhookKeyError, parse_key

__all__ = ["DEFAULT_WEB_URL", "EMBED_PAGES", "Limits", "Network", "Settings"]

# the pages of ``stats.embeds`` kept per story (docs/api.md#limits)
EMBED_PAGES = 100


class Limits(BaseModel):
    """Sizes beyond which input is refused with ``invalid_parameter`` (or 413 for the body).

    Every limit is at least 1 (but ``revisions``, which may be 0: no revision is kept), and the
    slug limit at least 8; smaller values are refused when
    the settings are built, not met later as slugs that break their own rule.
    """

    model_config = ConfigDict(frozen=True)

    request_body: int = Field(default=1024 * 1024, ge=1)
    title: int = Field(default=200, ge=1)
    description: int = Field(default=2000, ge=1)
    elements: int = Field(default=1000, ge=1)
    text_element: int = Field(default=20000, ge=1)
    address: int = Field(default=2048, ge=1)
    query: int = Field(default=200, ge=1)
    per_page: int = Field(default=100, ge=1)
    per_page_default: int = Field(default=20, ge=1)
    # room for a one-character stem and the longest ``-N`` suffix (``x-999999``), and for the
    # fallback slug ``story``: below that, derived and suffixed slugs would break the slug rule
    slug: int = Field(default=120, ge=8)
    profile_field: int = Field(default=2000, ge=1)
    # not an input limit: the most pages ``stats.embeds`` keeps per story (docs/api.md#limits)
    embed_pages: int = Field(default=EMBED_PAGES, ge=1)
    # not an input limit: the most revisions a story keeps (docs/api.md#revisions); 0 keeps none
    revisions: int = Field(default=50, ge=0)
    # not an input limit: the days the event log keeps an event (docs/webhooks.md#how-long-
    # events-are-kept); older ones go once no delivery of theirs is pending
    event_days: int = Field(default=30, ge=1)
    # not an input limit: the failed sign-ins a username, and a client address, may have in any
    # minute, counted across every process on the store; a sign-in past them is refused with
    # 429 and Retry-After until the oldest leaves the minute (``usecases.sign_in_limit``)
    sign_ins_per_minute: int = Field(default=10, ge=1)
    # not an input limit: the bytes of fetched pictures a story keeps (docs/media.md#limits);
    # a picture that would take its story past them is not kept, with the reason
    media_bytes: int = Field(default=64 * 1024 * 1024, ge=1)


class Network(BaseModel):
    """A social network whose post addresses become ``quote`` elements.

    ``post_path`` is a regular expression matched against the address's path; its named groups
    ``username`` and ``id`` (both optional) fill the element's source and attribution.
    """

    model_config = ConfigDict(frozen=True)

    name: str
    hosts: tuple[str, ...]
    post_path: str


DEFAULT_NETWORKS = (
    Network(
        name="socialA",
        hosts=("sociala.example", "www.sociala.example", "mobile.sociala.example"),
        post_path=r"^/(?P<username>[A-Za-z0-9_]{1,50})/status(?:es)?/(?P<id>[0-9]{1,25})/?$",
    ),
    Network(
        name="socialB",
        hosts=("socialb.example", "www.socialb.example"),
        post_path=r"^/(?P<username>[A-Za-z0-9_.]{1,50})/posts/(?P<id>[A-Za-z0-9_-]{1,64})/?$",
    ),
)

DEFAULT_VIDEO_HOSTS = (
    "youtube.com",
    "www.youtube.com",
    "m.youtube.com",
    "youtu.be",
    "vimeo.com",
    "player.vimeo.com",
    "dailymotion.com",
    "www.dailymotion.com",
)

#: The web host's address in answers made outside an HTTP request when ``web_url`` is not set.
DEFAULT_WEB_URL = "http://127.0.0.1:8000"

DEFAULT_IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".svg")


class Settings(BaseModel):
    """Everything a service instance is configured with.

    ``web_url`` is the public web host's address (permalinks, shortlinks, embed scripts,
    oEmbed): an absolute http(s) address with a host, without query, fragment or credentials,
    kept without a trailing slash; anything else is ``InvalidParameter`` (field ``web_url``)
    when the settings are built (docs/decisions.md, ``storycore.rules.sites``). Left unset, each
    HTTP answer takes it from its request: scheme, ``Host`` and the prefix the app is mounted
    under (docs/api.md#credentials); answers made outside a request (Python calls, the command
    line) use ``DEFAULT_WEB_URL``. A configured ``web_url`` always wins. ``site_name`` names
    the site in pages, feeds, the embed and oEmbed; left unset, the site is named by its web
    address's host (the configured one, else the request's). ``cors_origins`` are the origins
    whose pages may call the API from a browser: ``("*",)`` (the default) is any origin.
    """

    model_config = ConfigDict(frozen=True)

    web_url: str | None = None
    site_name: str | None = None
    cors_origins: tuple[str, ...] = ("*",)
    limits: Limits = Field(default_factory=Limits)
    token_lifetime: timedelta = timedelta(days=30)
    password_cost: int = Field(default=2**14, description="scrypt's n: a power of two, >= 2")
    networks: tuple[Network, ...] = DEFAULT_NETWORKS
    video_hosts: tuple[str, ...] = DEFAULT_VIDEO_HOSTS
    image_extensions: tuple[str, ...] = DEFAULT_IMAGE_EXTENSIONS
    delegation_providers: tuple[str, ...] = ()
    delegation_rate_limit: int = Field(default=60, description="delegated creations a minute")
    provider_timeout: float = Field(default=5.0, description="seconds to wait for a provider")
    # what a permalink points to (docs/resolver.md): ``offline`` types it
    # from its address; ``online`` also fetches its content when a write adds it
    resolver: Literal["offline", "online"] = "offline"
    resolver_allowed_hosts: tuple[str, ...] = Field(
        default=(), description="hosts fetched even on private addresses (intranets, tests)"
    )
    oembed_providers: tuple[OEmbedProvider, ...] = DEFAULT_OEMBED_PROVIDERS
    # the players a page's video poster gives way to, on a click (docs/api.md#the-web-host)
    video_players: tuple[VideoPlayer, ...] = DEFAULT_VIDEO_PLAYERS
    resolver_at_once: int = Field(default=8, ge=1, description="fetches of one write at once")
    resolver_timeout: float = Field(default=3.0, gt=0, description="seconds for one permalink")
    resolver_budget: float = Field(default=5.0, gt=0, description="seconds for one write's")
    # whether storycore keeps its own copy of the pictures stories and profiles show
    # (docs/media.md#how-pictures-are-kept): None keeps them where the resolver is online
    keep_media: bool | None = None
    keep_media_timeout: float = Field(default=30.0, gt=0, description="seconds for one picture")
    # the key that seals webhook signing secrets in the store (docs/webhooks.md,
    # ``storycore.rules.webhook_secrets``): kept outside the store, so a stolen database signs
    # nothing; None: no webhook can be made or delivered
    webhook_key: SecretStr | None = None

    @field_validator("webhook_key")
    @classmethod
    def _webhook_key(cls, key: SecretStr | None) -> SecretStr | None:
        """32 bytes of URL-safe base64 (``storycore webhooks key`` makes one), or
        ``InvalidParameter``."""
        if key is not None:
            try:
                parse_key(key.get_secret_value())
            except WebhookKeyError as exc:
                raise InvalidParameter(str(exc), field="webhook_key") from exc
        return key

    @property
    def keeps_media(self) -> bool:
        """Whether pictures are kept: ``keep_media`` when set, else where the resolver is
        online (a deployment that fetches what permalinks point to keeps their pictures too)."""
        return self.keep_media if self.keep_media is not None else self.resolver == "online"

    @property
    def webhook_key_bytes(self) -> bytes | None:
        """The webhook key's 32 bytes, or None."""
        return None if self.webhook_key is None else parse_key(self.webhook_key.get_secret_value())

    @field_validator("web_url")
    @classmethod
    def _web_url(cls, web_url: str | None) -> str | None:
        """An absolute http(s) address, or ``InvalidParameter`` (not a ``ValidationError``:
        pydantic lets it through), as every wrong value a caller gives is."""
        return None if web_url is None else checked_web_url(web_url)

    @field_validator("site_name")
    @classmethod
    def _site_name(cls, site_name: str | None) -> str | None:
        """A name without the white space around it, or ``InvalidParameter``."""
        return None if site_name is None else checked_site_name(site_name)

    @field_validator("cors_origins")
    @classmethod
    def _origins(cls, origins: tuple[str, ...]) -> tuple[str, ...]:
        """Each origin as browsers send it (``https://example.org``, lowercase, no path), or
        ``*``; anything else would never match and is refused when the settings are built."""
        return tuple(origin if origin == "*" else origin_of(origin) for origin in origins)

    @field_validator("resolver_allowed_hosts")
    @classmethod
    def _hosts(cls, hosts: tuple[str, ...]) -> tuple[str, ...]:
        """Each host as the fetcher compares it: lowercase, an IPv6 address without brackets."""
        return tuple(host.strip().strip("[]").lower() for host in hosts if host.strip())
