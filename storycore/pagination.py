"""Pagination (decisions section 3): ``page`` from 1, ``per_page`` from 1 to the limit."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .errors import InvalidParameter
from .shapes import Page

__all__ = ["PageRequest", "page_of"]

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class PageRequest:
    """A validated page number and size."""

    page: int = 1
    per_page: int = 20

    @classmethod
    def parse(
        cls,
        page: int | str | None = None,
        per_page: int | str | None = None,
        *,
        default_per_page: int = 20,
        max_per_page: int = 100,
    ) -> PageRequest:
        """A page request from parameters as received; out of range is ``invalid_parameter``."""
        number = _integer(page, "page", 1)
        size = _integer(per_page, "per_page", default_per_page)
        if number < 1:
            raise InvalidParameter("page must be an integer of 1 or more", field="page")
        if not 1 <= size <= max_per_page:
            raise InvalidParameter(
                f"per_page must be an integer from 1 to {max_per_page}", field="per_page"
            )
        return cls(number, size)

    @property
    def offset(self) -> int:
        """How many items come before this page."""
        return (self.page - 1) * self.per_page

    @property
    def probe_limit(self) -> int:
        """How many items to fetch: one more than a page, to learn whether a next page exists."""
        return self.per_page + 1


def _integer(value: int | str | None, field: str, default: int) -> int:
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        raise InvalidParameter(f"{field} must be an integer", field=field)
    if isinstance(value, int):
        return value
    text = value.strip()
    # one optional minus sign: the range check then names the limit for a negative number
    digits = text.removeprefix("-")
    if not text.isascii() or not digits.isdigit() or len(text) > 12:
        raise InvalidParameter(f"{field} must be an integer", field=field)
    return int(text)


def page_of(
    request: PageRequest, fetched: Sequence[R], present: Callable[[Sequence[R]], list[T]]
) -> Page[T]:
    """The page shown for items fetched with ``request.probe_limit``; ``present`` turns the
    items of the page (not the probe) into what the page shows.
    """
    # unparametrized: ``Page[T]`` would build a generic subclass on every call
    return Page(
        page=request.page,
        per_page=request.per_page,
        items=present(fetched[: request.per_page]),
        has_next=len(fetched) > request.per_page,
    )
