"""A service put together from its settings: the one composition ``storycore serve`` and the
ASGI factory ``storycore.contrib.asgi:from_environment`` share (decisions sections 12, 14)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from storycore.adapters import open_store
from storycore.service import Service
from storycore.settings import Settings

from .identity import HttpProviderClient

__all__ = ["DEFAULT_DB", "compose", "from_environment", "providers_of"]

DEFAULT_DB = "sqlite:///storycore.db"


def compose(db: str, *, web_url: str | None = None, providers: Sequence[str] = ()) -> Service:
    """The service on the store ``db`` names, reaching delegation ``providers`` over HTTP."""
    address = {"web_url": web_url} if web_url else {}
    settings = Settings(**address, delegation_providers=tuple(providers))
    return Service(open_store(db), settings, provider_client=HttpProviderClient())


def providers_of(text: str) -> list[str]:
    """The providers of a comma-separated list (``STORYCORE_DELEGATION_PROVIDERS``)."""
    return [provider.strip() for provider in text.split(",") if provider.strip()]


def from_environment(environ: Mapping[str, str] = os.environ) -> Service:
    """The service ``STORYCORE_DB``, ``STORYCORE_WEB_URL`` and
    ``STORYCORE_DELEGATION_PROVIDERS`` describe (each optional)."""
    return compose(
        environ.get("STORYCORE_DB") or DEFAULT_DB,
        web_url=environ.get("STORYCORE_WEB_URL"),
        providers=providers_of(environ.get("STORYCORE_DELEGATION_PROVIDERS", "")),
    )
