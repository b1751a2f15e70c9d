"""The slug rule (decisions section 4): what a slug may be and how one is derived from a title."""

from __future__ import annotations

import re
from collections.abc import Iterable

from slugify import slugify

from .errors import InvalidSlug

__all__ = [
    "SLUG_PATTERN",
    "derive_slug",
    "is_valid_slug",
    "next_free_slug",
    "suffix_stems",
    "validate_slug",
]

# ``\A`` and ``\Z``, not ``^`` and ``$`` (which accepts a final newline), so a host application
# using the pattern with ``match``, ``search`` or ``fullmatch`` applies the rule exactly
SLUG_PATTERN = re.compile(r"\A[a-z0-9]+(?:-[a-z0-9]+)*\Z")
MAX_SLUG_LENGTH = 120
FALLBACK_SLUG = "story"


def is_valid_slug(slug: str, max_length: int = MAX_SLUG_LENGTH) -> bool:
    """Whether ``slug`` is lowercase ASCII words joined by single hyphens, within the length."""
    return 0 < len(slug) <= max_length and SLUG_PATTERN.fullmatch(slug) is not None


def validate_slug(slug: str, field: str = "slug", max_length: int = MAX_SLUG_LENGTH) -> str:
    """``slug`` itself, or ``InvalidSlug`` naming ``field`` when it breaks the rule."""
    if not is_valid_slug(slug, max_length):
        shown = slug if len(slug) <= 40 else slug[:40] + "..."
        raise InvalidSlug(
            f"{shown!r} is not a valid slug: use 1 to {max_length} lowercase letters, digits "
            "and single hyphens between them",
            field=field,
        )
    return slug


def derive_slug(title: str, max_length: int = MAX_SLUG_LENGTH) -> str:
    """The slug a title gives: transliterated to ASCII, lowercased, hyphenated, cut to length."""
    slug = slugify(title, max_length=max_length, word_boundary=False, lowercase=True)
    # slugify keeps digits and letters only; a cut may leave a trailing hyphen
    slug = slug.strip("-")
    return slug or FALLBACK_SLUG


def _stem(base: str, suffix: str, max_length: int) -> str:
    return base[: max_length - len(suffix)].rstrip("-")


def suffix_stems(base: str, max_length: int = MAX_SLUG_LENGTH) -> set[str]:
    """Every stem ``next_free_slug`` may put before a ``-N`` suffix (up to ``-999999``), so a
    caller can ask storage for all the slugs it must avoid.
    """
    return {base} | {_stem(base, "-" + "9" * digits, max_length) for digits in range(1, 7)}


def next_free_slug(base: str, taken: Iterable[str], max_length: int = MAX_SLUG_LENGTH) -> str:
    """``base``, or ``base-2``, ``base-3``, ... : the first one not in ``taken``.

    The base is shortened so that the suffixed slug still fits in ``max_length``.
    """
    used = set(taken)
    if base not in used:
        return base
    number = 2
    while True:
        suffix = f"-{number}"
        candidate = f"{_stem(base, suffix, max_length)}{suffix}"
        if candidate not in used:
            return candidate
        number += 1
