"""Opaque identifiers: random, URL-safe, lowercase hex."""

from __future__ import annotations

import re
import secrets

__all__ = [
    "EVENT_ID_PATTERN",
    "WEBHOOK_ID_PATTERN",
    "new_element_id",
    "new_event_id",
    "new_id",
    "new_webhook_id",
]

#: What ``new_event_id`` makes: a path naming anything else names no event.
EVENT_ID_PATTERN = re.compile(r"\Aevt_[0-9a-f]{16}\Z")
#: What ``new_webhook_id`` makes.
WEBHOOK_ID_PATTERN = re.compile(r"\Awh_[0-9a-f]{12}\Z")


def new_id() -> str:
    """A 12-character id for stories, users and applications (48 random bits)."""
    return secrets.token_hex(6)


def new_element_id() -> str:
    """A 6-character element id; unique within its story, which the normalizer ensures."""
    return secrets.token_hex(3)


def new_event_id() -> str:
    """An event id (``evt_`` and 64 random bits): events are many, and a webhook receiver
    tells a redelivery by its id, so it must not repeat."""
    return "evt_" + secrets.token_hex(8)


def new_webhook_id() -> str:
    """A webhook id (``wh_`` and a ``new_id``): the prefix tells it from a story's id where
    both are printed (``storycore webhooks list``)."""
    return "wh_" + new_id()
