"""The service facade: everything the HTTP API does, as Python calls.

service = Service(open_store("sqlite:///stories.db"))
service.accounts.create_user("alice", password="...")
alice = service.accounts.as_user("alice")
service.stories.create("alice", {"title": "Hello"}, viewer=alice, publish=True)
service.catalog.latest()
"""

from __future__ import annotations

import copy
from functools import partial
from types import TracebackType

from .clocks import Clock, SystemClock
from .errors import ConfigurationError, MissingDependencyError
from .model.documents import as_document, shape_of
from .model.resolvers import ElementResolver, OfflineResolver
from .model.shapes import SearchItem, StorySummary
from .ports import Store
from .presentation.presenters import Presenter
from .resolving.fetching import PageFetcher
from .rules.sites import checked_web_url
from .settings import DEFAULT_WEB_URL, Settings
from .usecases.accounts import Accounts
from .usecases.catalog import Catalog
from .usecases.context import Context
from .usecases.delegation import Delegation
from .usecases.delivery import Deliverer, WebhookSender
from .usecases.embedding import Embeds
from .usecases.events import Events
from .usecases.identity import ProviderClient
from .usecases.imports import Imports
from .usecases.keeping import BATCH, Keeper, KeptAll
from .usecases.kept_media import KeptMedia
from .usecases.lifecycle import Stories
from .usecases.pruning import Progress, Pruned
from .usecases.ratelimit import RateLimiter
from .usecases.revisions import Revisions
from .usecases.scheduling import Scheduler
from .usecases.sitemap import Sitemap
from .usecases.sources import Sources
from .usecases.viewcounts import ViewCounts
from .usecases.webhooks import Webhooks

__all__ = ["Service"]


