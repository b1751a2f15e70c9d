"""Strategies for fuzzing: arbitrary JSON values shaped like stories and elements."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

__all__ = ["json_scalars", "json_values", "member_names"]

_MEMBER_NAMES = (
    "title", "slug", "description", "thumbnail", "elements", "private", "topics", "hashtags",
    "type", "id", "permalink", "data", "text", "src", "source", "attribution", "href",
    "quote", "link", "image", "video", "posted_at", "added_at", "width", "caption", "x",
)  # fmt: skip


def member_names() -> SearchStrategy[str]:
    """The member names of stories and elements (and one unknown, ``x``), for fuzzing."""
    return st.sampled_from(_MEMBER_NAMES)


def json_scalars() -> SearchStrategy[Any]:
    """JSON scalars and near misses: null, booleans, huge integers, floats with NaN, short
    text, an image address, a ``javascript:`` address, empty strings, element type names.
    """
    return (
        st.none()
        | st.booleans()
        | st.integers(min_value=-(2**70), max_value=2**70)
        | st.floats(allow_nan=True)
        | st.text(max_size=40)
        | st.sampled_from(["https://a.example/x.png", "javascript:alert(1)", "", "quote", "text"])
    )


def json_values(*, max_leaves: int = 30) -> SearchStrategy[Any]:
    """Arbitrary JSON-like values whose objects use story and element member names: what a
    client could send as ``story`` or as an element, valid or not.
    """
    return st.recursive(
        json_scalars(),
        lambda children: (
            st.lists(children, max_size=5) | st.dictionaries(member_names(), children, max_size=6)
        ),
        max_leaves=max_leaves,
    )
