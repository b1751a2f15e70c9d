"""The slug rule (docs/api.md#slugs): what a slug may be and how one is derived from a title.

The words of the story routes (``/v1/stories/:username/create``, ``.../:slug/save``, ...) are
never slugs, so that no address of a story is also the address of an action on it, and a path
means one thing whatever method it is sent with (``ROUTE_WORDS``); nor are the words of a
story's editor pages (``/:username/:slug/edit``, ``preview``, ``history``: ``paths``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator

from slugify import slugify

from ..errors import InvalidSlug
from .paths import STORY_PAGE_WORDS

__all__ = [
    "ROUTE_WORDS",
    "SLUG_PATTERN",
    "derive_slug",
    "is_valid_slug",
    "next_free_slug",
    "slug_candidates",
    "validate_slug",
]

# ``\A`` and ``\Z``, not ``^`` and ``$`` (which accepts a final newline), so a host application
# using the pattern with ``match``, ``search`` or ``fullmatch`` applies the rule exactly
SLUG_PATTERN = re.compile(r"\A[a-z0-9]+(?:-[a-z0-9]+)*\Z")
MAX_SLUG_LENGTH = 120
FALLBACK_SLUG = "story"
#: The action words of the story routes and the words of a story's editor pages: never slugs.
ROUTE_WORDS = STORY_PAGE_WORDS | frozenset(
    {
        "create",
        "save",
        "publish",
        "unpublish",
        "delete",
        "editslug",
        "feature",
        "unfeature",
        "revisions",
    }
)


def is_valid_slug(slug: str, max_length: int = MAX_SLUG_LENGTH) -> bool:
    """Whether ``slug`` is lowercase ASCII words joined by single hyphens, within the length,
    and no route word."""
    return (
        0 < len(slug) <= max_length
        and SLUG_PATTERN.fullmatch(slug) is not None
        and slug not in ROUTE_WORDS
    )


def validate_slug(slug: str, field: str = "slug", max_length: int = MAX_SLUG_LENGTH) -> str:
    """``slug`` itself, or ``InvalidSlug`` naming ``field`` when it breaks the rule."""
    if slug in ROUTE_WORDS:
        raise InvalidSlug(
            f"{slug!r} names an action of the story routes and is never a slug", field=field
        )
    if not is_valid_slug(slug, max_length):
        shown = slug if len(slug) <= 40 else slug[:40] + "..."
        raise InvalidSlug(
            f"{shown!r} is not a valid slug: use 1 to {max_length} lowercase letters, digits "
            "and single hyphens between them",
            field=field,
        )
    return slug


def derive_slug(title: str, max_length: int = MAX_SLUG_LENGTH) -> str:
    """The slug a title gives: transliterated to ASCII, lowercased, hyphenated, cut to length.

    It is the base of the slugs a story tries (``slug_candidates``), which skip it when it is
    a route word (``create`` gives ``create-2``)."""
    slug = slugify(title, max_length=max_length, word_boundary=False, lowercase=True)
    # slugify keeps digits and letters only; a cut may leave a trailing hyphen
    slug = slug.strip("-")
    return slug or FALLBACK_SLUG


def _stem(base: str, suffix: str, max_length: int) -> str:
    return base[: max_length - len(suffix)].rstrip("-")


def slug_candidates(base: str, max_length: int = MAX_SLUG_LENGTH) -> Iterator[str]:
    """``base``, then ``base-2``, ``base-3``, ...: the slugs a derived slug tries in order.

    The base is shortened so that each suffixed slug still fits in ``max_length``; a route word
    is skipped (``create`` gives ``create-2`` first).
    """
    if base not in ROUTE_WORDS:
        yield base
    for number in itertools.count(2):
        suffix = f"-{number}"
        yield f"{_stem(base, suffix, max_length)}{suffix}"


def next_free_slug(base: str, taken: Iterable[str], max_length: int = MAX_SLUG_LENGTH) -> str:
    """The first of ``slug_candidates`` not in ``taken``."""
    used = set(taken)
    return next(slug for slug in slug_candidates(base, max_length) if slug not in used)
