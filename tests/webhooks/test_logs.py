"""Webhook secrets never reach a log (docs/decisions.md, docs/webhooks.md): nothing logged while
events
are delivered, at any level and whatever the endpoints do, holds a webhook's signing secret or
a signature made with it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

import pytest
from pydantic import SecretStr
from standardwebhooks import Webhook

from storycore import Service, Viewer
from storycore.contrib.webhooks import HttpWebhookSender
from storycore.model.events import event_body
from storycore.rules.webhook_secrets import new_key
from storycore.usecases.delivery import RETRY_DELAYS
from tests.webhooks._receiver import Receiver, closed_port
from tests.webhooks.conftest import manual, only_delivery, register, write_story

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")


def _everything_logged(caplog: pytest.LogCaptureFixture) -> str:
    """The text of every record: as written, and every value it carries."""
    parts = [caplog.text]
    for record in caplog.records:
        parts += [record.getMessage(), repr(record.args), repr(vars(record))]
    return "\n".join(parts)


def test_deliveries_log_neither_a_secret_nor_a_signature(
    service: Service,
    alice: Viewer,
    receivers: Callable[..., Receiver],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    taking, failing, dropping, redirecting = receivers(), receivers(), receivers(), receivers()
    failing.answer(500)
    dropping.drop()
    redirecting.answer(302, location=taking.url)
    urls = [r.url for r in (taking, failing, dropping, redirecting)]
    hooks = [register(service, url) for url in [*urls, f"http://127.0.0.1:{closed_port()}/h"]]
    start = service.events.end()
    write_story(service, alice)
    events = [item.event for item in service.events.after(start, 100)]
    times: list[datetime] = []
    for delay in RETRY_DELAYS[:3]:
        times.append(manual(service).now())
        assert service.deliver() > 0
        manual(service).advance(delay)
    signatures = {
        Webhook(hook.secret).sign(event.id, moment, event_body(event).decode())
        for hook in hooks
        for event in events
        for moment in times
    }
    assert {r.headers["webhook-signature"] for r in taking.received} <= signatures
    logged = _everything_logged(caplog)
    assert any(record.levelno == logging.DEBUG for record in caplog.records)
    for hook in hooks:
        assert hook.secret.removeprefix("whsec_") not in logged
    for made in signatures:
        assert made.removeprefix("v1,") not in logged


def test_a_secret_that_does_not_open_is_not_logged(
    service: Service, alice: Viewer, receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    # a process started with another webhook key than the one that sealed the secret
    rekeyed = service.settings.model_copy(update={"webhook_key": SecretStr(new_key())})
    sender = HttpWebhookSender(allowed_hosts=["127.0.0.1"])
    elsewhere = Service(service.store, rekeyed, clock=service.clock, webhook_sender=sender)
    try:
        assert elsewhere.deliver() == 1
    finally:
        elsewhere.deliverer.close()
    assert receiver.received == []
    assert (only_delivery(service, hook).last_error or "").startswith("not sent: ")
    assert hook.secret.removeprefix("whsec_") not in _everything_logged(caplog)
