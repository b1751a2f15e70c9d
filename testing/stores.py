"""Fresh, empty stores and services on a storage URL, one per ``with``: what a property test
needs for each example, where a pytest fixture would give every example the same one.

::

    with fresh_service("sqlite:///{dir}/stories.db") as service:
        ...  # a new Service on a new, empty store; both gone after the with

The URL must give a new, empty store each time it is opened: ``sqlite://``, ``memory://``, or
a URL with ``{dir}`` (a new temporary directory, removed on exit: ``sqlite:///{dir}/x.db``) or
``{name}`` (a new unique name; the MongoDB database or PostgreSQL schema so named is dropped on
exit: ``mongomock://{name}``, ``mongodb://host/{name}``,
``postgresql://host/db?schema={name}``). A URL that names one lasting store raises
``ConfigurationError``. Under pytest, the plugin's ``fresh_service`` fixture gives the same on
the run's storage URL, and reuses PostgreSQL schemas (emptied) from one example to the next.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from ._fresh import FreshStores, check_fresh

if TYPE_CHECKING:
    from storycore.clocks import Clock
    from storycore.ports import Store
    from storycore.service import Service
    from storycore.settings import Settings

__all__ = ["fresh_service", "fresh_store"]


def fresh_store(url: str) -> AbstractContextManager[Store]:
    """A context manager yielding a new, empty store on ``url``, closed and removed on exit."""
    return FreshStores(keep_schemas=False, copy_sqlite=False).store(check_fresh(url))


def fresh_service(
    url: str, settings: Settings | None = None, *, clock: Clock | None = None
) -> AbstractContextManager[Service]:
    """A context manager yielding a new ``Service`` on a new, empty store on ``url``, closed
    and removed on exit. ``settings`` default to the kit's: storycore's defaults, with scrypt
    at a low cost so that creating users and authenticating stay fast (as the plugin's
    ``storycore_settings``); ``clock`` to the system's (a ``ManualClock`` moves by hand)."""
    return FreshStores(keep_schemas=False, copy_sqlite=False).service(
        check_fresh(url), settings, clock=clock
    )
