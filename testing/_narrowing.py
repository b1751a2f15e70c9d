"""How a strategy's members are narrowed: by a value, a strategy, or ``ABSENT``."""

from __future__ import annotations

from typing import Any, Final, TypeAlias, TypeVar

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

__all__ = ["ABSENT", "Absent", "Member", "either", "narrowed", "optional", "present"]

T = TypeVar("T")


class Absent:
    """The marker of a member that is never sent."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = Absent()
"""Narrow a member to "never sent": ``story_members(slug=ABSENT)``."""

Member: TypeAlias = T | SearchStrategy[T] | SearchStrategy[T | Absent] | Absent | None
"""How a member is narrowed: ``None`` (not narrowed), a value, a strategy, or ``ABSENT``."""


def narrowed(value: Member[T], default: SearchStrategy[T | Absent]) -> SearchStrategy[T | Absent]:
    """The strategy of one member: ``default`` unless narrowed."""
    if value is None:
        return default
    if isinstance(value, SearchStrategy):
        return value
    return st.just(value)


def either(value: T | SearchStrategy[T] | None, default: SearchStrategy[T]) -> SearchStrategy[T]:
    """``default`` when ``value`` is None, ``value`` when it is a strategy, else just ``value``."""
    if value is None:
        return default
    if isinstance(value, SearchStrategy):
        return value
    return st.just(value)


def optional(strategy: SearchStrategy[T]) -> SearchStrategy[T | Absent]:
    """``strategy``, or the member left out."""
    return st.just(ABSENT) | strategy


def present(members: dict[str, Any]) -> dict[str, Any]:
    """``members`` without the ones left out."""
    return {key: value for key, value in members.items() if value is not ABSENT}
