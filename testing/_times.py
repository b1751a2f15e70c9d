"""Strategies of moments and the timestamps elements carry."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Final

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

__all__ = ["ZONES", "moments", "timestamps"]

ZONES: Final[tuple[tzinfo, ...]] = (
    UTC,
    timezone(timedelta(hours=5, minutes=30)),
    timezone(-timedelta(hours=8)),
)
"""UTC, a zone half an hour off the hour (+05:30) and one behind UTC (-08:00)."""


def moments(
    *,
    min_value: datetime = datetime(1000, 1, 2),
    max_value: datetime = datetime(9999, 12, 30),
    zones: Sequence[tzinfo] = ZONES,
) -> SearchStrategy[datetime]:
    """Zone-aware datetimes between ``min_value`` and ``max_value`` (naive, read in each
    zone; by default every year storycore's four-digit timestamps can write, with a day's
    margin), in one of ``zones`` (by default ``ZONES``).
    """
    return st.datetimes(
        min_value=min_value, max_value=max_value, timezones=st.sampled_from(list(zones))
    )


def timestamps() -> SearchStrategy[str]:
    """ISO 8601 timestamps with a zone (``Z`` or an offset), as elements carry them
    (``posted_at``), between the years 2000 and 2100.
    """
    zoned = moments(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1))
    return zoned.map(lambda moment: moment.isoformat(timespec="milliseconds"))
