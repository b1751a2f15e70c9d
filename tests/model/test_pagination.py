"""Pagination (docs/api.md#pagination): ``page`` from 1 (default 1), ``per_page`` from 1 to 100
(default 20), anything else a 400 ``invalid_parameter`` naming the limit, no silent capping; a
page past the end is empty with the page echoed (docs/api.md); walking pages 1..n of a totally
ordered collection yields each item exactly once."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storycore.errors import InvalidParameter
from storycore.model.pagination import PageRequest, page_of

BOUNDED = settings(max_examples=100, deadline=None, database=None)


def _refused(page: object = None, per_page: object = None) -> InvalidParameter:
    with pytest.raises(InvalidParameter) as caught:
        PageRequest.parse(page, per_page)  # type: ignore[arg-type]
    return caught.value


def _same(items: Sequence[int]) -> list[int]:
    return list(items)


def test_the_defaults_are_page_1_of_20() -> None:
    assert PageRequest.parse() == PageRequest(1, 20)


def test_empty_parameters_take_the_defaults() -> None:
    assert PageRequest.parse("", "") == PageRequest(1, 20)


def test_the_default_page_size_is_configurable() -> None:
    assert PageRequest.parse(default_per_page=50).per_page == 50


@pytest.mark.parametrize(("page", "per_page"), [("1", "1"), ("3", "100"), (7, 25), (" 2 ", "10")])
def test_whole_numbers_in_range_are_accepted(page: object, per_page: object) -> None:
    request = PageRequest.parse(page, per_page)  # type: ignore[arg-type]
    assert (request.page, request.per_page) == (int(str(page)), int(str(per_page)))


@pytest.mark.parametrize("page", ["0", "-1", 0, -5])
def test_a_page_below_1_is_refused_naming_page(page: object) -> None:
    error = _refused(page=page)
    assert (error.type, error.field) == ("invalid_parameter", "page")


@pytest.mark.parametrize("per_page", ["0", "-1", "101", 0, 101, 1000])
def test_a_per_page_outside_1_to_100_is_refused_naming_the_limit(per_page: object) -> None:
    error = _refused(per_page=per_page)
    assert error.field == "per_page"
    assert "100" in error.message


def test_a_per_page_of_100_is_accepted_not_capped() -> None:
    assert PageRequest.parse(per_page="100").per_page == 100


def test_the_per_page_limit_is_configurable() -> None:
    with pytest.raises(InvalidParameter) as caught:
        PageRequest.parse(per_page="51", max_per_page=50)
    assert "50" in caught.value.message


@pytest.mark.parametrize(
    "value", ["abc", "1.5", "1e3", "0x10", "+2", "٣", "1_000", "9" * 30, True, False]
)
def test_a_page_that_is_not_a_whole_number_is_refused(value: object) -> None:
    assert _refused(page=value).field == "page"
    assert _refused(per_page=value).field == "per_page"


@pytest.mark.parametrize("value", ["--5", "---1"])
def test_a_page_with_repeated_minus_signs_is_refused(value: str) -> None:
    assert _refused(page=value).field == "page"


@pytest.mark.parametrize("page", [2**63 - 1, str(2**63 - 1), 2**62, 2**64, "9" * 19])
def test_a_page_whose_offset_no_store_can_hold_is_refused_naming_page(page: object) -> None:
    error = _refused(page=page)
    assert (error.type, error.field) == ("invalid_parameter", "page")


def test_the_last_page_a_store_can_count_to_at_the_largest_size_is_accepted() -> None:
    request = PageRequest.parse((2**63 - 2) // 100, 100, max_per_page=100)
    assert request.offset + request.probe_limit <= 2**63 - 1


def test_the_last_page_is_one_number_whatever_per_page_is_sent() -> None:
    """The bound a document states: it cannot depend on another parameter's value."""
    last = (2**63 - 2) // 100
    assert PageRequest.parse(last, 20, max_per_page=100).page == last
    assert _refused(page=last + 1, per_page=1).field == "page"


def test_the_offset_skips_the_earlier_pages() -> None:
    assert PageRequest(3, 20).offset == 40


def test_one_more_item_than_a_page_is_fetched_to_learn_of_a_next_page() -> None:
    assert PageRequest(1, 20).probe_limit == 21


def test_a_page_with_the_probe_item_has_a_next_page() -> None:
    page = page_of(PageRequest(1, 3), [1, 2, 3, 4], _same)
    assert (page.items, page.has_next) == ([1, 2, 3], True)


def test_a_page_without_the_probe_item_is_the_last() -> None:
    page = page_of(PageRequest(2, 3), [4, 5, 6], _same)
    assert (page.items, page.has_next) == ([4, 5, 6], False)


def test_a_page_past_the_end_is_empty_with_the_page_echoed() -> None:
    page = page_of(PageRequest(9, 20), [], _same)
    assert (page.page, page.per_page, page.items, page.has_next) == (9, 20, [], False)


def test_only_the_items_of_the_page_are_presented() -> None:
    presented: list[Sequence[int]] = []

    def present(items: Sequence[int]) -> list[str]:
        presented.append(items)
        return [str(item) for item in items]

    assert page_of(PageRequest(1, 2), [1, 2, 3], present).items == ["1", "2"]
    assert [list(items) for items in presented] == [[1, 2]]


@BOUNDED
@given(
    st.lists(st.tuples(st.integers(0, 3), st.text(max_size=3)), unique_by=lambda item: item[1]),
    st.integers(min_value=1, max_value=7),
    st.booleans(),
)
def test_walking_the_pages_of_a_totally_ordered_list_yields_each_item_once(
    items: list[tuple[int, str]], per_page: int, descending: bool
) -> None:
    ordered = sorted(items, reverse=descending)  # sort key, then id, in one direction
    seen: list[tuple[int, str]] = []
    number = 1
    while True:
        request = PageRequest.parse(str(number), str(per_page))
        fetched = ordered[request.offset : request.offset + request.probe_limit]
        page = page_of(request, fetched, list)
        seen.extend(page.items)
        if not page.has_next:
            break
        number += 1
    assert seen == ordered
    assert number == max(1, -(-len(ordered) // per_page))
