"""What a webhook is told of a story (docs/webhooks.md#what-a-webhook-is-told): a story that is
private or working reaches in full only the webhooks registered ``private``; any other is sent
its summary (``sid``, the author's username, ``slug``, ``status``, ``private``) and nothing of
its content. The Python reader (``service.events.after``) keeps the full data. Real receivers
on 127.0.0.1, the real sender."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest

from storycore import Service, Viewer
from tests.webhooks._receiver import Receiver
from tests.webhooks.conftest import register

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

SUMMARY = {"sid", "username", "slug", "status", "private"}


def _write(service: Service, author: Viewer, *, private: bool, publish: bool) -> None:
    assert author.user is not None
    story = {"title": "Kept close", "description": "what only alice knows", "private": private}
    service.stories.create(author.user.username, story, viewer=author, publish=publish)


def _told(receiver: Receiver, hook_secret: str) -> list[dict[str, Any]]:
    """The data of each event ``receiver`` was sent, verified with the webhook's secret."""
    return [request.verified(hook_secret)["data"] for request in receiver.received]


def test_a_private_story_reaches_a_webhook_not_registered_private_as_its_summary_only(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    hook = register(service, receiver.url)
    _write(service, alice, private=True, publish=True)
    service.deliver()
    told = _told(receiver, hook.secret)
    assert len(told) == 2
    for data in told:
        assert set(data) == SUMMARY
        assert (data["username"], data["slug"]) == ("alice", "kept-close")
        assert (data["status"], data["private"]) == ("published", True)
    assert "only alice knows" not in str([r.body for r in receiver.received])


def test_a_working_story_reaches_a_webhook_not_registered_private_as_its_summary_only(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    hook = register(service, receiver.url)
    _write(service, alice, private=False, publish=False)
    service.deliver()
    [data] = _told(receiver, hook.secret)
    assert set(data) == SUMMARY
    assert (data["username"], data["status"], data["private"]) == ("alice", "working", False)


def test_a_webhook_registered_private_is_told_a_private_story_in_full(
    service: Service, alice: Viewer, receivers: Callable[..., Receiver]
) -> None:
    receiver = receivers()
    hook = register(service, receiver.url, private=True)
    _write(service, alice, private=True, publish=False)
    service.deliver()
    [data] = _told(receiver, hook.secret)
    assert data["description"] == "what only alice knows"
    assert set(data) > SUMMARY - {"username"}


def test_a_public_published_story_reaches_every_webhook_in_full(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    hook = register(service, receiver.url)
    _write(service, alice, private=False, publish=True)
    service.deliver()
    told = _told(receiver, hook.secret)
    assert [data["description"] for data in told] == ["what only alice knows"] * 2


def test_the_python_reader_keeps_a_private_story_s_full_data(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    register(service, receiver.url)
    _write(service, alice, private=True, publish=False)
    service.deliver()
    [logged] = [e for e in service.events.after(None, 100) if e.event.type == "story.created"]
    assert "what only alice knows" in logged.event.data


def test_a_private_story_s_deletion_and_user_events_reach_every_webhook_as_logged(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    _write(service, alice, private=True, publish=False)
    hook = register(service, receiver.url, ["story.deleted", "user.created"])
    service.stories.delete("alice", "kept-close", viewer=alice)
    service.accounts.create_user("bob")
    service.deliver()
    logged = {e.event.type: e.event for e in service.events.after(None, 100)}
    told = {r.verified(hook.secret)["type"]: r.verified(hook.secret) for r in receiver.received}
    assert set(told) == {"story.deleted", "user.created"}
    for kind, payload in told.items():
        assert payload["data"] == orjson.loads(logged[kind].data)
