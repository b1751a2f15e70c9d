"""Opaque identifiers: random, URL-safe, lowercase hex."""

from __future__ import annotations

import secrets

__all__ = ["new_element_id", "new_event_id", "new_id"]


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
