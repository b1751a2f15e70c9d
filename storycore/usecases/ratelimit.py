"""A per-key rate limit over a sliding minute, kept in this process's memory.

Several processes serving one store each keep their own count, so the limit a client meets is
per process; the limit exists to stop one application from flooding an identity provider.
"""

from __future__ import annotations

import math
import threading
from collections import deque

from ..clocks import Clock
from ..errors import RateLimited

__all__ = ["RateLimiter"]

WINDOW_SECONDS = 60.0


class RateLimiter:
    """At most ``per_minute`` hits for each key in any 60 seconds of ``clock``'s monotonic
    time (the service's clock: a wall clock set back or forward moves no window)."""

    def __init__(self, per_minute: int, clock: Clock) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> None:
        """Count one hit, or raise ``RateLimited`` (with ``Retry-After``) when over the limit."""
        with self._lock:
            now = self._clock.monotonic()
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - WINDOW_SECONDS:
                hits.popleft()
            if len(hits) >= self.per_minute:
                wait = max(1, math.ceil(hits[0] + WINDOW_SECONDS - now))
                raise RateLimited(
                    f"over {self.per_minute} requests a minute; try again later", retry_after=wait
                )
            hits.append(now)
