"""Retrying (docs/webhooks.md): any answer but a 2xx, a refused or dropped connection, or
5 s without a whole answer is retried after 5 s, 30 s, 2 min, 10 min, 1 h, 6 h and 12 h, then
the delivery is failed; an endpoint whose attempts have failed for 5 days in a row is disabled.
A delivery is attempted by one process at a time (a lease); ``redeliver`` starts it over.

Time is the service's ``ManualClock``; ``service.deliver()`` makes every attempt due now.
Signatures made at a clock moved hours on are checked without their time
(``Received.signed_with``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta

import pytest

from storycore import Service, Viewer
from storycore.model.visibility import OPERATOR
from storycore.rules.timestamps import format_timestamp
from storycore.usecases.delivery import LEASE
from tests.webhooks._receiver import Receiver, closed_port
from tests.webhooks.conftest import (
    deliveries,
    manual,
    only_delivery,
    register,
    webhook,
    write_story,
)

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

#: The waits before each retry, as docs/webhooks.md gives them.
SCHEDULE = [
    timedelta(seconds=5),
    timedelta(seconds=30),
    timedelta(minutes=2),
    timedelta(minutes=10),
    timedelta(hours=1),
    timedelta(hours=6),
    timedelta(hours=12),
]
#: How long an endpoint fails before it is disabled.
FIVE_DAYS = timedelta(days=5)
#: The least step of the stored times (milliseconds): "just before" is this much earlier.
TICK = timedelta(milliseconds=1)
#: Another process holding deliveries: its lease owner.
ELSEWHERE = "elsewhere:4242:abcdef"


def _failed_through_the_schedule(service: Service) -> None:
    """Every retry made, each when it comes due."""
    for delay in SCHEDULE:
        manual(service).advance(delay)
        assert service.deliver() == 1


# -- the schedule ----------------------------------------------------------------------------


def test_a_failed_attempt_is_retried_only_after_each_delay_of_the_schedule(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    assert service.deliver() == 1
    clock = manual(service)
    for number, delay in enumerate(SCHEDULE, start=2):
        clock.advance(delay - TICK)
        assert service.deliver() == 0, f"attempt {number} came before its {delay} wait"
        clock.advance(TICK)
        assert service.deliver() == 1, f"attempt {number} did not come after {delay}"
        assert len(receiver.received) == number


def test_a_delivery_is_failed_after_its_last_retry_fails(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    _failed_through_the_schedule(service)
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.attempts, delivery.next_attempt) == ("failed", 8, None)
    assert (delivery.last_status, delivery.last_error) == (500, "answered 500")
    manual(service).advance(days=1)
    assert service.deliver() == 0
    assert len(receiver.received) == 8


def test_every_retry_is_the_same_event_signed_anew(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(503)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    _failed_through_the_schedule(service)
    got = receiver.received
    assert len({r.headers["webhook-id"] for r in got}) == 1
    assert len({r.body for r in got}) == 1
    assert len({r.headers["webhook-timestamp"] for r in got}) == 8
    assert all(r.signed_with(hook.secret) for r in got)


def test_a_retry_comes_due_after_its_delay_and_is_shown_so(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    delivery = only_delivery(service, hook)
    now = manual(service).now()
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("pending", 1, 500)
    assert delivery.last_attempt == format_timestamp(now)
    assert delivery.next_attempt == format_timestamp(now + SCHEDULE[0])


def test_an_endpoint_that_comes_back_takes_the_event_on_the_next_retry(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    manual(service).advance(SCHEDULE[0])
    service.deliver()
    assert webhook(service, hook).failing is not None
    receiver.answer(204)
    manual(service).advance(SCHEDULE[1])
    assert service.deliver() == 1
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("delivered", 3, 204)
    assert (delivery.last_error, delivery.next_attempt) == (None, None)
    assert webhook(service, hook).failing is None
    assert receiver.received[-1].verified(hook.secret)["type"] == "story.created"


def test_the_first_failure_marks_the_endpoint_failing_since_then(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    assert webhook(service, hook).failing is None
    service.deliver()
    first = format_timestamp(manual(service).now())
    manual(service).advance(SCHEDULE[0])
    service.deliver()
    assert webhook(service, hook).failing == first


def test_a_refused_connection_is_a_failure_without_a_status(
    service: Service, alice: Viewer
) -> None:
    hook = register(service, f"http://127.0.0.1:{closed_port()}/hook", ["story.created"])
    write_story(service, alice)
    assert service.deliver() == 1
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("pending", 1, None)
    assert delivery.last_error == "the connection was refused"
    manual(service).advance(SCHEDULE[0])
    assert service.deliver() == 1


def test_a_dropped_connection_is_a_failure_without_a_status(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.drop()
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    assert service.deliver() == 1
    assert len(receiver.received) == 1  # it got the event, and hung up without answering
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("pending", 1, None)
    assert "disconnected" in (delivery.last_error or "")
    receiver.answer(204)
    manual(service).advance(SCHEDULE[0])
    assert service.deliver() == 1
    assert only_delivery(service, hook).state == "delivered"


def test_one_endpoint_s_failures_do_not_hold_back_another_s_deliveries(
    service: Service, alice: Viewer, receivers: Callable[..., Receiver]
) -> None:
    failing, working = receivers(), receivers()
    failing.answer(500)
    register(service, failing.url, ["story.created"])
    good = register(service, working.url, ["story.created"])
    write_story(service, alice)
    assert service.deliver() == 2
    assert only_delivery(service, good).state == "delivered"
    assert webhook(service, good).failing is None


# -- disabling -------------------------------------------------------------------------------


def _failing_daily(service: Service, alice: Viewer, days: int) -> None:
    """A story each day for ``days`` days, each delivered (and failing) the day it is made."""
    for day in range(days):
        manual(service).advance(days=1)
        write_story(service, alice, f"Day {day + 1}")
        assert service.deliver() >= 1


def test_an_endpoint_failing_for_5_days_in_a_row_is_disabled(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    _failing_daily(service, alice, 4)
    assert webhook(service, hook).disabled is None
    manual(service).advance(days=1)
    write_story(service, alice, "Day 5")
    service.deliver()
    now = format_timestamp(manual(service).now())
    assert webhook(service, hook).disabled == now
    [listed] = service.webhooks.list(viewer=OPERATOR).items
    assert listed.disabled == now


def test_an_endpoint_failing_for_less_than_5_days_is_not_disabled(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    _failing_daily(service, alice, 4)
    manual(service).advance(FIVE_DAYS - timedelta(days=4) - TICK)
    write_story(service, alice, "Not quite 5 days on")
    service.deliver()
    shown = webhook(service, hook)
    assert shown.failing is not None
    assert shown.disabled is None


def test_a_success_ends_the_days_of_failing(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    _failing_daily(service, alice, 3)
    receiver.answer(204)
    _failing_daily(service, alice, 1)  # delivered, this one
    assert webhook(service, hook).failing is None
    receiver.answer(500)
    _failing_daily(service, alice, 3)  # 7 days after the first failure, 3 after the success
    shown = webhook(service, hook)
    assert shown.failing is not None
    assert shown.disabled is None


def test_a_disabled_endpoint_gets_no_more_attempts_nor_deliveries(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    _failing_daily(service, alice, 5)
    assert webhook(service, hook).disabled is not None
    made = len(deliveries(service, hook))
    sent = len(receiver.received)
    write_story(service, alice, "While disabled")
    for _ in range(3):
        manual(service).advance(days=1)
        assert service.deliver() == 0
    assert len(receiver.received) == sent
    assert len(deliveries(service, hook)) == made
    assert all(d.next_attempt is None for d in deliveries(service, hook))


# -- redelivery ------------------------------------------------------------------------------


def test_redeliver_makes_a_failed_delivery_due_now(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    _failed_through_the_schedule(service)
    event = only_delivery(service, hook).event
    manual(service).advance(days=2)
    again = service.webhooks.redeliver(hook.id, event, viewer=OPERATOR)
    now = format_timestamp(manual(service).now())
    assert (again.state, again.next_attempt, again.attempts) == ("pending", now, 8)
    receiver.answer(204)
    assert service.deliver() == 1
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("delivered", 9, 204)
    assert receiver.received[-1].headers["webhook-id"] == event


def test_a_redelivered_delivery_that_fails_goes_through_the_schedule_again(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    _failed_through_the_schedule(service)
    service.webhooks.redeliver(hook.id, only_delivery(service, hook).event, viewer=OPERATOR)
    assert service.deliver() == 1
    manual(service).advance(SCHEDULE[0] - TICK)
    assert service.deliver() == 0
    manual(service).advance(TICK)
    assert service.deliver() == 1
    assert only_delivery(service, hook).attempts == 10


def test_redeliver_enables_a_disabled_endpoint_again(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    _failing_daily(service, alice, 5)
    assert webhook(service, hook).disabled is not None
    receiver.answer(204)
    first = deliveries(service, hook)[-1].event
    service.webhooks.redeliver(hook.id, first, viewer=OPERATOR)
    shown = webhook(service, hook)
    assert (shown.disabled, shown.failing) == (None, None)
    sent = len(receiver.received)
    assert service.deliver() >= 1
    assert receiver.received[sent].headers["webhook-id"] == first
    write_story(service, alice, "Back again")
    assert service.deliver() == 1
    last = receiver.received[-1]
    assert last.signed_with(hook.secret)
    assert json.loads(last.body)["data"]["title"] == "Back again"


# -- leases ----------------------------------------------------------------------------------


def test_a_delivery_another_process_holds_is_not_sent_until_its_lease_ends(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    clock = manual(service)
    clock.advance(SCHEDULE[0])
    now = clock.now()
    # another process takes the retry now, for a lease, and is killed before it sends it
    [held] = service.store.deliveries.claim(
        format_timestamp(now), format_timestamp(now + LEASE), ELSEWHERE, 10
    )
    assert held.webhook_id == hook.id
    receiver.answer(204)
    assert service.deliver() == 0
    clock.advance(LEASE - TICK)
    assert service.deliver() == 0
    assert len(receiver.received) == 1
    clock.advance(TICK)
    assert service.deliver() == 1
    assert only_delivery(service, hook).state == "delivered"
    assert receiver.received[-1].headers["webhook-id"] == held.event_id


def test_an_outcome_stored_by_the_process_holding_the_lease_is_not_sent_again(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    clock = manual(service)
    clock.advance(SCHEDULE[0])
    now = clock.now()
    [held] = service.store.deliveries.claim(
        format_timestamp(now), format_timestamp(now + LEASE), ELSEWHERE, 10
    )
    # the other process delivers it, and stores that
    finished = held._replace(state="delivered", attempts=2, last_status=204, next_attempt=None)
    assert service.store.deliveries.finish(finished, ELSEWHERE)
    clock.advance(LEASE)
    assert service.deliver() == 0
    assert len(receiver.received) == 1
    assert only_delivery(service, hook).state == "delivered"
