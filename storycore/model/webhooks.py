"""Webhooks and their deliveries (docs/webhooks.md), as storage keeps them.

A webhook is an endpoint an editor registered for some event types. Its ``cursor`` says how far
into the event log (``ports.EventLog``) its deliveries were made: a delivery is made for each
later event of its types (once: storage keys deliveries by webhook and event), then attempted
until the endpoint answers 2xx or the retry schedule ends (``rules.retries``).
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

import orjson
from pydantic import BaseModel, ConfigDict

from ..input.declared import Declaration, EventTypes, Flag, WebhookAddress
from ..rules.permalinks import Permalinks
from .events import EVENT_TYPES, Event

__all__ = [
    "ALL_EVENTS",
    "WEBHOOK_EVENTS",
    "Delivery",
    "DeliveryState",
    "WebhookRecord",
    "told",
    "webhook_write",
]

#: What ``events`` holds for a webhook that receives every event.
ALL_EVENTS: Final = "*"
#: The event types a webhook receives, as its registration takes them.
WEBHOOK_EVENTS: Final = EventTypes(EVENT_TYPES, ALL_EVENTS)

DeliveryState = Literal["pending", "delivered", "failed"]


class WebhookRecord(BaseModel):
    """A registered endpoint. ``secret`` is its signing secret sealed with the service's key
    (``storycore.rules.sealing``): a stolen store does not hold it in clear. ``events`` is a
    tuple of event types, or ``("*",)`` for every one. ``failing_since`` is the time of the
    first failed attempt since its last success; ``disabled`` the time it was disabled.
    ``private``: it is told of private and working stories in full, where other webhooks are
    sent their summary (``told``)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=False)

    id: str
    url: str
    events: tuple[str, ...]
    secret: str
    created: str
    created_by: str
    cursor: str | None = None
    failing_since: str | None = None
    disabled: str | None = None
    private: bool = False


class Delivery(NamedTuple):
    """One event to one webhook, and how its attempts went.

    ``failures`` counts the failed attempts since it was made or redelivered (the retry
    schedule's step); ``attempts`` every attempt. ``last_status`` is the endpoint's HTTP status,
    or None when it gave none (refused, dropped, too slow); ``last_error`` says what went wrong.
    ``next_attempt`` is when it is due (None once delivered or failed). A process attempting it
    holds it until ``leased_until`` (``leased_by`` names the process).
    """

    webhook_id: str
    event_id: str
    event_type: str
    created: str
    state: DeliveryState = "pending"
    attempts: int = 0
    failures: int = 0
    last_status: int | None = None
    last_error: str | None = None
    last_attempt: str | None = None
    next_attempt: str | None = None
    leased_until: str | None = None
    leased_by: str | None = None


def webhook_write(allowed_hosts: tuple[str, ...]) -> Declaration:
    """The members a webhook registration takes (docs/webhooks.md), in order, where the
    deployment allowed ``allowed_hosts`` (docs/resolver.md): its address, the event types it
    receives, and whether it is told of private and working stories in full."""
    return {
        "url": WebhookAddress(allowed_hosts),
        "events": WEBHOOK_EVENTS,
        "private": Flag(),
    }


#: What a webhook not registered ``private`` is told of a private or working story.
_SUMMARY = ("sid", "username", "slug", "status", "private")


def told(event: Event, hook: WebhookRecord, addresses: Permalinks) -> Event:
    """``event`` as ``hook`` is told it (docs/webhooks.md#what-a-webhook-is-told): in full,
    unless it reports a story that is private or working and ``hook`` is not ``private``: then
    its data is the story's ``sid``, its author's username (read from its permalink under
    ``addresses``; null for one made under another web address), ``slug``, ``status`` and
    ``private``, and nothing of its content. The log and its Python reader keep the full data."""
    if hook.private or not event.type.startswith("story."):
        return event
    story = orjson.loads(event.data)
    if "status" not in story or (story["status"] != "working" and story["private"] is not True):
        return event  # a public story, or one deleted (whose data names it only)
    named = addresses.parse_story(story["permalink"])
    summary = {**story, "username": named[0] if named else None}
    data = orjson.dumps({name: summary[name] for name in _SUMMARY})
    return event._replace(data=data.decode())
