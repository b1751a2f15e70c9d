"""storycore.testing: what storycore's own tests use, for a host application's tests.

Installed with ``pip install 'storycore[testing]'`` (hypothesis, pytest, httpx). Six modules:

- ``storycore.testing.strategies``: hypothesis strategies for every input a user sends (slugs,
  usernames, story members, elements, permalinks, hostile text, pagination, queries) and for
  whole stories and data sets;
- ``storycore.testing.rules``: the service's rules as pure predicates (``may_view``,
  ``is_valid_slug``, ``next_free_slug``, ...), to assert against a host application's data;
- ``storycore.testing.plugin``: the pytest plugin (loaded through the ``pytest11`` entry point)
  with fixtures: a fresh store per storage URL, a service, users, an application with its key,
  an ASGI app and a client, and ``fresh_service``, a new service per hypothesis example;
- ``storycore.testing.stores``: ``fresh_store(url)`` and ``fresh_service(url)``, context
  managers yielding a new, empty store or a service on one, removed on exit;
- ``storycore.testing.client``: a synchronous ``httpx.Client`` over any ASGI application;
- ``storycore.testing.clocks``: ``ManualClock`` (also ``storycore.testing.ManualClock``), a
  clock a test moves by hand (``advance``, ``set``) and gives the service
  (``Service(store, settings, clock=clock)``, or the plugin's ``storycore_clock`` fixture), so
  that no test sleeps for time to pass.

The core never imports this package; it imports hypothesis and httpx only where they are used,
so the plugin loads (and does nothing unasked) where the extra is not installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .clocks import ManualClock as ManualClock

__all__ = ["ManualClock", "client", "clocks", "plugin", "rules", "stores", "strategies"]

#: the names this package lends from its submodules, by the submodule that holds each
_LENT = {"ManualClock": "clocks"}


def __getattr__(name: str) -> Any:
    """The submodules, and the names lent from them, imported when first asked for
    (``storycore.testing.strategies``, ``storycore.testing.ManualClock``)."""
    if name in _LENT:
        return getattr(importlib.import_module(f"{__name__}.{_LENT[name]}"), name)
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
