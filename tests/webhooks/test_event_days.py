"""Events do not live for ever (docs/webhooks.md#how-long-events-are-kept): the deliverer's
rounds delete the events older than ``Settings.limits.event_days`` (30 by default) once no
delivery of theirs is pending, the newest kept. Time is the service's ``ManualClock``."""

from __future__ import annotations

from datetime import timedelta

import pytest

from storycore import Service, Viewer
from tests.webhooks._receiver import Receiver
from tests.webhooks.conftest import manual, register, write_story

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

DAYS = timedelta(days=30)
SECOND = timedelta(seconds=1)


def _types(service: Service) -> list[str]:
    return [logged.event.type for logged in service.events.after(None, 1000)]


def test_a_delivered_event_older_than_event_days_is_deleted(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    assert service.settings.limits.event_days == 30
    register(service, receiver.url)
    write_story(service, alice)  # story.created, story.published
    service.deliver()
    manual(service).advance(DAYS + SECOND)
    write_story(service, alice, "Later")
    service.deliver()
    assert _types(service) == ["story.created", "story.published"]  # "Later"'s only
    assert len(receiver.received) == 4


def test_an_event_younger_than_event_days_is_kept(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    register(service, receiver.url)
    write_story(service, alice)
    service.deliver()
    manual(service).advance(DAYS - SECOND)
    write_story(service, alice, "Later")
    service.deliver()
    assert _types(service) == ["user.created", *["story.created", "story.published"] * 2]


def test_an_old_event_whose_delivery_is_pending_is_kept_and_delivered(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    register(service, receiver.url)
    write_story(service, alice)
    manual(service).advance(DAYS + SECOND)  # no delivery made all this while
    write_story(service, alice, "Later")
    service.deliver()  # the old events' deliveries are made before the log is pruned
    assert len(receiver.received) == 4
    assert _types(service)[-4:] == ["story.created", "story.published"] * 2
