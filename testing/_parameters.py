"""Strategies of the other parameters: pagination, search queries, profile updates."""

from __future__ import annotations

from typing import Final

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from storycore.rules.numbers import STORE_INT_MAX
from storycore.settings import Limits

from ._elements import permalinks
from ._text import plain_text

__all__ = ["invalid_pagination", "pagination", "profile_members", "search_queries"]

LIMITS: Final = Limits()


def _page_numbers(low: int, high: int) -> SearchStrategy[int | str]:
    number = st.integers(min_value=low, max_value=high)
    return number | number.map(str) | number.map(lambda n: f" {n} ")


def pagination(*, max_per_page: int = LIMITS.per_page) -> SearchStrategy[dict[str, int | str]]:
    """Valid ``page`` and ``per_page`` parameters, as integers or as the strings a query
    string carries, each sometimes left out (the defaults: 1 and 20).
    """
    return st.fixed_dictionaries(
        {},
        optional={
            "page": _page_numbers(1, 10_000),
            "per_page": _page_numbers(1, max_per_page),
        },
    )


def invalid_pagination(
    *, max_per_page: int = LIMITS.per_page
) -> SearchStrategy[dict[str, int | str]]:
    """``page`` and ``per_page`` parameters of which at least one is refused: zero, negative,
    over the ``per_page`` limit, beyond the integers a store holds, not an integer.
    """
    bad = st.sampled_from(["0", "-1", "1.5", "abc", "1e3", "one", "٣", "9" * 20]) | (
        st.integers(max_value=0) | st.integers(min_value=STORE_INT_MAX + 1)
    )
    bad_size = bad | st.integers(min_value=max_per_page + 1)
    return st.one_of(
        st.fixed_dictionaries({"page": bad}, optional={"per_page": _page_numbers(1, 20)}),
        st.fixed_dictionaries({"per_page": bad_size}, optional={"page": _page_numbers(1, 9)}),
    )


def search_queries(*, valid: bool = True, max_length: int = LIMITS.query) -> SearchStrategy[str]:
    """Search queries ``q``: valid ones are 1 to 200 characters and not blank; invalid ones
    (``valid=False``) are blank or over the limit.
    """
    if not valid:
        return st.sampled_from(["", " ", "\t\n", "q" * (max_length + 1)])
    words = st.sampled_from(["harbour", "Café", "#sunday", "fog", "ÉTÉ", "2026", "-", "*"])
    return (st.lists(words, min_size=1, max_size=4).map(" ".join) | plain_text(min_size=1)).filter(
        lambda q: q.strip() != "" and len(q) <= max_length
    )


def profile_members() -> SearchStrategy[dict[str, str]]:
    """The ``user`` parameter of a profile update: ``name``, ``bio``, ``location``, and
    ``website`` and ``avatar`` (http(s) addresses or ``""``), each sometimes left out.
    """
    address = st.just("") | permalinks("link")
    return st.fixed_dictionaries(
        {},
        optional={
            "name": plain_text(max_size=40),
            "bio": plain_text(max_size=120),
            "location": plain_text(max_size=40),
            "website": address,
            "avatar": st.just("") | permalinks("image"),
        },
    )
