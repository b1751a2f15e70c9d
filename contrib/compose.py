"""A service put together from its settings: the one composition ``storycore serve`` and the
ASGI factory ``storycore.contrib.asgi:from_environment`` share (docs/decisions.md#command-line,
docs/decisions.md#serving)."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from datetime import timedelta
from pathlib import Path

from pydantic import ValidationError

from storycore.adapters import in_memory, open_store
from storycore.errors import ConfigurationError
from storycore.rules.webhook_secrets import new_key
from storycore.service import Service
from storycore.settings import Settings

from .identity import HttpProviderClient
from .webhooks import HttpWebhookSender

__all__ = ["DEFAULT_DB", "compose", "from_environment", "listed", "webhook_key_file"]

DEFAULT_DB = "sqlite:///storycore.db"
#: Sets the deliverer's lease, in seconds: for tests only (``storycore.usecases.delivery``).
_DELIVERY_LEASE = "STORYCORE_DELIVERY_LEASE"


def compose(
    db: str,
    *,
    web_url: str | None = None,
    site_name: str | None = None,
    providers: Sequence[str] = (),
    cors_origins: Sequence[str] = ("*",),
    resolver: str = "offline",
    resolver_allowed_hosts: Sequence[str] = (),
    webhook_key: str | None = None,
) -> Service:
    """The service on the store ``db`` names, reaching delegation ``providers`` over HTTP.
    Without ``web_url``, each answer takes its addresses from its request (docs/api.md#credentials);
    without ``site_name``, the site is named by its web address's host (docs/decisions.md). A
    ``web_url`` or
    ``site_name`` that breaks its rule is ``InvalidParameter`` naming it.
    ``resolver="online"`` fetches what permalinks point to, through ``HttpFetcher``
    (docs/resolver.md).
    ``webhook_key`` seals webhook secrets (docs/webhooks.md); without it, a SQLite file's key is
    kept in a
    file beside it (``webhook_key_file``), an in-memory store's lives with the process, and
    any other store has none (webhooks are refused until one is set)."""
    try:
        settings = Settings(
            web_url=web_url or None,
            site_name=site_name or None,
            delegation_providers=tuple(providers),
            cors_origins=tuple(cors_origins) or ("*",),
            resolver=resolver or "offline",
            resolver_allowed_hosts=tuple(resolver_allowed_hosts),
            webhook_key=webhook_key or _kept_key(db),
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
    lease = _delivery_lease(os.environ.get(_DELIVERY_LEASE))
    service = Service(
        open_store(db),
        settings,
        provider_client=HttpProviderClient(),
        resolver=resolver_used,
        webhook_sender=HttpWebhookSender(allowed_hosts=settings.resolver_allowed_hosts),
    )
    if lease is not None:
        service.deliverer.lease = lease
    return service


def _delivery_lease(text: str | None) -> timedelta | None:
    """The delivery lease ``STORYCORE_DELIVERY_LEASE`` sets, for tests only (a number of
    seconds: ``storycore.usecases.delivery`` says why); None when it is unset or empty."""
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        raise ConfigurationError(
            f"{_DELIVERY_LEASE} must be a number of seconds above 0, not {text[:40]!r}"
        )
    return timedelta(seconds=seconds)


def webhook_key_file(db: str) -> Path | None:
    """Where the webhook key of the SQLite file ``db`` is kept: beside it, so that the store
    alone (a copy of the file, a backup) holds no key; None for any other store."""
    if not db.startswith("sqlite:///") or in_memory(db):
        return None
    return Path(db.removeprefix("sqlite:///") + ".webhook-key")


def _kept_key(db: str) -> str | None:
    """The key of a store that keeps its own: a SQLite file's, made when first composed (readable by
    its owner only), or a new one for a store that lives in this process."""
    if in_memory(db):
        return new_key()
    path = webhook_key_file(db)
    if path is None:
        return None
    try:
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
            out.write(new_key() + "\n")
    except FileExistsError:
        pass
    except OSError as exc:
        raise ConfigurationError(f"cannot keep the webhook key in {path}: {exc.strerror}") from None
    try:
        return path.read_text().strip() or None
    except OSError as exc:
        raise ConfigurationError(f"cannot read the webhook key in {path}: {exc.strerror}") from None


def listed(text: str) -> list[str]:
    """The items of a comma-separated list (``STORYCORE_DELEGATION_PROVIDERS``,
    ``STORYCORE_CORS_ORIGINS``, ``STORYCORE_RESOLVER_ALLOWED_HOSTS``)."""
    return [item.strip() for item in text.split(",") if item.strip()]


def from_environment(environ: Mapping[str, str] = os.environ) -> Service:
    """The service ``STORYCORE_DB``, ``STORYCORE_WEB_URL``, ``STORYCORE_SITE_NAME``,
    ``STORYCORE_DELEGATION_PROVIDERS``, ``STORYCORE_CORS_ORIGINS``, ``STORYCORE_RESOLVER``
    (``offline`` or ``online``), ``STORYCORE_RESOLVER_ALLOWED_HOSTS`` and
    ``STORYCORE_WEBHOOK_KEY`` describe (each optional)."""
    return compose(
        environ.get("STORYCORE_DB") or DEFAULT_DB,
        web_url=environ.get("STORYCORE_WEB_URL"),
        site_name=environ.get("STORYCORE_SITE_NAME"),
        providers=listed(environ.get("STORYCORE_DELEGATION_PROVIDERS", "")),
        cors_origins=listed(environ.get("STORYCORE_CORS_ORIGINS", "")),
        resolver=environ.get("STORYCORE_RESOLVER", "offline"),
        resolver_allowed_hosts=listed(environ.get("STORYCORE_RESOLVER_ALLOWED_HOSTS", "")),
        webhook_key=environ.get("STORYCORE_WEBHOOK_KEY"),
    )
