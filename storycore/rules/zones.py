"""Local times in IANA time zones (docs/editor.md#publishing-the-address-and-deleting): the
zones a writer may schedule in, and a date and a time of day in one of them as the moment in
UTC that ``publish_at`` takes.

The zones are those of the system's time-zone database (or of the ``tzdata`` package where
Python finds it), UTC always among them and first. A local time the clocks skip (the hour
lost when they go forward) is refused; one they pass twice (the hour repeated when they go
back) is its first occurrence, the earlier moment.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from ..errors import InvalidParameter

__all__ = ["DEFAULT_ZONE", "known_zone", "local_moment", "utc_moment", "zone_names"]

#: The zone of a form that names none, or names one that is not known.
DEFAULT_ZONE = "UTC"

#: A date as a form's date field sends it (``2026-12-01``), and a time of day as its time
#: field does (``10:30``, or ``10:30:15`` with seconds).
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_TIME = re.compile(r"[0-9]{2}:[0-9]{2}(?::[0-9]{2})?")
_NOT_A_DATE = "Enter a date, such as 2026-12-01."
_NOT_A_TIME = "Enter a time of day, such as 10:30."


@cache
def zone_names() -> tuple[str, ...]:
    """Every zone a writer may choose: UTC first, then the others in alphabetical order."""
    others = available_timezones() - {DEFAULT_ZONE}
    return (DEFAULT_ZONE, *sorted(others))


def known_zone(name: str | None) -> str | None:
    """``name`` when it is one of ``zone_names``, else None."""
    return name if name and name in _known() else None


@cache
def _known() -> frozenset[str]:
    return frozenset(zone_names())


def _zone(name: str) -> tzinfo:
    return UTC if name == DEFAULT_ZONE else ZoneInfo(name)


def utc_moment(day: str, clock_time: str, zone: str) -> datetime:
    """The moment in UTC that the local ``day`` (``2026-12-01``) at ``clock_time`` (``10:30``)
    means in ``zone``; ``InvalidParameter`` naming ``date``, ``time`` or ``zone`` for a value
    that is not one, or for a local time that ``zone``'s clocks skip."""
    local_day = _parsed_day(day)
    local_time = _parsed_time(clock_time)
    if known_zone(zone) is None:
        raise InvalidParameter("Choose a time zone from the list.", field="zone")
    where = _zone(zone)
    local = datetime.combine(local_day, local_time, tzinfo=where)  # fold=0: the first of two
    try:
        moment = local.astimezone(UTC)
    except OverflowError:  # a day at the very edge of the calendar
        raise InvalidParameter(_NOT_A_DATE, field="date") from None
    if moment.astimezone(where).replace(tzinfo=None) != local.replace(tzinfo=None):
        raise InvalidParameter(
            f"There is no {clock_time} on {day} in {zone}: the clocks skip that hour. "
            "Choose another time.",
            field="time",
        )
    return moment


def local_moment(moment: datetime, zone: str) -> datetime:
    """``moment`` as the clocks of ``zone`` show it (of UTC when the zone is not known)."""
    return moment.astimezone(_zone(known_zone(zone) or DEFAULT_ZONE))


def _parsed_day(day: str) -> date:
    problem = InvalidParameter(_NOT_A_DATE, field="date")
    if not _DATE.fullmatch(day):
        raise problem
    try:
        return date.fromisoformat(day)
    except ValueError:
        raise problem from None


def _parsed_time(clock_time: str) -> time:
    problem = InvalidParameter(_NOT_A_TIME, field="time")
    if not _TIME.fullmatch(clock_time):
        raise problem
    try:
        return time.fromisoformat(clock_time)
    except ValueError:
        raise problem from None
