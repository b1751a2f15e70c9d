"""Webhooks, as editors keep them (docs/webhooks.md): register, list, read, remove, and
see and redo each event's delivery.

Only editors keep webhooks: anyone else is refused (``Unauthorized`` without credentials,
``Forbidden`` for a user). A webhook's signing secret is made here and shown once, in the
answer to its registration; storage holds it sealed under the service's webhook key
(``storycore.rules.webhook_secrets``). A new webhook receives the events logged after it was
made; ``storycore.usecases.delivery`` makes and sends its deliveries.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence

from ..errors import Conflict, Forbidden, NotFound, Unavailable
from ..input.declared import read_declared
from ..input.fields import Members
from ..model.pagination import page_of
from ..model.shapes import DeliveryItem, Page, WebhookCreated, WebhookRemoved, WebhookShape
from ..model.visibility import Viewer
from ..model.webhooks import ALL_EVENTS, WEBHOOK_EVENTS, Delivery, WebhookRecord, webhook_write
from ..rules.ids import new_webhook_id
from ..rules.webhook_secrets import new_secret, seal
from ..settings import Limits
from .catalog import PageParam
from .context import Context

__all__ = ["ALL_EVENTS", "MAX_WEBHOOKS", "Webhooks", "event_types"]

#: The most webhooks one store keeps: each is a delivery per event, so many are a cost every
#: write pays later.
MAX_WEBHOOKS = 100


def event_types(events: object) -> tuple[str, ...]:
    """``events`` as a webhook keeps them: a list of event types (or a text of them, comma
    separated), or ``["*"]`` for every one; absent is every one."""
    return WEBHOOK_EVENTS.read(Members({"events": events}, ""), "events", Limits())


class Webhooks:
    """Registering webhooks and looking after their deliveries."""

    def __init__(self, context: Context) -> None:
        self._ctx = context

    def add(
        self, url: str, events: object = None, *, private: bool = False, viewer: Viewer
    ) -> WebhookCreated:
        """Register ``url`` for ``events``; the answer holds the signing secret, shown once.
        ``private``: the webhook is told of private and working stories in full; others are
        sent their summary (docs/webhooks.md#what-a-webhook-is-told)."""
        editor = self._editor(viewer)
        settings = self._ctx.settings
        sent = {"url": url, "events": events, "private": private}
        read = read_declared(
            webhook_write(settings.resolver_allowed_hosts), Members(sent, ""), settings.limits
        )
        key = self._key()
        if len(self._ctx.store.webhooks.find(0, MAX_WEBHOOKS)) >= MAX_WEBHOOKS:
            raise Conflict(f"a store keeps at most {MAX_WEBHOOKS} webhooks: remove one first")
        webhook_id, secret = new_webhook_id(), new_secret()
        record = WebhookRecord(
            id=webhook_id,
            url=read["url"],
            events=read["events"],
            secret=seal(key, secret, webhook_id),
            created=self._ctx.now(),
            created_by=editor,
            cursor=self._ctx.store.events.end(),
            private=bool(read["private"]),
        )
        self._ctx.store.webhooks.add(record)
        return WebhookCreated(**_shown(record), secret=secret)

    def list(
        self, *, viewer: Viewer, page: PageParam = None, per_page: PageParam = None
    ) -> Page[WebhookShape]:
        """The webhooks, oldest first."""
        self._editor(viewer)
        request = self._ctx.page(page, per_page)
        found = self._ctx.store.webhooks.find(request.offset, request.probe_limit)
        return page_of(request, found, lambda hooks: [WebhookShape(**_shown(h)) for h in hooks])

    def read(self, webhook: str, *, viewer: Viewer) -> WebhookShape:
        """One webhook."""
        self._editor(viewer)
        return WebhookShape(**_shown(self._found(webhook)))

    def remove(self, webhook: str, *, viewer: Viewer) -> WebhookRemoved:
        """Remove the webhook and its deliveries: no event goes to it any more."""
        self._editor(viewer)
        if not self._ctx.store.webhooks.remove(webhook):
            raise NotFound(f"there is no webhook {webhook}")
        return WebhookRemoved(id=webhook, deleted=True)

    def deliveries(
        self,
        webhook: str,
        *,
        viewer: Viewer,
        page: PageParam = None,
        per_page: PageParam = None,
        total: bool = False,
    ) -> Page[DeliveryItem]:
        """The webhook's deliveries, newest first."""
        self._editor(viewer)
        request = self._ctx.page(page, per_page)
        self._found(webhook)
        deliveries = self._ctx.store.deliveries
        found = deliveries.of_webhook(webhook, request.offset, request.probe_limit)
        count = deliveries.count(webhook) if total else None
        return page_of(request, found, _delivery_items, total=count)

    def redeliver(self, webhook: str, event: str, *, viewer: Viewer) -> DeliveryItem:
        """Send the event to the webhook again, at once, with a new round of retries; a
        disabled webhook is enabled again (an editor says the endpoint is back)."""
        self._editor(viewer)
        found = self._found(webhook)
        now = self._ctx.now()
        if not self._ctx.store.deliveries.redeliver(webhook, event, now):
            raise NotFound(f"webhook {webhook} has no delivery of {event}")
        if found.disabled is not None or found.failing_since is not None:
            self._ctx.store.webhooks.update(webhook, {"disabled": None, "failing_since": None})
        delivery = self._ctx.store.deliveries.get(webhook, event)
        if delivery is None:  # pragma: no cover - removed with its webhook in between
            raise NotFound(f"webhook {webhook} has no delivery of {event}")
        return _delivery_items([delivery])[0]

    # -- the machinery ---------------------------------------------------------------------

    def _editor(self, viewer: Viewer) -> str:
        """Who keeps webhooks here: an editor's user id, or ``operator``; anyone else is
        refused (401 without credentials, 403 for a user)."""
        if viewer.operator:
            return "operator"
        user = self._ctx.require_user(viewer)
        if not viewer.is_editor:
            raise Forbidden("only editors keep webhooks")
        return user.id

    def _found(self, webhook_id: str) -> WebhookRecord:
        found = self._ctx.store.webhooks.get(webhook_id)
        if found is None:
            raise NotFound(f"there is no webhook {webhook_id}")
        return found

    def _key(self) -> bytes:
        key = self._ctx.settings.webhook_key_bytes
        if key is None:
            raise Unavailable(
                "webhooks need a webhook key kept outside the store: set STORYCORE_WEBHOOK_KEY"
                " (storycore webhooks key makes one)"
            )
        return key


def _shown(record: WebhookRecord) -> dict[str, object]:
    return {
        "id": record.id,
        "url": record.url,
        "events": list(record.events),
        "private": record.private,
        "created": record.created,
        "failing": record.failing_since,
        "disabled": record.disabled,
    }


def _delivery_items(deliveries: Sequence[Delivery]) -> builtins.list[DeliveryItem]:
    return [
        DeliveryItem(
            event=d.event_id,
            type=d.event_type,
            created=d.created,
            state=d.state,
            attempts=d.attempts,
            last_status=d.last_status,
            last_error=d.last_error,
            last_attempt=d.last_attempt,
            next_attempt=d.next_attempt,
        )
        for d in deliveries
    ]
