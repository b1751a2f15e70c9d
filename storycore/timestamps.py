"""Timestamps as the interface writes them: ISO 8601 UTC with milliseconds and ``Z``.

Stored timestamps use the same fixed-width text, so sorting the text sorts the times.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

__all__ = ["format_timestamp", "now", "parse_timestamp"]

_SHAPE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$")


def format_timestamp(moment: datetime) -> str:
    """``2026-11-22T10:15:30.123Z`` for an aware datetime (naive ones are taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def now() -> str:
    """The current time, formatted."""
    return format_timestamp(datetime.now(UTC))


def parse_timestamp(text: str) -> str | None:
    """The normalized form of an ISO 8601 timestamp with a zone, or None when it is not one."""
    if not _SHAPE.match(text):
        return None
    try:
        return format_timestamp(datetime.fromisoformat(text.replace("Z", "+00:00")))
    except ValueError:
        return None
