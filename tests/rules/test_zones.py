"""Local times in IANA time zones (storycore.rules.zones): a date and a time of day in a zone
as the moment in UTC it means, with the hours the clocks skip and repeat."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from storycore.errors import InvalidParameter
from storycore.rules.zones import known_zone, local_moment, utc_moment, zone_names


def test_utc_comes_first_then_every_other_zone_in_alphabetical_order() -> None:
    names = zone_names()
    assert names[0] == "UTC"
    assert "UTC" not in names[1:]
    assert list(names[1:]) == sorted(names[1:])
    assert "Europe/Paris" in names


def test_a_local_time_is_the_utc_moment_it_means_in_its_zone() -> None:
    assert utc_moment("2026-12-01", "10:30", "Europe/Paris") == datetime(
        2026, 12, 1, 9, 30, tzinfo=UTC
    )
    assert utc_moment("2026-07-01", "10:30", "Europe/Paris") == datetime(
        2026, 7, 1, 8, 30, tzinfo=UTC
    )


def test_a_local_time_the_clocks_skip_is_refused_naming_the_time() -> None:
    with pytest.raises(InvalidParameter) as refused:
        utc_moment("2027-03-28", "02:30", "Europe/Paris")
    assert refused.value.field == "time"
    assert "clocks skip" in refused.value.message


def test_a_local_time_the_clocks_pass_twice_is_its_first_occurrence() -> None:
    # on 25 October 2026 Paris goes from 03:00 CEST back to 02:00 CET: 02:30 happens twice
    assert utc_moment("2026-10-25", "02:30", "Europe/Paris") == datetime(
        2026, 10, 25, 0, 30, tzinfo=UTC
    )


@pytest.mark.parametrize(
    ("day", "clock", "zone", "field"),
    [
        ("2026-02-30", "10:00", "UTC", "date"),
        ("1 December", "10:00", "UTC", "date"),
        ("", "10:00", "UTC", "date"),
        ("0001-01-01", "00:00", "Asia/Tokyo", "date"),
        ("2026-12-01", "25:00", "UTC", "time"),
        ("2026-12-01", "10h30", "UTC", "time"),
        ("2026-12-01", "10:30", "Mars/Olympus_Mons", "zone"),
        ("2026-12-01", "10:30", "", "zone"),
    ],
)
def test_what_is_not_a_date_a_time_or_a_zone_is_refused_naming_it(
    day: str, clock: str, zone: str, field: str
) -> None:
    with pytest.raises(InvalidParameter) as refused:
        utc_moment(day, clock, zone)
    assert refused.value.field == field


def test_a_zone_that_is_not_known_is_none_and_shows_utc() -> None:
    assert known_zone("Europe/Paris") == "Europe/Paris"
    assert known_zone("europe/paris") is None
    assert known_zone(None) is None
    moment = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
    assert local_moment(moment, "Nowhere/At_All").utcoffset().total_seconds() == 0  # type: ignore[union-attr]
