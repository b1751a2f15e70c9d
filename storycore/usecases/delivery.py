"""Delivering events to webhooks, at least once (docs/webhooks.md).

What a process that serves the store does (``storycore deliver`` does it once):

1. **Fan out.** For each webhook that is not disabled, the events logged after its cursor
   become deliveries of those of its types, due now; then the cursor moves past them, if no
   other process moved it first. Storage keys deliveries by webhook and event, so two
   processes that read the same events make each delivery once. The log is read for the
   events' heads (id, type, time), not their data.
2. **Claim.** The due deliveries are leased to this process for ``LEASE`` seconds (a delivery
   is leased to one process at a time, so each event reaches each endpoint from one process at
   a time), at most ``_HOLD`` of one endpoint's at a time: a claim passes over the endpoints
   this process holds enough of, so an endpoint with a backlog (it hangs, say) does not take
   the claims of the others.
3. **Send.** Each delivery is sent when its endpoint has a place: at most ``_PER_ENDPOINT``
   attempts to one endpoint at once, each endpoint with places of its own, so a slow or hung
   endpoint holds up only its own deliveries. Each is signed as Standard Webhooks 1.0 says, and
   its outcome stored as soon as it is known, only while the lease holds.
4. **Retry.** Any answer but 2xx, a refused or dropped connection, or no whole answer within
   ``ATTEMPT_SECONDS`` is a failure: the delivery is due again after ``RETRY_DELAYS``, and
   after the last it is failed; an address the address rules refuse fails it at once. An
   endpoint whose attempts have failed for ``DISABLE_AFTER`` in a row (since its last
   success) is disabled.

5. **Prune.** After each fan-out, at most once every ``PRUNE_EVERY``, the log deletes the
   events older than ``Settings.limits.event_days`` of which no delivery is pending
   (``EventLog.prune``): the deliveries of the events just read are made first, so an event
   is never deleted before its webhooks were given it.

What is sent is ``told``: a story that is private or working reaches in full only the webhooks
registered ``private``, the others its summary (docs/webhooks.md#what-a-webhook-is-told).

In the background (``start``) a round (fan out, claim) comes every ``interval`` and does not
wait for the attempts it started: they go on beside the next rounds, and an endpoint whose
held deliveries run low is claimed for again at once. Every storage call runs in threads of
the deliverer's own (as many as the store can usefully serve, ``Store.parallel_calls``), so
the attempts under way, on the deliverer's event loop, never wait for the database.

A process killed mid-round loses nothing: what it had leased is due again when the lease ends,
and is sent again (at least once: a receiver that answered before the kill may see the event a
second time; it tells by the ``webhook-id``). Closing sends no more: the attempts under way
end and are stored, and the deliveries still waiting for a place are handed back (due again at
once, for any process). Deliveries to one endpoint are not ordered. Time is the service's
clock; sending is ``WebhookSender`` (``storycore.contrib.webhooks``).

``Deliverer.lease`` is ``LEASE`` and no setting: a test that kills a ``storycore serve`` process
mid-round starts it with a shorter one through a hook of its own, to see what it held delivered
again a few seconds later (a ``ManualClock`` cannot cross processes). A lease shorter than the
attempts of an endpoint's held deliveries take lets another process send a delivery a second
time.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import secrets
import socket
import threading
from collections import Counter
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any, NamedTuple, Protocol, TypeVar, runtime_checkable

from ..clocks import Clock
from ..errors import Missing, StorycoreError
from ..model.events import Event, event_body
from ..model.webhooks import Delivery, WebhookRecord, told
from ..rules.timestamps import format_timestamp
from ..rules.webhook_secrets import WebhookKeyError, signature, unseal
from ._rounds import RoundThread
from .context import Context
from .webhooks import ALL_EVENTS, MAX_WEBHOOKS

__all__ = [
    "ATTEMPT_SECONDS",
    "DISABLE_AFTER",
    "LEASE",
    "MAX_ANSWER_BYTES",
    "PRUNE_EVERY",
    "RETRY_DELAYS",
    "Attempt",
    "Deliverer",
    "WebhookSender",
    "told",
]

logger = logging.getLogger("storycore.webhooks")
_T = TypeVar("_T")

#: The waits before each retry of a failed delivery: 5 s, 30 s, 2 min, 10 min, 1 h, 6 h, 12 h.
RETRY_DELAYS = tuple(timedelta(seconds=s) for s in (5, 30, 120, 600, 3600, 6 * 3600, 12 * 3600))
#: An endpoint failing for this long in a row is disabled.
DISABLE_AFTER = timedelta(days=5)
#: The longest one attempt may take, answer included.
ATTEMPT_SECONDS = 5.0
#: The most of an answer's body that is read.
MAX_ANSWER_BYTES = 64 * 1024
#: How long a process holds the deliveries it took: more than the attempts of the most it
#: holds of one endpoint take (``_HOLD``).
LEASE = timedelta(seconds=60)
#: How often a deliverer prunes the event log: a delete that walks old events is not each round's.
PRUNE_EVERY = timedelta(hours=1)
#: Seconds between two rounds.
INTERVAL = 1.0
#: Attempts under way at once to one webhook, in one process: an endpoint is not sent a crowd
#: of connections (the sender's pool for an endpoint looks at each of its connections at
#: every step: a delivery costs about twice the CPU with 32 at once as with 8;
#: benchmarks/README.md, "Events and webhooks"). Each endpoint has places of its own, so
#: endpoints that hang never take another's.
_PER_ENDPOINT = 8
#: Events one read of the log fans out, and deliveries one claim takes.
_BATCH = 5 * _PER_ENDPOINT
#: The most deliveries of one endpoint a process holds: no more than the attempts to it can
#: make within ``LEASE`` (80 attempts of at most 5 s, 8 at a time: 50 s). A claim passes over
#: an endpoint holding more than ``_HOLD - _BATCH``, so one claim never takes it past this.
_HOLD = 2 * _BATCH


class Attempt(NamedTuple):
    """How one attempt went: the endpoint's HTTP status, or None when none came, and what
    went wrong (None for a 2xx). ``refused``: the address rules refused the endpoint's
    address, which a retry does not change (the delivery fails at once; once the deployment
    allows the host, a redelivery sends it)."""

    status: int | None
    error: str | None
    refused: bool = False

    @property
    def delivered(self) -> bool:
        """Whether the endpoint took the event: a 2xx answer."""
        return self.status is not None and 200 <= self.status < 300


@runtime_checkable
class WebhookSender(Protocol):
    """Sends one signed delivery: ``POST url`` with ``headers`` and ``body``.

    It never follows a redirect (a 3xx is an answer, and a failure), connects only to public
    addresses unless the deployment allowed the host (docs/resolver.md; a refusal is
    ``Attempt.refused``), reads at most ``MAX_ANSWER_BYTES`` of the answer and gives up after
    ``ATTEMPT_SECONDS``; it never raises for what the endpoint does. Its coroutines run on the
    deliverer's own event loop.
    """

    async def send(self, url: str, headers: Mapping[str, str], body: bytes) -> Attempt:
        """One attempt."""
        ...

    async def aclose(self) -> None:
        """Close the connections it keeps."""
        ...


class Deliverer:
    """Fans events out to webhooks and sends what is due: once (``run_once``) or in the
    background (``start``), on an event loop of its own."""

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
        self._lock = threading.Lock()  # one caller at a time starts, drives or closes the loop
        self._loop: asyncio.AbstractEventLoop | None = None
        self._looping: threading.Thread | None = None  # the loop's own thread, in the background
        self._storage: ThreadPoolExecutor | None = None
        self._state = _State()
        self._pruned: datetime | None = None  # when this deliverer last pruned the log
        self._settled = threading.Condition()  # told when the last attempt under way ends
        self._thread = RoundThread(
            context.clock,
            interval,
            self._background_round,
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
            return self._run(self._drain())

    def start(self) -> None:
        """Run a round every ``interval`` in a daemon thread, and the attempts on the event
        loop's own thread, until ``close``; a second start does nothing, and so does a start
        without a sender or after ``close``."""
        if self._sender is None or self._thread.stopped:
            return
        with self._lock:
            if self._looping is None:
                loop = self._event_loop()
                self._looping = threading.Thread(
                    target=loop.run_forever, name="storycore-webhook-attempts", daemon=True
                )
                self._looping.start()
        self._thread.start()

    @property
    def running(self) -> bool:
        """Whether the background thread runs."""
        return self._thread.running

    def settle(self, timeout: float = 10.0) -> bool:
        """Whether every attempt under way has ended and its outcome been stored, waiting for
        them at most ``timeout`` seconds of real time (tests, and hosts that want to know)."""
        with self._settled:
            return self._settled.wait_for(lambda: not self._state.tasks, timeout)

    def close(self) -> None:
        """Stop the background thread (after the round under way), let the attempts under way
        end and hand back the deliveries waiting for a place, then close the sender's
        connections and the loop."""
        self._thread.close()
        with self._lock:
            loop = self._loop
            if loop is None:
                return
            try:
                self._run(self._wind_down())
            finally:
                if self._looping is not None:
                    loop.call_soon_threadsafe(loop.stop)
                    self._looping.join()
                    self._looping = None
                loop.close()
                self._loop, self._state = None, _State()
                if self._storage is not None:
                    self._storage.shutdown()
                    self._storage = None

    def _event_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop

    def _run(self, work: Coroutine[object, object, _T]) -> _T:
        """``work`` done on the deliverer's loop: on its thread when it runs in the background,
        else here."""
        loop = self._event_loop()
        if self._looping is not None:
            return asyncio.run_coroutine_threadsafe(work, loop).result()
        return loop.run_until_complete(work)

    def _background_round(self) -> None:
        """A round of the background thread: fan out and claim; the attempts go on after it."""
        self._run(self._round())

    async def _call(self, call: Callable[..., _T], *args: Any) -> _T:
        """``call(*args)``, a storage call, in the deliverer's storage threads."""
        if self._storage is None:
            threads = max(1, self._ctx.store.parallel_calls)
            self._storage = ThreadPoolExecutor(threads, thread_name_prefix="storycore-webhooks")
        return await asyncio.get_running_loop().run_in_executor(
            self._storage, functools.partial(call, *args)
        )

    # -- rounds ----------------------------------------------------------------------------

    async def _round(self) -> None:
        await self._fan_out_all()
        await self._prune()
        await self._claim(self._clock.now())

    async def _drain(self) -> int:
        """Fan out, then claim and send what is due now until none is left; the attempts."""
        await self._fan_out_all()
        await self._prune()
        due = self._clock.now()
        made = 0
        while started := await self._claim(due):
            made += sum(await asyncio.gather(*started))
        return made

    async def _wind_down(self) -> None:
        """Claim nothing more (after the claim under way); wait for the attempts (those
        waiting for a place hand theirs back), then close the sender."""
        state = self._state
        state.closing = True
        async with state.claiming:
            pass
        while state.tasks:
            await asyncio.wait(list(state.tasks))
        if self._sender is not None:
            await self._sender.aclose()

    async def _fan_out_all(self) -> None:
        found = await self._call(self._ctx.store.webhooks.find, 0, MAX_WEBHOOKS)
        self._state.hooks = {hook.id: hook for hook in found}
        readers: dict[str | None, list[WebhookRecord]] = {}
        for hook in found:
            if hook.disabled is None:
                readers.setdefault(hook.cursor, []).append(hook)
        for cursor, group in readers.items():
            await self._fan_out(cursor, group)

    async def _prune(self) -> None:
        """Delete the events older than ``event_days`` that no pending delivery holds, unless
        this deliverer did within ``PRUNE_EVERY``."""
        now = self._clock.now()
        if self._pruned is not None and now - self._pruned < PRUNE_EVERY:
            return
        self._pruned = now
        before = now - timedelta(days=self._ctx.settings.limits.event_days)
        await self._call(self._ctx.store.events.prune, format_timestamp(before))

    async def _fan_out(self, cursor: str | None, hooks: list[WebhookRecord]) -> None:
        """Make the deliveries of the events logged after ``cursor`` for ``hooks``, the
        webhooks whose cursor it is: one read of the log for all of them (caught up, every
        webhook is at the same place), of the events' heads."""
        store = self._ctx.store
        while hooks and (logged := await self._call(store.events.heads_after, cursor, _BATCH)):
            due = format_timestamp(self._clock.now())
            made = [
                Delivery(hook.id, e.id, e.type, e.timestamp, next_attempt=due)
                for hook in hooks
                for _, e in logged
                if ALL_EVENTS in hook.events or e.type in hook.events
            ]
            await self._call(store.deliveries.add_many, made)
            read_to = logged[-1].cursor
            moved = [await self._call(store.webhooks.advance, hook.id, cursor, read_to)
                     for hook in hooks]  # fmt: skip
            # one that another process moved on first is left to it
            hooks = [hook for hook, went in zip(hooks, moved, strict=True) if went]
            for hook in hooks:
                hook.cursor = read_to
            cursor = read_to

    async def _claim(self, due: datetime) -> list[asyncio.Task[int]]:
        """Lease the deliveries due at ``due`` that this process has room for (at most
        ``_HOLD`` of an endpoint's held at once) and start an attempt for each; those
        attempts. One claim at a time."""
        state = self._state
        started: list[asyncio.Task[int]] = []
        async with state.claiming:
            while not state.closing:
                full = [hook_id for hook_id, held in state.held.items() if held > _HOLD - _BATCH]
                until = format_timestamp(self._clock.now() + self.lease)
                taken = await self._call(
                    self._ctx.store.deliveries.claim,
                    format_timestamp(due), until, self.owner, _BATCH, full,
                )  # fmt: skip
                started += await self._start(taken)
                if len(taken) < _BATCH:
                    break
        return started

    async def _start(self, taken: Sequence[Delivery]) -> list[asyncio.Task[int]]:
        """An attempt for each delivery of ``taken``, started."""
        if not taken:
            return []
        state, store = self._state, self._ctx.store
        events = await self._call(store.events.get_many, {d.event_id for d in taken})
        for hook_id in {d.webhook_id for d in taken} - state.hooks.keys():  # made since
            if found := await self._call(store.webhooks.get, hook_id):
                state.hooks[hook_id] = found
        loop = asyncio.get_running_loop()
        started = []
        for delivery in taken:
            state.held[delivery.webhook_id] += 1
            task = loop.create_task(self._attempt(delivery, events.get(delivery.event_id)))
            state.tasks.add(task)
            task.add_done_callback(self._ended)
            started.append(task)
        return started

    def _ended(self, task: asyncio.Task[int]) -> None:
        if not task.cancelled() and (error := task.exception()) is not None:
            logger.error("a webhook delivery failed", exc_info=error)  # a bug
        with self._settled:
            self._state.tasks.discard(task)
            if not self._state.tasks:
                self._settled.notify_all()

    # -- one delivery ----------------------------------------------------------------------

    async def _attempt(self, delivery: Delivery, event: Event | None) -> int:
        """Send ``delivery`` once its endpoint has a place, and store how it went; 1, or 0
        when no attempt was made (the webhook is gone or disabled, the event is gone, the
        lease ran out while it waited, or the deliverer closes)."""
        hook_id, state = delivery.webhook_id, self._state
        try:
            async with state.place(hook_id):
                hook = state.hooks.get(hook_id)
                if state.closing:  # handed back: due again at once, for any process
                    await self._finish(delivery)
                    return 0
                if hook is None or hook.disabled is not None or event is None:
                    reason = (
                        "the webhook is gone"
                        if hook is None
                        else "the webhook is disabled"
                        if event is not None
                        else "the event is gone"
                    )
                    failed = delivery._replace(state="failed", next_attempt=None)
                    await self._finish(failed._replace(last_error=reason))
                    return 0
                at = self._clock.now()
                if delivery.leased_until is None or format_timestamp(at) >= delivery.leased_until:
                    return 0  # another process may hold it now
                try:
                    attempt = await self._send(hook, event, at)
                except WebhookKeyError as exc:
                    attempt = Attempt(None, f"not sent: {exc}")
            await self._finish(self._after(delivery, attempt, at))
            await self._judge(hook_id, attempt)
            return 1
        except StorycoreError as exc:  # the store is busy or gone: the lease ends, it comes again
            logger.warning("a delivery's outcome was not stored (%s)", exc)
            return 0
        finally:
            self._release(hook_id)

    def _release(self, hook_id: str) -> None:
        """One delivery of ``hook_id`` less held; when the endpoint has room again, in the
        background, claim for it at once rather than at the next round."""
        state = self._state
        state.held[hook_id] -= 1
        if state.held[hook_id] <= 0:
            del state.held[hook_id]
        room_again = state.held.get(hook_id, 0) == _HOLD - _BATCH
        idle = state.refill is None or state.refill.done()
        if room_again and idle and self._looping is not None and not state.closing:
            state.refill = asyncio.get_running_loop().create_task(self._refill())

    async def _refill(self) -> None:
        try:
            await self._claim(self._clock.now())
        except (StorycoreError, WebhookKeyError) as exc:
            logger.warning("webhook deliveries wait for the next round (%s)", exc)

    async def _send(self, hook: WebhookRecord, event: Event, at: datetime) -> Attempt:
        key = self._ctx.settings.webhook_key_bytes
        if key is None:
            raise WebhookKeyError("no webhook key is set (STORYCORE_WEBHOOK_KEY)")
        secret = unseal(key, hook.secret, hook.id)
        body = event_body(told(event, hook, self._ctx.presenter.addresses))
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
        if failures > len(RETRY_DELAYS) or attempt.refused:
            return done._replace(state="failed", failures=failures, next_attempt=None)
        later = format_timestamp(at + RETRY_DELAYS[failures - 1])
        return done._replace(failures=failures, next_attempt=later)

    async def _finish(self, delivery: Delivery) -> None:
        if not await self._call(self._ctx.store.deliveries.finish, delivery, self.owner):
            logger.info("a delivery's lease ran out before its outcome was stored")

    async def _judge(self, hook_id: str, attempt: Attempt) -> None:
        """After each attempt: a success ends the endpoint's failing; a failure marks it
        failing since then, or disables it when it has failed for ``DISABLE_AFTER``."""
        hook = self._state.hooks.get(hook_id)
        if hook is None:
            return
        now = self._clock.now()
        changes: dict[str, str | None] = {}
        if attempt.delivered:
            if hook.failing_since is not None:
                changes["failing_since"] = None
        elif hook.failing_since is None:
            changes["failing_since"] = format_timestamp(now)
        elif now - _moment(hook.failing_since) >= DISABLE_AFTER and hook.disabled is None:
            changes["disabled"] = format_timestamp(now)
            logger.warning("webhook %s is disabled: failing since %s", hook_id,
                           hook.failing_since)  # fmt: skip
        if changes:  # known here first, so that the attempts ending meanwhile judge on it
            self._state.hooks[hook_id] = hook.model_copy(update=changes)
            with contextlib.suppress(Missing):  # removed meanwhile
                await self._call(self._ctx.store.webhooks.update, hook_id, changes)


class _State:
    """What one event loop of a deliverer keeps: the webhooks as last read, the deliveries
    held (claimed, their attempts not ended) by endpoint, the attempts as tasks, and each
    endpoint's places."""

    def __init__(self) -> None:
        self.hooks: dict[str, WebhookRecord] = {}
        self.held: Counter[str] = Counter()
        self.tasks: set[asyncio.Task[int]] = set()
        self.claiming = asyncio.Lock()
        self.refill: asyncio.Task[None] | None = None
        self.closing = False
        self._places: dict[str, asyncio.Semaphore] = {}

    def place(self, hook_id: str) -> asyncio.Semaphore:
        """The places of attempts to the endpoint ``hook_id``: ``_PER_ENDPOINT``."""
        found = self._places.get(hook_id)
        if found is None:
            found = self._places[hook_id] = asyncio.Semaphore(_PER_ENDPOINT)
        return found


def _moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp)
