"""Pagination (docs/api.md#pagination): ``page`` from 1, ``per_page`` from 1 to the limit."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..rules.numbers import STORE_INT_MAX, whole_number
from .kept import NOTHING_KEPT, KeptPictures
from .shapes import Page
from .trusted import construct_trusted

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
        """A page request from parameters as received; out of range is ``invalid_parameter``.

        The last page number is the one whose items a store can still count to at the largest
        page size: its offset and probe fit the stores' integers (``STORE_INT_MAX``) whatever
        ``per_page`` is sent, so the bound is one number a document can state.
        """
        size = _or_default(per_page, default_per_page)
        size = whole_number(size, "per_page", maximum=max_per_page)
        last = (STORE_INT_MAX - 1) // max_per_page
        number = whole_number(_or_default(page, 1), "page", maximum=last)
        return cls(number, size)

    @property
    def offset(self) -> int:
        """How many items come before this page."""
        return (self.page - 1) * self.per_page

    @property
    def probe_limit(self) -> int:
        """How many items to fetch: one more than a page, to learn whether a next page exists."""
        return self.per_page + 1


def _or_default(value: int | str | None, default: int) -> int | str:
    return default if value is None or value == "" else value


def page_of(
    request: PageRequest,
    fetched: Sequence[R],
    present: Callable[[Sequence[R]], list[T]],
    *,
    total: int | None = None,
    kept: KeptPictures = NOTHING_KEPT,
) -> Page[T]:
    """The page shown for items fetched with ``request.probe_limit``; ``present`` turns the
    items of the page (not the probe) into what the page shows. ``total`` is the number of
    items on every page, when it was counted; ``kept``, the kept copies of the pictures the
    items show.
    """
    # unparametrized: ``Page[T]`` would build a generic subclass on every call; made without
    # validating what this function computed
    members = {
        "page": request.page,
        "per_page": request.per_page,
        "items": present(fetched[: request.per_page]),
        "has_next": len(fetched) > request.per_page,
        "total": total,
        "kept": kept,
    }
    return construct_trusted(Page, members)
