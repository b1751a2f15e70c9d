"""Delivering events to webhooks (docs/webhooks.md): each event a webhook asked for reaches
its endpoint as a ``POST`` of ``{"type", "timestamp", "data"}``, signed as Standard Webhooks
1.0 says, so that the ``standardwebhooks`` package verifies it; ``webhook-id`` is the event's
id. Real receivers on 127.0.0.1, the real sender, time on a ``ManualClock``."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from storycore import Service, Viewer
from storycore.model.events import LoggedEvent
from storycore.model.visibility import OPERATOR
from storycore.usecases.delivery import RETRY_DELAYS
from tests.webhooks._receiver import Received, Receiver
from tests.webhooks.conftest import (
    deliveries,
    manual,
    only_delivery,
    register,
    write_story,
)

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")


def _logged(service: Service, cursor: str | None) -> list[LoggedEvent]:
    """The events logged after ``cursor``."""
    return service.events.after(cursor, 1000)


def _ids(received: list[Received]) -> list[str]:
    return sorted(request.headers["webhook-id"] for request in received)


def test_every_delivery_verifies_with_the_webhook_s_secret(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    hook = register(service, receiver.url)
    write_story(service, alice)
    assert service.deliver() == 2
    got = receiver.received
    assert len(got) == 2
    for request in got:
        assert request.verified(hook.secret)["type"] in ("story.created", "story.published")


def test_each_webhook_s_deliveries_are_signed_with_its_own_secret(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    one = register(service, receiver.url)
    other = register(service, receiver.url)  # the same endpoint, another webhook and secret
    write_story(service, alice)
    service.deliver()
    got = receiver.received
    assert len(got) == 4
    assert sorted(r.signed_with(one.secret) for r in got) == [False, False, True, True]
    assert all(r.signed_with(one.secret) != r.signed_with(other.secret) for r in got)


def test_a_delivery_is_a_post_of_json(service: Service, alice: Viewer, receiver: Receiver) -> None:
    register(service, receiver.url)
    write_story(service, alice)
    service.deliver()
    for request in receiver.received:
        assert (request.method, request.path) == ("POST", "/hook")
        assert request.headers["content-type"] == "application/json"


def test_the_webhook_id_is_the_event_id_and_the_body_is_the_event(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    start = service.events.end()
    hook = register(service, receiver.url)
    write_story(service, alice)
    service.deliver()
    logged = {item.event.id: item.event for item in _logged(service, start)}
    got = receiver.received
    assert _ids(got) == sorted(logged)
    for request in got:
        event = logged[request.headers["webhook-id"]]
        assert request.verified(hook.secret) == {
            "type": event.type,
            "timestamp": event.timestamp,
            "data": json.loads(event.data),
        }


def test_the_data_of_a_story_event_is_the_story_as_its_author_sees_it(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    # private: told of a working story in full (test_what_is_told.py)
    hook = register(service, receiver.url, ["story.created"], private=True)
    created = service.stories.create("alice", {"title": "Draft"}, viewer=alice)
    service.deliver()
    [request] = receiver.received
    data = request.verified(hook.secret)["data"]
    seen = service.stories.read("alice", created.slug, viewer=alice)
    assert (data["sid"], data["slug"], data["title"]) == (seen.id, seen.slug, "Draft")
    assert (data["status"], data["version"], data["permalink"]) == (
        "working",
        seen.version,
        seen.permalink,
    )


def test_the_timestamp_header_is_the_time_of_the_attempt(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    moment = manual(service).advance(3)
    service.deliver()
    [request] = receiver.received
    assert request.headers["webhook-timestamp"] == str(int(moment.timestamp()))


def test_each_attempt_is_signed_anew_at_its_own_time(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    receiver.answer(500)
    service.deliver()
    receiver.answer(204)
    manual(service).advance(RETRY_DELAYS[0])
    assert service.deliver() == 1
    first, again = receiver.received
    assert first.headers["webhook-id"] == again.headers["webhook-id"]
    assert int(again.headers["webhook-timestamp"]) - int(first.headers["webhook-timestamp"]) == 5
    assert first.verified(hook.secret) == again.verified(hook.secret)


def test_a_webhook_for_some_types_gets_only_those(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    hook = register(service, receiver.url, ["story.published", "story.deleted"])
    created = service.stories.create("alice", {"title": "Draft"}, viewer=alice)
    write_story(service, alice, "Published")
    service.stories.delete("alice", created.slug, viewer=alice)
    service.deliver()
    types = sorted(r.verified(hook.secret)["type"] for r in receiver.received)
    assert types == ["story.deleted", "story.published"]


def test_a_webhook_for_every_type_gets_every_event(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    start = service.events.end()
    hook = register(service, receiver.url, ["*"])
    write_story(service, alice)
    service.accounts.create_user("carol", "carol-password", name="Carol")
    slug = service.stories.create("alice", {"title": "Draft"}, viewer=alice).slug
    service.stories.save("alice", slug, {"title": "Draft, again"}, viewer=alice)
    service.stories.delete("alice", slug, viewer=alice)
    service.deliver()
    logged = _logged(service, start)
    assert len(logged) == 6
    assert _ids(receiver.received) == sorted(item.event.id for item in logged)
    assert {r.verified(hook.secret)["type"] for r in receiver.received} == {
        "story.created",
        "story.published",
        "user.created",
        "story.saved",
        "story.deleted",
    }


def test_two_webhooks_each_get_theirs(
    service: Service, alice: Viewer, receivers: Callable[..., Receiver]
) -> None:
    stories, users = receivers(), receivers()
    for_stories = register(service, stories.url, ["story.created"])
    for_users = register(service, users.url, ["user.created"])
    write_story(service, alice)
    service.accounts.create_user("carol", "carol-password", name="Carol")
    service.deliver()
    [story] = stories.received
    [user] = users.received
    assert story.verified(for_stories.secret)["type"] == "story.created"
    assert user.verified(for_users.secret)["data"]["username"] == "carol"


def test_a_new_webhook_gets_only_the_events_logged_after_it_was_made(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    write_story(service, alice, "Before")
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice, "After")
    service.deliver()
    [request] = receiver.received
    assert request.verified(hook.secret)["data"]["title"] == "After"


def test_an_event_an_endpoint_took_is_not_sent_again(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    register(service, receiver.url)
    write_story(service, alice)
    assert service.deliver() == 2
    manual(service).advance(days=1)
    assert service.deliver() == 0
    assert len(receiver.received) == 2


def test_a_delivered_event_is_listed_as_delivered(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    [event] = [item.event for item in _logged(service, None) if item.event.type == "story.created"]
    delivery = only_delivery(service, hook)
    assert (delivery.event, delivery.type, delivery.state) == (event.id, event.type, "delivered")
    assert (delivery.attempts, delivery.last_status, delivery.last_error) == (1, 204, None)
    assert delivery.next_attempt is None


def test_deliveries_are_listed_newest_first(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice, "First")
    manual(service).advance(1)
    write_story(service, alice, "Second")
    service.deliver()
    created = [
        item.event.id for item in _logged(service, None) if item.event.type == "story.created"
    ]
    assert [d.event for d in deliveries(service, hook)] == created[::-1]


def test_the_events_of_one_write_are_listed_newest_first_too(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    hook = register(service, receiver.url, ["story.created", "story.published"])
    service.stories.create("alice", {"title": "Both at once"}, viewer=alice, publish=True)
    service.deliver()
    assert [d.type for d in deliveries(service, hook)] == ["story.published", "story.created"]


def test_a_removed_webhook_gets_nothing_more(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    hook = register(service, receiver.url)
    write_story(service, alice)
    service.webhooks.remove(hook.id, viewer=OPERATOR)
    assert service.deliver() == 0
    assert receiver.received == []


def test_a_removed_webhook_s_pending_retries_are_not_made(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    receiver.answer(500)
    service.deliver()
    service.webhooks.remove(hook.id, viewer=OPERATOR)
    manual(service).advance(days=1)
    assert service.deliver() == 0
    assert len(receiver.received) == 1


def test_a_service_without_a_sender_sends_nothing(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    register(service, receiver.url)
    write_story(service, alice)
    quiet = Service(service.store, service.settings, clock=service.clock)
    assert quiet.deliver() == 0
    assert receiver.received == []
    assert service.deliver() == 2  # nothing was taken from the one that sends
