"""Timestamps: ISO 8601 UTC with milliseconds and ``Z``, ``2026-11-22T10:15:30.123Z``
(docs/api.md#stories); stored in the same fixed-width text, so text order is time order."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings

from storycore.rules import timestamps
from storycore.rules.timestamps import format_timestamp, parse_timestamp
from storycore.testing.strategies import moments

BOUNDED = settings(max_examples=100, deadline=None, database=None)
SHAPE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")
MODERN = moments()  # every year the four-digit form writes, in three zones


def test_a_timestamp_has_milliseconds_and_z() -> None:
    moment = datetime(2026, 11, 22, 10, 15, 30, 123456, tzinfo=UTC)
    assert format_timestamp(moment) == "2026-11-22T10:15:30.123Z"


def test_milliseconds_are_truncated_not_rounded() -> None:
    moment = datetime(2026, 11, 22, 10, 15, 30, 999999, tzinfo=UTC)
    assert format_timestamp(moment) == "2026-11-22T10:15:30.999Z"


def test_a_whole_second_still_shows_milliseconds() -> None:
    assert format_timestamp(datetime(2026, 1, 1, tzinfo=UTC)) == "2026-01-01T00:00:00.000Z"


def test_another_zone_is_converted_to_utc() -> None:
    moment = datetime(2026, 1, 1, 1, 30, tzinfo=timezone(timedelta(hours=2)))
    assert format_timestamp(moment) == "2025-12-31T23:30:00.000Z"


def test_a_naive_time_is_taken_as_utc() -> None:
    assert format_timestamp(datetime(2026, 1, 1, 12)) == "2026-01-01T12:00:00.000Z"


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("2026-11-22T10:15:30Z", "2026-11-22T10:15:30.000Z"),
        ("2026-11-22T10:15:30.1Z", "2026-11-22T10:15:30.100Z"),
        ("2026-11-22T10:15:30.123456Z", "2026-11-22T10:15:30.123Z"),
        ("2026-11-22T10:15:30+02:00", "2026-11-22T08:15:30.000Z"),
        ("2026-11-22T10:15:30.5-03:30", "2026-11-22T13:45:30.500Z"),
    ],
)
def test_a_zoned_iso_timestamp_is_normalized(text: str, normalized: str) -> None:
    assert parse_timestamp(text) == normalized


@pytest.mark.parametrize(
    "text",
    [
        "2026-11-22",
        "2026-11-22T10:15:30",
        "2026-11-22 10:15:30Z",
        "2026-13-01T00:00:00Z",
        "2026-02-30T00:00:00Z",
        "2026-11-22T10:15:30.1234567Z",
        "2026-11-22T10:15:30+0200",
        "2026-11-22T10:15:30Z\n",
        "tomorrow",
        "",
    ],
)
def test_anything_but_a_zoned_iso_timestamp_is_not_parsed(text: str) -> None:
    assert parse_timestamp(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "2026-11-30T10:00:00+14:60",
        "2026-11-30T10:00:00-00:60",
        "2026-11-30T10:00:00+00:99",
        "2026-11-30T10:00:00+24:00",
        "2026-11-30T10:00:00-99:00",
    ],
)
def test_an_offset_beyond_23_59_or_with_minutes_beyond_59_is_not_parsed(text: str) -> None:
    assert parse_timestamp(text) is None


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("2026-11-30T10:00:00+23:59", "2026-11-29T10:01:00.000Z"),
        ("2026-11-30T10:00:00-23:59", "2026-12-01T09:59:00.000Z"),
        ("2026-11-30T10:00:00+14:59", "2026-11-29T19:01:00.000Z"),
    ],
)
def test_the_widest_offsets_are_read(text: str, normalized: str) -> None:
    assert parse_timestamp(text) == normalized


@pytest.mark.parametrize("text", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"])
def test_a_timestamp_outside_the_representable_range_is_not_parsed(text: str) -> None:
    assert parse_timestamp(text) is None


def test_a_year_before_1000_is_written_with_four_digits() -> None:
    assert format_timestamp(datetime(999, 1, 1, tzinfo=UTC)) == "0999-01-01T00:00:00.000Z"


@BOUNDED
@given(MODERN)
def test_every_formatted_time_has_the_timestamp_shape(moment: datetime) -> None:
    assert SHAPE.fullmatch(format_timestamp(moment))


@BOUNDED
@given(MODERN)
def test_a_formatted_timestamp_parses_to_itself(moment: datetime) -> None:
    text = format_timestamp(moment)
    assert parse_timestamp(text) == text


@BOUNDED
@given(MODERN, MODERN)
def test_timestamp_text_sorts_in_time_order(first: datetime, second: datetime) -> None:
    if first <= second:
        assert format_timestamp(first) <= format_timestamp(second)
    else:
        assert format_timestamp(first) >= format_timestamp(second)


@BOUNDED
@given(MODERN)
def test_moment_reads_a_timestamp_as_the_time_it_was_written_for(written: datetime) -> None:
    read = timestamps.moment(format_timestamp(written))
    assert read.utcoffset() == timedelta(0)
    assert timedelta(0) <= written - read < timedelta(milliseconds=1)  # to the millisecond
