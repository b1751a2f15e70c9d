"""Conditional requests (decisions §20): entity tags and ``If-None-Match``.

``If-None-Match`` uses the weak comparison of RFC 9110 (section 13.1.2): ``W/"x"`` matches
``"x"``; the header may list several tags, and ``*`` matches any current answer.
"""

from __future__ import annotations

import re

__all__ = ["none_match"]

_TAG = re.compile(r'\s*(?:W/)?("[^"]*")\s*(?:,|$)')


def none_match(if_none_match: str | None, etag: str) -> bool:
    """Whether ``If-None-Match: if_none_match`` matches ``etag`` (then the answer is a 304)."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    opaque = etag.removeprefix("W/")
    return any(found.group(1) == opaque for found in _TAG.finditer(if_none_match))
