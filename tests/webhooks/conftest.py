"""A service that delivers events to webhooks (docs/webhooks.md) through the real sender,
to real receivers on 127.0.0.1 (``tests/webhooks/_receiver.py``), its time on a
``ManualClock``.

The clock starts at the real time, to the second: ``standardwebhooks`` accepts a signature only
within 5 minutes of the real time, and every delivery a receiver gets is verified with it.
Tests that move the clock hours on check the signature without its time
(``Received.signed_with``). 127.0.0.1 is an allowed host (``--resolve-allow-host``) for the
webhook addresses and the sender, as a deployment on an intranet allows its hosts;
``test_sender.py`` builds senders without it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
from pydantic import SecretStr

from storycore import Service, Settings, Viewer
from storycore.contrib.webhooks import HttpWebhookSender
from storycore.model.shapes import DeliveryItem, WebhookCreated, WebhookShape
from storycore.model.visibility import OPERATOR
from storycore.ports import Store
from storycore.rules.webhook_secrets import new_key
from storycore.testing import ManualClock
from tests.conftest import TEST_SETTINGS
from tests.webhooks._receiver import Receiver

#: The service's settings: a webhook key, and 127.0.0.1 allowed as a webhook's host.
WEBHOOK_SETTINGS = Settings(
    password_cost=TEST_SETTINGS.password_cost,
    webhook_key=SecretStr(new_key()),
    resolver_allowed_hosts=("127.0.0.1",),
)


@pytest.fixture
def storycore_settings() -> Settings:
    return WEBHOOK_SETTINGS


@pytest.fixture
def storycore_clock() -> ManualClock:
    """The real time now, to the second, moved by hand from there."""
    return ManualClock(datetime.now(UTC).replace(microsecond=0))


@pytest.fixture
def sender() -> HttpWebhookSender:
    """The real sender, allowed to send to 127.0.0.1."""
    return HttpWebhookSender(allowed_hosts=["127.0.0.1"])


@pytest.fixture
def service(
    store: Store,
    storycore_settings: Settings,
    storycore_clock: ManualClock,
    sender: HttpWebhookSender,
) -> Iterator[Service]:
    """A service on a fresh store that delivers through ``sender``; closed after the test."""
    with Service(store, storycore_settings, clock=storycore_clock, webhook_sender=sender) as made:
        yield made


@pytest.fixture
def receivers() -> Iterator[Callable[..., Receiver]]:
    """Starts receivers (``receivers()``); closes them all after the test."""
    started: list[Receiver] = []

    def start(**options: object) -> Receiver:
        receiver = Receiver(**options)  # type: ignore[arg-type]
        started.append(receiver)
        return receiver

    yield start
    for receiver in started:
        receiver.close()


@pytest.fixture
def receiver(receivers: Callable[..., Receiver]) -> Receiver:
    """A receiver on 127.0.0.1 that answers 204 until told otherwise."""
    return receivers()


# -- what the tests do through the service ----------------------------------------------------


def register(
    service: Service, url: str, events: list[str] | None = None, *, private: bool = False
) -> WebhookCreated:
    """A webhook for ``url`` and ``events`` (every event when None), as the operator makes it;
    ``private``: told of private and working stories in full."""
    return service.webhooks.add(url, events, private=private, viewer=OPERATOR)


def webhook(service: Service, hook: WebhookShape) -> WebhookShape:
    """``hook`` as ``service.webhooks.read`` shows it now."""
    return service.webhooks.read(hook.id, viewer=OPERATOR)


def deliveries(service: Service, hook: WebhookShape) -> list[DeliveryItem]:
    """``hook``'s deliveries, newest first."""
    return service.webhooks.deliveries(hook.id, viewer=OPERATOR, per_page=100).items


def only_delivery(service: Service, hook: WebhookShape) -> DeliveryItem:
    """``hook``'s one delivery."""
    [found] = deliveries(service, hook)
    return found


def write_story(service: Service, author: Viewer, title: str = "A story") -> None:
    """A story of ``author``'s, published: two events (``story.created``, ``story.published``)."""
    assert author.user is not None
    service.stories.create(author.user.username, {"title": title}, viewer=author, publish=True)


def manual(service: Service) -> ManualClock:
    """``service``'s clock, moved by hand."""
    clock = service.clock
    assert isinstance(clock, ManualClock)
    return clock
