"""The limit on failed sign-ins: at most ``Limits.sign_ins_per_minute`` failures per username
(regardless of case) and as many per client address, in any 60 seconds of the service's clock;
past either, a sign-in is refused with ``RateLimited`` (429 and ``Retry-After``) until the
oldest of those failures leaves the minute.

The failures are kept in the store (``ports.SignInFailures``), so every process serving it
counts the same ones; ``ratelimit.RateLimiter`` counts in one process's memory. A sign-in
``check``s before it looks at the password and reports a wrong one with ``failed``: the two are
separate steps, so sign-ins running at once may each pass the check before any of them records
its failure, and a burst can pass the limit by as many as run at once; the next is refused.

A key is a kind (``username:``, ``address:``) and the SHA-256 digest of the value: a username
never meets an address, every key has one short length whatever was typed (a username that
fails is not yet checked against the username rule), and the store keeps no address or typed
username in clear.
"""

from __future__ import annotations

import hashlib
import math
from datetime import timedelta

from ..errors import RateLimited
from ..rules.timestamps import format_timestamp, moment
from ..rules.usernames import username_key
from .context import Context

__all__ = ["WINDOW", "SignInLimit"]

#: How far back failures count.
WINDOW = timedelta(seconds=60)


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{kind}:{digest}"


def _keys(username: str, address: str | None) -> list[str]:
    """The keys a sign-in as ``username`` from ``address`` counts under: the username's, and
    the address's when it is known."""
    keys = [_key("username", username_key(username))]
    if address:
        keys.append(_key("address", address))
    return keys


class SignInLimit:
    """Failed sign-ins, counted in the store of ``ctx`` on its clock, and the limit on them."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx

    def check(self, username: str, address: str | None) -> None:
        """Nothing when a sign-in as ``username`` from ``address`` (None or empty when
        unknown) may try its password; ``RateLimited`` when the username or the address has
        had ``Limits.sign_ins_per_minute`` failures in the last minute, ``retry_after`` the
        whole seconds (at least 1) until the oldest of them leaves it."""
        per_minute = self._ctx.settings.limits.sign_ins_per_minute
        now = moment(self._ctx.now())  # to the millisecond, as failures are stored
        after = format_timestamp(now - WINDOW)
        for key in _keys(username, address):
            failures = self._ctx.store.sign_in_failures.since(key, after, per_minute)
            if len(failures) >= per_minute:
                wait = (moment(failures[0]) + WINDOW - now).total_seconds()
                seconds = max(1, math.ceil(wait))
                raise RateLimited(
                    f"over {per_minute} failed sign-ins a minute; try again in {seconds} seconds",
                    retry_after=seconds,
                )

    def failed(self, username: str, address: str | None) -> None:
        """Count one failed sign-in as ``username`` from ``address`` (None or empty when
        unknown), and delete the failures that have left the minute: one more statement per
        failure, which keeps what the store holds to a minute's failures."""
        now = self._ctx.now()
        failures = self._ctx.store.sign_in_failures
        failures.add(_keys(username, address), now)
        failures.prune(format_timestamp(moment(now) - WINDOW))
