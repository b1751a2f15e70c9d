"""A service put together from its settings: the one composition every ``storycore``
command, the processes of ``storycore serve`` and the ASGI factory
``storycore.contrib.asgi:from_environment`` share (docs/decisions.md#command-line,
docs/decisions.md#serving).

Whichever process builds a service builds it here, from the same settings (``Composition``: the
``STORYCORE_*`` variables, which the command line's options replace), so an event reports the
same addresses whichever process wrote it, and the hosts the address rules allow are one
setting everywhere. Composing brings the store up to date (``storycore.usecases.reindex``) once,
where it is opened first: ``serve``'s workers, which ``serve`` hands its settings to, skip it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from pydantic import ValidationError

from storycore.adapters import in_memory, open_store
from storycore.errors import ConfigurationError
from storycore.rules.webhook_secrets import new_key
from storycore.service import Service
from storycore.settings import DEFAULT_WEB_URL, Settings
from storycore.usecases.reindex import bring_up_to_date

from ._key_file import kept_key
from .identity import HttpProviderClient
from .webhooks import HttpWebhookSender

__all__ = [
    "DEFAULT_DB",
    "VARIABLES",
    "Composition",
    "compose",
    "from_environment",
    "listed",
    "webhook_key_file",
]

DEFAULT_DB = "sqlite:///storycore.db"


@dataclass(frozen=True, slots=True)
class Composition:
    """What a service is composed from: the store's URL and the settings an operator gives,
    each the value of its variable (``VARIABLES``; lists comma-separated) unless an option
    replaced it. None and empty mean unset: ``compose`` says what each then is.
    """

    db: str = DEFAULT_DB
    web_url: str | None = None
    site_name: str | None = None
    providers: tuple[str, ...] = ()
    cors_origins: tuple[str, ...] = ()
    resolver: str | None = None
    resolver_allowed_hosts: tuple[str, ...] = ()
    webhook_key: str | None = None
    #: ``on`` or ``off``: whether pictures are kept (docs/media.md#how-pictures-are-kept)
    keep_media: str | None = None
    #: the address of answers made outside a request without a ``web_url``: where ``serve``
    #: listens (it hands it to its workers), else ``DEFAULT_WEB_URL``
    listening_url: str | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Composition:
        """The settings ``environ``'s ``STORYCORE_*`` variables give (each optional)."""
        given: dict[str, object] = {}
        for member in fields(cls):
            text = environ.get(VARIABLES[member.name], "")
            if isinstance(member.default, tuple):  # a list
                given[member.name] = tuple(listed(text))
            elif text.strip():
                given[member.name] = text
        return cls(**given)  # type: ignore[arg-type]

    def environment(self) -> dict[str, str]:
        """These settings as the variables ``from_environment`` reads back: what ``serve``
        hands its workers."""
        found: dict[str, str] = {}
        for member in fields(self):
            value = getattr(self, member.name)
            text = ",".join(value) if isinstance(value, tuple) else value or ""
            found[VARIABLES[member.name]] = text
        return found

    def service(self, *, up_to_date: bool = True) -> Service:
        """The service these settings describe (``compose``)."""
        return compose(
            self.db,
            web_url=self.web_url,
            site_name=self.site_name,
            providers=self.providers,
            cors_origins=self.cors_origins,
            resolver=self.resolver or "offline",
            resolver_allowed_hosts=self.resolver_allowed_hosts,
            webhook_key=self.webhook_key,
            keep_media=self.keep_media,
            default_web_url=self.listening_url,
            up_to_date=up_to_date,
        )


