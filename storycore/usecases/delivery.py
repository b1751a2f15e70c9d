"""Delivering events to webhooks, at least once (docs/webhooks.md).

A round, in any process that serves the store (or ``storycore deliver``):

1. **Fan out.** For each webhook that is not disabled, the events logged after its cursor
   become deliveries of those of its types, due now; then the cursor moves past them, if no
   other process moved it first. Storage keys deliveries by webhook and event, so two
   processes that read the same events make each delivery once.
2. **Send.** The due deliveries are leased to this process for ``LEASE`` seconds (a delivery is
   leased to one process at a time, so each event reaches each endpoint from one process at a
   time) and sent, several at once, each signed as Standard Webhooks 1.0 says. Each outcome is
   stored as soon as it is known, and only while the lease holds.
3. **Retry.** Any answer but 2xx, a refused or dropped connection, or no whole answer within
   ``ATTEMPT_SECONDS`` is a failure: the delivery is due again after ``RETRY_DELAYS``, and
   after the last it is failed. An endpoint whose attempts have failed for
   ``DISABLE_AFTER`` in a row (since its last success) is disabled.

A process killed mid-round loses nothing: what it had leased is due again when the lease ends,
and is sent again (at least once: a receiver that answered before the kill may see the event a
second time; it tells by the ``webhook-id``). Deliveries to one endpoint are not ordered.
Time is the service's clock; sending is ``WebhookSender`` (``storycore.contrib.webhooks``).

``Deliverer.lease`` is ``LEASE`` and no setting: a test that kills a ``storycore serve`` process
mid-round starts it with a shorter one through a hook of its own, to see what it held delivered
again a few seconds later (a ``ManualClock`` cannot cross processes). A lease shorter than a
batch's attempts take lets another process send a delivery a second time.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import threading
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import NamedTuple, Protocol, runtime_checkable

from ..clocks import Clock
from ..errors import StorycoreError
from ..model.events import Event, event_body
from ..model.webhooks import Delivery, WebhookRecord
from ..rules.timestamps import format_timestamp
from ..rules.webhook_secrets import WebhookKeyError, signature, unseal
from ._context import Context
from ._rounds import RoundThread
from .webhooks import ALL_EVENTS, MAX_WEBHOOKS

__all__ = [
    "ATTEMPT_SECONDS",
    "DISABLE_AFTER",
    "LEASE",
    "MAX_ANSWER_BYTES",
    "RETRY_DELAYS",
    "Attempt",
    "Deliverer",
    "WebhookSender",
]

logger = logging.getLogger("storycore.webhooks")

#: The waits before each retry of a failed delivery: 5 s, 30 s, 2 min, 10 min, 1 h, 6 h, 12 h.
RETRY_DELAYS = tuple(timedelta(seconds=s) for s in (5, 30, 120, 600, 3600, 6 * 3600, 12 * 3600))
#: An endpoint failing for this long in a row is disabled.
DISABLE_AFTER = timedelta(days=5)
#: The longest one attempt may take, answer included.
ATTEMPT_SECONDS = 5.0
#: The most of an answer's body that is read.
MAX_ANSWER_BYTES = 64 * 1024
#: How long a process holds the deliveries it took: more than the attempts of a batch take.
LEASE = timedelta(seconds=60)
#: Seconds between two rounds when there was nothing to do.
INTERVAL = 1.0
#: Attempts under way at once in one process.
_AT_ONCE = 32
#: Attempts under way at once to one webhook, in one process: one endpoint never takes every
#: place, and is not sent a crowd of connections (the sender's pool for an endpoint looks at
#: each of its connections at every step: a delivery costs about twice the CPU with 32 at
#: once as with 8; benchmarks/README.md, "Events and webhooks").
_PER_ENDPOINT = 8
#: Events fanned out, and deliveries taken, in one go: no more than the attempts to one
#: endpoint can make within ``LEASE`` (80 attempts of at most 5 s, 8 at a time: 50 s).
_BATCH = 10 * _PER_ENDPOINT


class Attempt(NamedTuple):
    """How one attempt went: the endpoint's HTTP status, or None when none came, and what
    went wrong (None for a 2xx)."""

    status: int | None
    error: str | None

    @property
    def delivered(self) -> bool:
        """Whether the endpoint took the event: a 2xx answer."""
        return self.status is not None and 200 <= self.status < 300


@runtime_checkable
class WebhookSender(Protocol):
    """Sends one signed delivery: ``POST url`` with ``headers`` and ``body``.

    It never follows a redirect (a 3xx is an answer, and a failure), connects only to public
    addresses unless the deployment allowed the host (docs/resolver.md), reads at most
    ``MAX_ANSWER_BYTES`` of the answer and gives up after ``ATTEMPT_SECONDS``; it never raises
    for what the endpoint does. Its coroutines run on the deliverer's own event loop.
    """

    async def send(self, url: str, headers: Mapping[str, str], body: bytes) -> Attempt:
        """One attempt."""
        ...

    async def aclose(self) -> None:
        """Close the connections it keeps."""
        ...


class Deliverer:
    """Fans events out to webhooks and sends what is due: once (``run_once``) or in a
    background thread (``start``)."""

    def __init__(
        self, context: Context, sender: WebhookSender | None, *, interval: float = INTERVAL
    ) -> None:
        self._ctx = context
        self._sender = sender
        self._clock: Clock = context.clock
        #: how long a claim holds what it took: ``LEASE`` (tests shorten it, module docstring)
        self.lease = LEASE
        #: who holds a lease: this process (host and pid) and this deliverer
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._lock = threading.Lock()  # one round at a time, on the one event loop
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = RoundThread(
            context.clock,
            interval,
            self.run_once,
            name="storycore-webhooks",
            logger=logger,
            waits=(StorycoreError, WebhookKeyError),
            waiting="webhook deliveries wait for the next round",
            failed="webhook deliveries failed",
        )

    # -- running ---------------------------------------------------------------------------

    def run_once(self) -> int:
        """Fan out every new event and make every attempt due now (retries that come due
        meanwhile wait for the next round); how many attempts this call made."""
        if self._sender is None:
            return 0
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
            return self._loop.run_until_complete(self._round())

    def start(self) -> None:
        """Run a round every ``interval`` in a daemon thread, until ``close``; a second start
        does nothing, and so does a start without a sender."""
        if self._sender is not None:
            self._thread.start()

    @property
    def running(self) -> bool:
        """Whether the background thread runs."""
        return self._thread.running

    def close(self) -> None:
        """Stop the background thread (after the round under way) and close the sender's
        connections."""
        self._thread.close()
        with self._lock:
            if self._loop is not None:
                if self._sender is not None:
                    self._loop.run_until_complete(self._sender.aclose())
                self._loop.close()
                self._loop = None

    # -- a round ---------------------------------------------------------------------------

    async def _round(self) -> int:
        hooks = {hook.id: hook for hook in self._ctx.store.webhooks.find(0, MAX_WEBHOOKS)}
        readers: dict[str | None, list[WebhookRecord]] = {}
        for hook in hooks.values():
            if hook.disabled is None:
                readers.setdefault(hook.cursor, []).append(hook)
        for cursor, group in readers.items():
            self._fan_out(cursor, group)
        attempts = 0
        while not self._thread.stopped:
            now = self._clock.now()
            until = format_timestamp(now + self.lease)
            taken = self._ctx.store.deliveries.claim(
                format_timestamp(now), until, self.owner, _BATCH
            )
            if not taken:
                break
            attempts += await self._send_all(taken, hooks)
            if len(taken) < _BATCH:
                break
        return attempts

    def _fan_out(self, cursor: str | None, hooks: list[WebhookRecord]) -> None:
        """Make the deliveries of the events logged after ``cursor`` for ``hooks``, the
        webhooks whose cursor it is: one read of the log for all of them (caught up, every
        webhook is at the same place)."""
        store = self._ctx.store
        while hooks and (logged := store.events.after(cursor, _BATCH)):
            due = format_timestamp(self._clock.now())
            store.deliveries.add_many(
                Delivery(hook.id, e.id, e.type, e.timestamp, next_attempt=due)
                for hook in hooks
                for _, e in logged
                if ALL_EVENTS in hook.events or e.type in hook.events
            )
            read_to = logged[-1].cursor
            # one that another process moved on first is left to it
            hooks = [hook for hook in hooks if store.webhooks.advance(hook.id, cursor, read_to)]
            for hook in hooks:
                hook.cursor = read_to
            cursor = read_to

    async def _send_all(self, taken: Sequence[Delivery], hooks: dict[str, WebhookRecord]) -> int:
        events = self._ctx.store.events.get_many({d.event_id for d in taken})
        missing = {d.webhook_id for d in taken} - hooks.keys()
        for hook_id in missing:  # made since the round began
            if found := self._ctx.store.webhooks.get(hook_id):
                hooks[hook_id] = found
        gate = asyncio.Semaphore(_AT_ONCE)
        endpoints = {d.webhook_id: asyncio.Semaphore(_PER_ENDPOINT) for d in taken}
        outcomes = await asyncio.gather(
            *(self._attempt(d, hooks.get(d.webhook_id), events.get(d.event_id),
                            endpoints[d.webhook_id], gate)
              for d in taken)
        )  # fmt: skip
        self._judge_endpoints(hooks, outcomes)
        return sum(1 for _, attempt in outcomes if attempt is not None)

    async def _attempt(
        self,
        delivery: Delivery,
        hook: WebhookRecord | None,
        event: Event | None,
        endpoint: asyncio.Semaphore,
        gate: asyncio.Semaphore,
    ) -> tuple[str, Attempt | None]:
        """Send ``delivery`` and store how it went; the webhook's id and the attempt (None
        when none was made: the webhook is gone or disabled). It waits for a place among the
        endpoint's attempts first, then among the process's, so that a wait for a busy
        endpoint holds none of the others' places."""
        if hook is None or hook.disabled is not None or event is None:
            reason = (
                "the webhook is gone"
                if hook is None
                else "the webhook is disabled"
                if event is not None
                else "the event is gone"
            )
            self._finish(delivery._replace(state="failed", next_attempt=None, last_error=reason))
            return delivery.webhook_id, None
        async with endpoint, gate:
            at = self._clock.now()
            try:
                attempt = await self._send(hook, event, at)
            except WebhookKeyError as exc:
                attempt = Attempt(None, f"not sent: {exc}")
        self._finish(self._after(delivery, attempt, at))
        return hook.id, attempt

    async def _send(self, hook: WebhookRecord, event: Event, at: datetime) -> Attempt:
        key = self._ctx.settings.webhook_key_bytes
        if key is None:
            raise WebhookKeyError("no webhook key is set (STORYCORE_WEBHOOK_KEY)")
        secret = unseal(key, hook.secret, hook.id)
        body = event_body(event)
        stamp = int(at.timestamp())
        headers = {
            "content-type": "application/json",
            "user-agent": "storycore-webhooks",
            "webhook-id": event.id,
            "webhook-timestamp": str(stamp),
            "webhook-signature": signature(secret, event.id, stamp, body),
        }
        assert self._sender is not None
        return await self._sender.send(hook.url, headers, body)

    @staticmethod
    def _after(delivery: Delivery, attempt: Attempt, at: datetime) -> Delivery:
        """``delivery`` once ``attempt`` was made at ``at``."""
        done = delivery._replace(
            attempts=delivery.attempts + 1,
            last_status=attempt.status,
            last_error=attempt.error,
            last_attempt=format_timestamp(at),
        )
        if attempt.delivered:
            return done._replace(state="delivered", next_attempt=None)
        failures = delivery.failures + 1
        if failures > len(RETRY_DELAYS):
            return done._replace(state="failed", failures=failures, next_attempt=None)
        later = format_timestamp(at + RETRY_DELAYS[failures - 1])
        return done._replace(failures=failures, next_attempt=later)

    def _finish(self, delivery: Delivery) -> None:
        if not self._ctx.store.deliveries.finish(delivery, self.owner):
            logger.info("a delivery's lease ran out before its outcome was stored")

    def _judge_endpoints(
        self,
        hooks: dict[str, WebhookRecord],
        outcomes: Sequence[tuple[str, Attempt | None]],
    ) -> None:
        """Mark endpoints failing since their first failure after a success, and disable those
        failing for ``DISABLE_AFTER``; a success ends the failing."""
        now = self._clock.now()
        went: dict[str, bool] = {}
        for hook_id, attempt in outcomes:
            if attempt is not None:
                went[hook_id] = went.get(hook_id, False) or attempt.delivered
        for hook_id, any_delivered in went.items():
            hook = hooks[hook_id]
            changes: dict[str, str | None] = {}
            if any_delivered:
                if hook.failing_since is not None:
                    changes["failing_since"] = None
            elif hook.failing_since is None:
                changes["failing_since"] = format_timestamp(now)
            elif now - _moment(hook.failing_since) >= DISABLE_AFTER and hook.disabled is None:
                changes["disabled"] = format_timestamp(now)
                logger.warning("webhook %s is disabled: failing since %s", hook_id,
                               hook.failing_since)  # fmt: skip
            if changes:
                self._ctx.store.webhooks.update(hook_id, changes)
                hooks[hook_id] = hook.model_copy(update=changes)


def _moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp)
