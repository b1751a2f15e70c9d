"""Events: what changed, written in the same atomic write as the change (docs/webhooks.md).

An event reports one change of a story or a user. Storage keeps it with the change it reports
(``events=`` of the reporting write methods of ``storycore.ports``), so a change without its
event, or an event without its change, never exists; the log (``ports.EventLog``) hands them
out in the order their writes were committed, after a cursor the reader keeps.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, get_args

import orjson

__all__ = [
    "EVENT_TYPES",
    "Event",
    "EventHead",
    "EventType",
    "LoggedEvent",
    "LoggedHead",
    "event_body",
]

EventType = Literal[
    "story.created",
    "story.saved",
    "story.published",
    "story.unpublished",
    "story.deleted",
    "story.slug_changed",
    "story.restored",
    "story.scheduled",
    "user.created",
    "user.updated",
]
#: Every event type, in the order docs/webhooks.md names them.
EVENT_TYPES: tuple[EventType, ...] = get_args(EventType)


class Event(NamedTuple):
    """One change reported: its ``id`` (``rules.ids.new_event_id``), ``type``, ``timestamp``
    (the change's time), ``subject`` (the id of the story or user it reports on: storage keeps
    the event with that record's write) and ``data``, a JSON document: the story's full shape
    as its author sees it, ``{sid, username, slug}`` for ``story.deleted``, or the user's
    public profile.
    """

    id: str
    type: str
    timestamp: str
    subject: str
    data: str


class LoggedEvent(NamedTuple):
    """An event as the log hands it out, with the ``cursor`` that reads on after it."""

    cursor: str
    event: Event


class EventHead(NamedTuple):
    """What an event is, without its data: its ``id``, ``type`` and ``timestamp`` (the first
    members of ``Event``). A webhook's deliveries are made from these alone."""

    id: str
    type: str
    timestamp: str


class LoggedHead(NamedTuple):
    """An event's head as the log hands it out, with the ``cursor`` that reads on after it."""

    cursor: str
    head: EventHead


def event_body(event: Event) -> bytes:
    """The JSON a webhook delivers of ``event`` (docs/webhooks.md): ``type``,
    ``timestamp`` and ``data``; the event id travels in the ``webhook-id`` header."""
    return b'{"type":%s,"timestamp":%s,"data":%s}' % (
        orjson.dumps(event.type),
        orjson.dumps(event.timestamp),
        event.data.encode(),
    )
