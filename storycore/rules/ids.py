"""Opaque identifiers: random, URL-safe, lowercase hex."""

from __future__ import annotations

import re
import secrets
import threading
import time

__all__ = [
    "EVENT_ID_PATTERN",
    "WEBHOOK_ID_PATTERN",
    "new_element_id",
    "new_event_id",
    "new_id",
    "new_webhook_id",
]

#: What ``new_event_id`` makes: a path naming anything else names no event.
EVENT_ID_PATTERN = re.compile(r"\Aevt_[0-9a-f]{24}\Z")
#: What ``new_webhook_id`` makes.
WEBHOOK_ID_PATTERN = re.compile(r"\Awh_[0-9a-f]{12}\Z")


def new_id() -> str:
    """A 12-character id for stories, users and applications (48 random bits)."""
    return secrets.token_hex(6)


def new_element_id() -> str:
    """A 6-character element id; unique within its story, which the normalizer ensures."""
    return secrets.token_hex(3)


_EVENT_CLOCK = threading.Lock()
_LAST_MICROS = [0]  # the last event id's microsecond in this process


def new_event_id() -> str:
    """An event id: ``evt_``, the microsecond it was made (14 hex digits, growing in each
    process: two events of one write sort as they were made, where a list orders by id) and 40
    random bits (events are many, and a receiver tells a redelivery by the id: it must not
    repeat across processes either)."""
    with _EVENT_CLOCK:
        micros = _LAST_MICROS[0] = max(time.time_ns() // 1000, _LAST_MICROS[0] + 1)
    return f"evt_{micros:014x}{secrets.token_hex(5)}"


def new_webhook_id() -> str:
    """A webhook id (``wh_`` and a ``new_id``): the prefix tells it from a story's id where
    both are printed (``storycore webhooks list``)."""
    return "wh_" + new_id()
