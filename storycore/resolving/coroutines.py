"""Running a coroutine to its end from code that does not await: the service's calls are
synchronous, while the calls it makes to other hosts (delegation's identity provider, the
online resolver) run on asyncio, where one deadline can cancel them wherever they are."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

__all__ = ["run_to_end"]

T = TypeVar("T")


def run_to_end(coroutine: Coroutine[Any, Any, T], *, thread_name: str) -> T:
    """``coroutine``'s result, run on an event loop of its own: in this thread, or, when this
    thread already runs a loop (a caller inside a coroutine), in a thread named
    ``thread_name``."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # the usual case: a worker thread with no event loop
        return asyncio.run(coroutine)
    with ThreadPoolExecutor(1, thread_name_prefix=thread_name) as pool:
        return pool.submit(asyncio.run, coroutine).result()
