"""The optional extras (docs/decisions.md#dependencies): what each brings beyond the core, and
the one rule for a part that needs one: it fails with ``MissingDependencyError``, whose message
names the extra to install, never with a bare ``ModuleNotFoundError``.

The core (``pip install storycore``) is the library on SQLite and in memory, its HTTP mapping
and its pages. ``serve`` is ``storycore serve``; ``online`` the online resolver; ``apidocs`` the
API reference's viewer; ``mongodb``, ``mongomock`` and ``postgresql`` the stores; ``testing``
the testing kit. Their packages are in ``pyproject.toml``; ``MODULES`` lists the top-level
modules of each whose absence the guards name (``tests/package/test_extras.py`` holds the two
lists together).

A part imports what an extra brings inside ``imported_from`` (where it is first needed, so that
importing ``storycore`` or a binding loads none of it), or asks for the whole extra up front with
``require`` before doing anything (``storycore serve``, before it opens the store).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Final

from .errors import MissingDependencyError

__all__ = ["MODULES", "imported_from", "installed", "require"]

#: The top-level modules each extra brings that storycore imports (uvloop and httptools, which
#: uvicorn picks up by itself, are not named).
MODULES: Final[Mapping[str, tuple[str, ...]]] = {
    "serve": ("uvicorn", "pythonjsonlogger", "httpx"),
    "online": ("httpx", "selectolax", "cachetools"),
    "apidocs": ("swagger_ui",),
    "mongodb": ("pymongo", "bson"),
    "mongomock": ("mongomock", "pymongo", "bson"),
    "postgresql": ("psycopg", "psycopg_pool"),
    "testing": ("hypothesis", "pytest", "httpx"),
}


def _missing(extra: str) -> str | None:
    """The first module of ``extra`` that is not installed (found, not imported), or None."""
    return next((m for m in MODULES[extra] if importlib.util.find_spec(m) is None), None)


def installed(extra: str) -> bool:
    """Whether every module ``extra`` brings is installed."""
    return _missing(extra) is None


def require(extra: str) -> None:
    """Raise ``MissingDependencyError`` naming ``extra`` unless all it brings is installed."""
    if (module := _missing(extra)) is not None:
        raise MissingDependencyError(module, extra)


@contextmanager
def imported_from(extra: str) -> Iterator[None]:
    """The imports in the block come from ``extra``: a module of it that is not installed raises
    ``MissingDependencyError`` naming the extra. Any other import error passes through as it is
    (a missing module that no extra brings is a bug, not a choice of the installer)."""
    try:
        yield
    except ModuleNotFoundError as exc:
        top = (exc.name or "").partition(".")[0]
        if top not in MODULES[extra]:
            raise
        raise MissingDependencyError(top, extra) from exc
