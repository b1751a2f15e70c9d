"""Lists (docs/api.md#lists-filters-sorting-and-search): the ``sort`` names of the full shape,
``order`` desc by default,
unknown values a 400; public lists hold published, non-private stories; every list is totally
ordered by its sort key then id (docs/api.md#pagination)."""

from __future__ import annotations

import pytest

from storycore.errors import InvalidParameter
from storycore.model.queries import SORT_KEYS, StoryQuery, parse_order, parse_sort


def test_the_sort_names_are_those_of_the_full_shape() -> None:
    assert set(SORT_KEYS) == {
        "date.published",
        "date.created",
        "date.modified",
        "stats.popularity",
        "stats.views",
        "title",
    }


@pytest.mark.parametrize("value", [None, ""])
def test_the_default_sort_is_date_published(value: str | None) -> None:
    assert parse_sort(value) == "published"


@pytest.mark.parametrize(
    ("value", "member"),
    [
        ("date.created", "created"),
        ("date.modified", "updated"),
        ("stats.popularity", "popularity"),
        ("stats.views", "views"),
        ("title", "title_key"),
    ],
)
def test_a_sort_name_chooses_a_record_member(value: str, member: str) -> None:
    assert parse_sort(value) == member


def test_the_title_sort_uses_the_folded_title() -> None:
    assert parse_sort("title") == "title_key"


@pytest.mark.parametrize("value", ["popularity", "Date.Published", "id", "featured_at"])
def test_an_unknown_sort_is_invalid_parameter_listing_the_names(value: str) -> None:
    with pytest.raises(InvalidParameter) as caught:
        parse_sort(value)
    assert caught.value.field == "sort"
    assert "date.published" in caught.value.message


@pytest.mark.parametrize("value", [None, "", "desc", "DESC", "Desc"])
def test_the_order_is_descending_by_default_and_on_desc(value: str | None) -> None:
    assert parse_order(value) is True


@pytest.mark.parametrize("value", ["asc", "ASC"])
def test_asc_asks_for_ascending_order(value: str) -> None:
    assert parse_order(value) is False


@pytest.mark.parametrize("value", ["up", "ascending", " asc"])
def test_an_unknown_order_is_invalid_parameter(value: str) -> None:
    with pytest.raises(InvalidParameter) as caught:
        parse_order(value)
    assert caught.value.field == "order"


def test_a_query_by_default_lists_public_stories_newest_publication_first() -> None:
    query = StoryQuery(offset=0, limit=21)
    assert (query.audience, query.status) == ("public", None)
    assert (query.sort, query.descending) == ("published", True)
    assert (query.featured, query.author_id, query.tag, query.topic) == (False, None, None, None)


def test_a_public_query_takes_no_status() -> None:
    with pytest.raises(ValueError, match="no status"):
        StoryQuery(offset=0, limit=21, status="working")
