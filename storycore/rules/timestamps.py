"""Timestamps as the interface writes them: ISO 8601 UTC with milliseconds and ``Z``.

Stored timestamps use the same fixed-width text, so sorting the text sorts the times. What time
it is now is the service's clock's to say (``storycore.clocks``; ``Context.now`` formats it).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

__all__ = ["TIMESTAMP_SHAPE", "format_timestamp", "moment", "parse_timestamp"]

#: The shape of a timestamp the service reads: ASCII digits only, matched whole (``$`` would
#: also take a final newline); an offset of at most 23:59 with minutes up to 59, as ISO 8601
#: writes one (``datetime.fromisoformat`` would carry ``+14:60`` over into an hour). The
#: OpenAPI document's timestamp pattern is made of it.
TIMESTAMP_SHAPE = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?"
    r"(Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
)


def format_timestamp(moment: datetime) -> str:
    """``2026-11-22T10:15:30.123Z`` for an aware datetime (naive ones are taken as UTC).

    The year always has four digits (``0999``): ``strftime("%Y")`` does not pad it everywhere.
    Raises ``OverflowError`` when the time in UTC falls outside years 1 to 9999.
    """
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return f"{moment.year:04d}-{moment:%m-%dT%H:%M:%S}.{moment.microsecond // 1000:03d}Z"


def moment(stamp: str) -> datetime:
    """The aware datetime a timestamp the service wrote (``format_timestamp``) stands for."""
    return datetime.fromisoformat(stamp)


def parse_timestamp(text: str) -> str | None:
    """The normalized form of an ISO 8601 timestamp with a zone, or None when it is not one."""
    if not TIMESTAMP_SHAPE.fullmatch(text):
        return None
    try:
        return format_timestamp(datetime.fromisoformat(text.replace("Z", "+00:00")))
    except (ValueError, OverflowError):  # no such date, or out of range once moved to UTC
        return None
