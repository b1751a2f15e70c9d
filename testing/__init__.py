"""storycore.testing: what storycore's own tests use, for a host application's tests.

Installed with ``pip install 'storycore[testing]'`` (hypothesis, pytest, httpx). Five modules:

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
- ``storycore.testing.client``: a synchronous ``httpx.Client`` over any ASGI application.

The core never imports this package; it imports hypothesis and httpx only where they are used,
so the plugin loads (and does nothing unasked) where the extra is not installed.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["client", "plugin", "rules", "stores", "strategies"]


def __getattr__(name: str) -> ModuleType:
    """The submodules, imported when first asked for (``storycore.testing.strategies``)."""
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
