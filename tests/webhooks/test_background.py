"""The deliverer in the background (docs/webhooks.md): ``service.deliverer.start()`` runs a
round every second of the service's clock, as every ``storycore serve`` process does, so events
reach their endpoints, and retries are made, without anyone calling ``deliver``.

The clock is a ``ManualClock``: ``wait_for_waiters`` says the thread has ended its round and
waits for the next, which comes when the clock is moved on; a round does not wait for the
attempts it started, and ``deliverer.settle()`` says they have ended, their outcomes stored.
Waiting for a request is bounded by real time (the thread's turn, not time passing).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from storycore import Service, Viewer
from storycore.usecases.delivery import _PER_ENDPOINT as PER_ENDPOINT
from storycore.usecases.delivery import INTERVAL, RETRY_DELAYS
from tests.webhooks._receiver import Receiver
from tests.webhooks.conftest import manual, only_delivery, register, write_story

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")


def test_the_background_deliverer_delivers_without_a_call(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    hook = register(service, receiver.url, ["story.created"])
    clock = manual(service)
    service.deliverer.start()
    assert clock.wait_for_waiters(1)  # its first round is over: it waits for the next
    write_story(service, alice)
    assert receiver.received == []  # no round comes until the clock moves
    clock.advance(INTERVAL)
    [request] = receiver.wait_for(1)
    assert request.verified(hook.secret)["type"] == "story.created"
    assert service.deliverer.settle()  # the attempt is over, its outcome stored
    assert only_delivery(service, hook).state == "delivered"
    service.deliverer.close()


def test_the_background_deliverer_makes_a_retry_when_it_comes_due(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.answer(500)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    clock = manual(service)
    service.deliverer.start()  # its first round, at once, makes the first attempt
    receiver.wait_for(1)
    assert service.deliverer.settle()  # the failure is stored: the retry is due after 5 s
    assert clock.wait_for_waiters(1)
    receiver.answer(204)
    clock.advance(RETRY_DELAYS[0])
    assert len(receiver.wait_for(2)) == 2
    assert service.deliverer.settle()
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.attempts) == ("delivered", 2)
    service.deliverer.close()


def test_closing_the_service_stops_the_background_deliverer(service: Service) -> None:
    service.deliverer.start()
    assert service.deliverer.running
    service.deliverer.close()
    assert not service.deliverer.running
    assert "storycore-webhooks" not in [thread.name for thread in threading.enumerate()]
    service.deliverer.start()
    assert not service.deliverer.running


def test_a_service_starts_no_deliverer_by_itself(service: Service) -> None:
    assert not service.deliverer.running


@pytest.mark.parametrize("stuck", ["hang", "trickle"])
def test_an_endpoint_that_hangs_or_trickles_does_not_hold_up_another(
    service: Service, alice: Viewer, receivers: Callable[..., Receiver], stuck: str
) -> None:
    slow, healthy = receivers(), receivers()
    getattr(slow, stuck)()
    register(service, slow.url, ["story.created"])
    for n in range(100):  # more than a process holds of one endpoint at once
        write_story(service, alice, f"Story {n}")
    clock = manual(service)
    service.deliverer.start()
    assert len(slow.wait_for(PER_ENDPOINT)) == PER_ENDPOINT  # every place of it taken, stuck
    assert clock.wait_for_waiters(1)  # the round is over: it did not wait for them
    hook = register(service, healthy.url, ["story.created"])
    write_story(service, alice, "Healthy")
    clock.advance(INTERVAL)
    [request] = healthy.wait_for(1)
    assert request.verified(hook.secret)["data"]["title"] == "Healthy"
    assert len(slow.received) == PER_ENDPOINT  # it has answered none yet
    service.deliverer.close()