#: The variable each member of ``Composition`` is read from.
VARIABLES = {
    "db": "STORYCORE_DB",
    "web_url": "STORYCORE_WEB_URL",
    "site_name": "STORYCORE_SITE_NAME",
    "providers": "STORYCORE_DELEGATION_PROVIDERS",
    "cors_origins": "STORYCORE_CORS_ORIGINS",
    "resolver": "STORYCORE_RESOLVER",
    "resolver_allowed_hosts": "STORYCORE_RESOLVER_ALLOWED_HOSTS",
    "webhook_key": "STORYCORE_WEBHOOK_KEY",
    "keep_media": "STORYCORE_KEEP_MEDIA",
    "listening_url": "STORYCORE_LISTENING_URL",
}


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
    keep_media: str | None = None,
    default_web_url: str | None = None,
    up_to_date: bool = True,
) -> Service:
    """The service on the store ``db`` names, reaching delegation ``providers`` over HTTP.

    Without ``web_url``, each answer takes its addresses from its request
    (docs/api.md#credentials); without ``site_name``, the site is named by its web address's
    host (docs/decisions.md). A ``web_url`` or ``site_name`` that breaks its rule is
    ``InvalidParameter`` naming it. ``resolver="online"`` fetches what permalinks point to,
    through ``HttpFetcher`` (docs/resolver.md). ``resolver_allowed_hosts`` are the hosts the
    fetcher and the webhook sender may reach on private addresses. ``webhook_key`` seals
    webhook secrets (docs/webhooks.md); without it, a SQLite file's key is kept in a file beside
    it (``webhook_key_file``), an in-memory store's lives with the process, and any other store
    has none (webhooks are refused until one is set). ``keep_media``, ``on`` or ``off``, says
    whether pictures are kept, through ``HttpFetcher`` too (docs/media.md#how-pictures-are-kept);
    unset, they are where the resolver is online. ``default_web_url``: the address of
    answers made outside a request when no ``web_url`` is set (``Service``). ``up_to_date``:
    the store is brought up to date first (``storycore.usecases.reindex.bring_up_to_date``); a
    process whose store was brought up to date by the one that started it turns it off.
    """
    try:
        settings = Settings(
            web_url=web_url or None,
            site_name=site_name or None,
            delegation_providers=tuple(providers),
            cors_origins=tuple(cors_origins) or ("*",),
            resolver=resolver or "offline",
            resolver_allowed_hosts=tuple(resolver_allowed_hosts),
            webhook_key=webhook_key or _kept_key(db),
            keep_media=_switch(keep_media, "STORYCORE_KEEP_MEDIA"),
        )
    except ValidationError as exc:
        fault = exc.errors()[0]
        raise ConfigurationError(f"{fault['loc'][0]}: {fault['msg']}") from None
    resolver_used, fetcher = None, None
    if settings.resolver == "online" or settings.keeps_media:
        # imported here: httpx adds a tenth of a second to every command
        from .fetch import HttpFetcher

        fetcher = HttpFetcher(allowed_hosts=settings.resolver_allowed_hosts)
    if settings.resolver == "online" and fetcher is not None:
        from storycore.resolving.online_resolver import OnlineResolver

        resolver_used = OnlineResolver(settings, fetcher)
    store = open_store(db)
    try:
        if up_to_date:
            bring_up_to_date(store)
    except BaseException:
        store.close()
        raise
    return Service(
        store,
        settings,
        provider_client=HttpProviderClient(),
        resolver=resolver_used,
        webhook_sender=HttpWebhookSender(allowed_hosts=settings.resolver_allowed_hosts),
        picture_fetcher=fetcher if settings.keeps_media else None,
        default_web_url=default_web_url or DEFAULT_WEB_URL,
    )


def _switch(text: str | None, name: str) -> bool | None:
    """``on`` as True, ``off`` as False, nothing as None; anything else is
    ``ConfigurationError`` naming the variable (an option's choices are checked before)."""
    if text is None or not text.strip():
        return None
    switch = text.strip().lower()
    if switch not in ("on", "off"):
        raise ConfigurationError(f"{name} must be on or off, not {text!r}")
    return switch == "on"


def webhook_key_file(db: str) -> Path | None:
    """Where the webhook key of the SQLite file ``db`` is kept: beside it, so that the store
    alone (a copy of the file, a backup) holds no key; None for any other store."""
    if not db.startswith("sqlite:///") or in_memory(db):
        return None
    return Path(db.removeprefix("sqlite:///") + ".webhook-key")


def _kept_key(db: str) -> str | None:
    """The key of a store that keeps its own: a SQLite file's, made once by whichever process
    composes a service on it first (``_key_file``), or a new one for a store that lives in this
    process."""
    if in_memory(db):
        return new_key()
    path = webhook_key_file(db)
    return None if path is None else kept_key(path)


def listed(text: str) -> list[str]:
    """The items of a comma-separated list (``STORYCORE_DELEGATION_PROVIDERS``,
    ``STORYCORE_CORS_ORIGINS``, ``STORYCORE_RESOLVER_ALLOWED_HOSTS``)."""
    return [item.strip() for item in text.split(",") if item.strip()]


def from_environment(
    environ: Mapping[str, str] = os.environ, *, up_to_date: bool = True
) -> Service:
    """The service ``STORYCORE_DB``, ``STORYCORE_WEB_URL``, ``STORYCORE_SITE_NAME``,
    ``STORYCORE_DELEGATION_PROVIDERS``, ``STORYCORE_CORS_ORIGINS``, ``STORYCORE_RESOLVER``
    (``offline`` or ``online``), ``STORYCORE_RESOLVER_ALLOWED_HOSTS`` and
    ``STORYCORE_WEBHOOK_KEY`` describe (each optional; ``Composition``)."""
    return Composition.from_environment(environ).service(up_to_date=up_to_date)