class Service:
    """One story service over one store.

    ``accounts`` holds users, applications and authentication; ``stories`` the life of one
    story; ``catalog`` the lists and search; ``sitemap`` the addresses a sitemap names
    (docs/api.md#crawlers); ``sources`` the elements of stories a writer
    may read, to add again (docs/editor.md#the-editor); ``embeds`` what the public web host serves;
    ``delegation`` creation on behalf of identity-provider users, which sends requests through
    ``provider_client`` (``storycore.contrib.identity.HttpProviderClient`` in the bindings);
    ``imports`` reads an export back, checked and derived as writes would make it;
    ``revisions`` lists, reads and restores what a story was before each change
    (docs/api.md#revisions); ``scheduler`` publishes scheduled stories when their time comes
    (docs/api.md#scheduled-publishing:
    ``publish_due`` once, ``scheduler.start()`` every second in the background); ``events``
    reads the log of every change, in order, from a cursor (docs/webhooks.md); ``webhooks`` keeps
    the endpoints editors registered, and ``deliverer`` sends them the events through
    ``webhook_sender`` (``storycore.contrib.webhooks.HttpWebhookSender`` in the bindings:
    ``deliver`` once, ``deliverer.start()`` every second in the background); ``keeper`` keeps
    the pictures stories and profiles show, fetched through ``picture_fetcher`` (the online
    resolver's ``HttpFetcher``: ``keep_media`` once; docs/media.md#how-pictures-are-kept),
    ``keep_all_media`` everything not kept yet and ``prune_media`` what nothing shows any more
    (docs/media.md#keeping-what-is-shown-and-nothing-else).

    A store written by an older derivation version (or an unknown one) is brought up to date
    once, before services open it, by ``storycore.usecases.reindex.bring_up_to_date``: a step of
    its own, which ``storycore.contrib.compose`` runs once where the store is opened first, so
    that the many services of one deployment (``serve --workers N``) do not each run it at once.

    ``at(web_url)`` is the same service answering with addresses under another web host: what
    an HTTP answer uses when ``Settings.web_url`` is not set (docs/api.md#credentials). Answers
    made outside a request then (the scheduler's events, a Python call) use ``default_web_url``:
    ``storycore serve`` gives the address it listens on; the default is ``DEFAULT_WEB_URL``
    (one that breaks the web address's rule is ``InvalidParameter``, as in ``Settings``).

    ``clock`` says what time it is (``storycore.clocks``): every timestamp the service writes,
    token expiry, the delegation rate limit, the view-count writer and the scheduler read it.
    The default is the system's; a test passes ``storycore.testing.ManualClock`` to move time
    by hand. It is an argument beside ``resolver`` and ``provider_client``, not a setting:
    settings are values read from the environment, a clock is a collaborator.
    """

    #: the services ``at`` keeps for other addresses (a ``Host`` header is the caller's choice)
    _KEPT_ADDRESSES = 64

    def __init__(
        self,
        store: Store,
        settings: Settings | None = None,
        *,
        resolver: ElementResolver | None = None,
        provider_client: ProviderClient | None = None,
        clock: Clock | None = None,
        webhook_sender: WebhookSender | None = None,
        picture_fetcher: PageFetcher | None = None,
        default_web_url: str = DEFAULT_WEB_URL,
    ) -> None:
        self.settings = settings or Settings()
        self.clock: Clock = clock if clock is not None else SystemClock()
        if resolver is None and self.settings.resolver == "online":
            raise ConfigurationError(
                "Settings.resolver 'online' fetches through a PageFetcher: pass"
                " resolver=OnlineResolver(settings, HttpFetcher(...))"
                " (storycore.resolving.online_resolver, storycore.contrib.fetch), as"
                " storycore.contrib.compose does; both come with the online extra: "
                + MissingDependencyError.install("online")
            )
        self.store = store
        self.resolver = resolver or OfflineResolver(self.settings)
        self._provider_client = provider_client
        self._views = ViewCounts(
            store.stories, max_embed_pages=self.settings.limits.embed_pages, clock=self.clock
        )
        self._limiter = RateLimiter(self.settings.delegation_rate_limit, self.clock)
        self._elsewhere: dict[str, Service] = {}
        self._build(self.settings.web_url or checked_web_url(default_web_url))
        self.scheduler = Scheduler(self.stories, self.clock)
        self.deliverer = Deliverer(self._context, webhook_sender)
        self.keeper = Keeper(self._context, picture_fetcher)

    def _build(self, web_url: str) -> None:
        """The parts, answering with addresses under ``web_url`` and the site's name (its host,
        unless ``Settings.site_name`` names it); all else (store, counts, limits) is shared."""
        presenter = Presenter(web_url, self.settings.site_name)
        context = Context(
            store=self.store,
            settings=self.settings,
            resolver=self.resolver,
            presenter=presenter,
            views=self._views,
            clock=self.clock,
        )
        self._context = context
        self.accounts = Accounts(context)
        self.stories = Stories(context)
        self.revisions = Revisions(context)
        self.catalog = Catalog(
            context, partial(shape_of, StorySummary), partial(shape_of, SearchItem)
        )
        #: the lists and search of ``catalog``, their items as documents: JSON-ready data
        #: with the interface's names, what the HTTP API writes (docs/architecture.md#answers)
        self.listings = Catalog(context, as_document, as_document)
        self.sources = Sources(context, self.catalog)
        self.embeds = Embeds(context)
        self.delegation = Delegation(
            context, self.accounts, self.stories, self._provider_client, self._limiter
        )
        self.imports = Imports(context, self.accounts)
        self.events = Events(context)
        self.webhooks = Webhooks(context)
        self.sitemap = Sitemap(context)
        self.media = KeptMedia(context)

    @property
    def web_url(self) -> str:
        """The public web host's address in this service's answers, without a trailing slash."""
        return self._context.presenter.web_url

    @property
    def site_name(self) -> str:
        """The site's name in this service's pages and feeds: ``Settings.site_name``, else the
        host of ``web_url``."""
        return self._context.presenter.site_name

    def at(self, web_url: str) -> Service:
        """This service with the addresses of its answers under ``web_url``: the same store,
        settings, clock, view counts and rate limits. Closing either closes the store.
        """
        web_url = web_url.rstrip("/")
        if web_url == self.web_url:
            return self
        found = self._elsewhere.get(web_url)
        if found is None:
            found = copy.copy(self)
            found._build(web_url)
            if len(self._elsewhere) >= self._KEPT_ADDRESSES:
                self._elsewhere.clear()
            self._elsewhere[web_url] = found
        return found

    def flush_views(self) -> None:
        """Write the views and embed loads counted so far. They are written at least once a
        second and at ``close`` anyway (docs/decisions.md#serving); a test that reads the counts
        right after counting them calls this first.
        """
        self._views.flush()

    def publish_due(self) -> int:
        """Publish the stories whose scheduled time has come (docs/api.md#scheduled-publishing); how
        many
        this call published. ``scheduler.start()`` does it every second in the background,
        as every ``storycore serve`` process does; ``storycore publish-due`` does it once.
        """
        return self.scheduler.run_once()

    def deliver(self) -> int:
        """Fan out the new events to the webhooks and make every delivery attempt due now
        (docs/webhooks.md); how many attempts this call made. ``deliverer.start()`` does
        it every second in the background, as every ``storycore serve`` process does;
        ``storycore deliver`` does it once. Without a ``webhook_sender`` nothing is sent."""
        return self.deliverer.run_once()

    def keep_media(self, limit: int = BATCH) -> int:
        """Fetch and keep every picture due now (docs/media.md#how-pictures-are-kept),
        ``limit`` at a time; how many were tried. Without a ``picture_fetcher`` nothing is
        fetched."""
        return self.keeper.keep_due(limit)

    def keep_all_media(self, progress: Progress | None = None) -> KeptAll:
        """Keep every picture not kept yet, those failed for good too, and those of stories
        and users written before pictures were kept (docs/media.md#keep-media); what was done.
        ``storycore keep-media`` does it. Without a ``picture_fetcher`` nothing is fetched."""
        return self.keeper.keep_all(progress)

    def prune_media(self, progress: Progress | None = None) -> Pruned:
        """Delete the kept pictures that no story, revision or user has shown for 7 days
        (docs/media.md#prune-media); what was deleted. ``storycore prune-media`` does it, and
        a ``serve`` that keeps pictures every day."""
        return self.keeper.walk.prune(progress)

    def close(self) -> None:
        """Stop publishing due stories, delivering events and keeping pictures, write the views
        counted so far, and close the store."""
        try:
            self.scheduler.close()
            self.deliverer.close()
            self.keeper.close()
            self._views.close()
        finally:
            self.store.close()

    def __enter__(self) -> Service:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
