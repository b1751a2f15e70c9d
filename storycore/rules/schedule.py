"""When a story may be scheduled to publish (docs/api.md#scheduled-publishing).

``publish_at`` is an ISO 8601 timestamp with a zone (or an aware ``datetime``), at least one
second and at most one year after now; it is stored in the service's one timestamp format
(``storycore.rules.timestamps``), so that comparing the text compares the times. A write that
does not mention it leaves a schedule as it is (``UNCHANGED``); None cancels it.
"""

from __future__ import annotations

import enum
from datetime import datetime, timedelta
from typing import Final, Literal

from ..errors import InvalidParameter
from .timestamps import format_timestamp, parse_timestamp

__all__ = ["EARLIEST", "UNCHANGED", "PublishAt", "Unchanged", "publish_time"]

#: How far ahead a schedule must be, at least.
EARLIEST: Final = timedelta(seconds=1)


class Unchanged(enum.Enum):
    """The value of ``publish_at`` that a write did not send: the schedule stays."""

    UNCHANGED = "unchanged"


UNCHANGED: Final = Unchanged.UNCHANGED

#: ``publish_at`` as a write takes it: a time, None (cancel) or ``UNCHANGED``.
PublishAt = str | datetime | Literal[Unchanged.UNCHANGED] | None


def _a_year_after(moment: datetime) -> datetime:
    try:
        return moment.replace(year=moment.year + 1)
    except ValueError:  # 29 February: a year later is 1 March
        return moment.replace(year=moment.year + 1, month=3, day=1)


def _formatted(moment: datetime) -> str | None:
    try:
        return format_timestamp(moment)
    except OverflowError:  # beyond year 9999 once in UTC
        return None


def publish_time(value: str | datetime, now: datetime, field: str = "publish_at") -> str:
    """``value`` as a stored timestamp, if it is a time from one second to one year after
    ``now``; else ``InvalidParameter`` naming ``field``."""
    if isinstance(value, datetime):
        stamp = None if value.tzinfo is None else _formatted(value)
        what = "an aware datetime"
    else:
        stamp = parse_timestamp(value) if isinstance(value, str) else None
        what = "an ISO 8601 time with a zone, such as 2026-12-01T09:00:00Z"
    if stamp is None:
        raise InvalidParameter(f"{field} must be {what}", field=field)
    earliest, latest = format_timestamp(now + EARLIEST), format_timestamp(_a_year_after(now))
    if not earliest <= stamp <= latest:
        raise InvalidParameter(
            f"{field} must be from one second to one year ahead ({earliest} to {latest})",
            field=field,
        )
    return stamp
