"""A service put together from its settings: the one composition ``storycore serve`` and the
ASGI factory ``storycore.contrib.asgi:from_environment`` share (decisions sections 12, 14)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from pydantic import ValidationError

from storycore.adapters import open_store
from storycore.errors import ConfigurationError
from storycore.service import Service
from storycore.settings import Settings

from .identity import HttpProviderClient

__all__ = ["DEFAULT_DB", "compose", "from_environment", "listed"]

DEFAULT_DB = "sqlite:///storycore.db"


def compose(
    db: str,
    *,
    web_url: str | None = None,
    site_name: str | None = None,
    providers: Sequence[str] = (),
    cors_origins: Sequence[str] = ("*",),
    resolver: str = "offline",
    resolver_allowed_hosts: Sequence[str] = (),
) -> Service:
    """The service on the store ``db`` names, reaching delegation ``providers`` over HTTP.
    Without ``web_url``, each answer takes its addresses from its request (decisions §15);
    without ``site_name``, the site is named by its web address's host (§24). A ``web_url`` or
    ``site_name`` that breaks its rule is ``InvalidParameter`` naming it.
    ``resolver="online"`` fetches what permalinks point to, through ``HttpFetcher`` (§18)."""
    try:
        settings = Settings(
            web_url=web_url or None,
            site_name=site_name or None,
            delegation_providers=tuple(providers),
            cors_origins=tuple(cors_origins) or ("*",),
            resolver=resolver or "offline",
            resolver_allowed_hosts=tuple(resolver_allowed_hosts),
        )
    except ValidationError as exc:
        fault = exc.errors()[0]
        raise ConfigurationError(f"{fault['loc'][0]}: {fault['msg']}") from None
    resolver_used = None
    if settings.resolver == "online":
        # imported here: httpx and the page parser add a tenth of a second to every command
        from storycore.resolving.online_resolver import OnlineResolver

        from .fetch import HttpFetcher

        fetcher = HttpFetcher(allowed_hosts=settings.resolver_allowed_hosts)
        resolver_used = OnlineResolver(settings, fetcher)
    return Service(
        open_store(db), settings, provider_client=HttpProviderClient(), resolver=resolver_used
    )


def listed(text: str) -> list[str]:
    """The items of a comma-separated list (``STORYCORE_DELEGATION_PROVIDERS``,
    ``STORYCORE_CORS_ORIGINS``, ``STORYCORE_RESOLVER_ALLOWED_HOSTS``)."""
    return [item.strip() for item in text.split(",") if item.strip()]


def from_environment(environ: Mapping[str, str] = os.environ) -> Service:
    """The service ``STORYCORE_DB``, ``STORYCORE_WEB_URL``, ``STORYCORE_SITE_NAME``,
    ``STORYCORE_DELEGATION_PROVIDERS``, ``STORYCORE_CORS_ORIGINS``, ``STORYCORE_RESOLVER``
    (``offline`` or ``online``) and ``STORYCORE_RESOLVER_ALLOWED_HOSTS`` describe (each
    optional)."""
    return compose(
        environ.get("STORYCORE_DB") or DEFAULT_DB,
        web_url=environ.get("STORYCORE_WEB_URL"),
        site_name=environ.get("STORYCORE_SITE_NAME"),
        providers=listed(environ.get("STORYCORE_DELEGATION_PROVIDERS", "")),
        cors_origins=listed(environ.get("STORYCORE_CORS_ORIGINS", "")),
        resolver=environ.get("STORYCORE_RESOLVER", "offline"),
        resolver_allowed_hosts=listed(environ.get("STORYCORE_RESOLVER_ALLOWED_HOSTS", "")),
    )
