"""The webhook sender's rules (docs/webhooks.md, ``storycore.contrib.webhooks``): it sends
to public addresses only, unless the deployment allowed the host (the fetcher's address rules,
docs/resolver.md), over http or https; it never follows a redirect; one attempt takes at
most ``ATTEMPT_SECONDS`` and reads at most ``MAX_ANSWER_BYTES`` of the answer.

Real receivers on 127.0.0.1; a "public" name is mapped to 127.0.0.1 by the sender's injected
name lookup, as the fetcher's tests do (``tests/resolving``).
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from storycore import InvalidParameter, Service, Settings, Viewer
from storycore.contrib.webhooks import HttpWebhookSender
from storycore.model.visibility import OPERATOR
from storycore.ports import Store
from storycore.testing import ManualClock
from storycore.usecases.delivery import ATTEMPT_SECONDS, MAX_ANSWER_BYTES, Attempt
from tests.resolving.conftest import mapped
from tests.webhooks._receiver import Receiver, self_signed_tls
from tests.webhooks.conftest import manual, only_delivery, register, write_story

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

#: A name that looks public; the sender's lookup maps it to 127.0.0.1.
PUBLIC_NAME = "hooks.example"


@pytest.fixture
def build(
    store: Store, storycore_settings: Settings, storycore_clock: ManualClock
) -> Iterator[Callable[[HttpWebhookSender], Service]]:
    """Services on the test's store that send through a given sender; closed after the test."""
    made: list[Service] = []

    def service_sending_through(sender: HttpWebhookSender) -> Service:
        made.append(
            Service(store, storycore_settings, clock=storycore_clock, webhook_sender=sender)
        )
        return made[-1]

    yield service_sending_through
    for service in made:
        service.deliverer.close()


def _send(sender: HttpWebhookSender, url: str) -> Attempt:
    """One attempt of ``sender`` to ``url``, its connections closed after."""

    async def once() -> Attempt:
        try:
            return await sender.send(url, {"content-type": "application/json"}, b"{}")
        finally:
            await sender.aclose()

    return asyncio.run(once())


# -- addresses -------------------------------------------------------------------------------


def test_a_name_on_a_private_address_is_refused(
    build: Callable[[HttpWebhookSender], Service], alice: Viewer, receiver: Receiver
) -> None:
    service = build(HttpWebhookSender(lookup=mapped({PUBLIC_NAME: ["127.0.0.1"]})))
    hook = register(service, f"http://{PUBLIC_NAME}:{receiver.port}/hook", ["story.created"])
    write_story(service, alice)
    assert service.deliver() == 1
    assert receiver.received == []
    delivery = only_delivery(service, hook)
    assert delivery.last_status is None
    assert "refused" in (delivery.last_error or "")


def test_a_delivery_the_address_rules_refuse_fails_at_once_naming_the_setting(
    build: Callable[[HttpWebhookSender], Service], alice: Viewer, receiver: Receiver
) -> None:
    service = build(HttpWebhookSender(lookup=mapped({PUBLIC_NAME: ["127.0.0.1"]})))
    hook = register(service, f"http://{PUBLIC_NAME}:{receiver.port}/hook", ["story.created"])
    write_story(service, alice)
    assert service.deliver() == 1
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.attempts, delivery.next_attempt) == ("failed", 1, None)
    assert "STORYCORE_RESOLVER_ALLOWED_HOSTS" in (delivery.last_error or "")
    assert "--resolve-allow-host" in (delivery.last_error or "")
    manual(service).advance(days=1)
    assert service.deliver() == 0  # no retry
    assert receiver.received == []


def test_a_name_the_deployment_allowed_is_sent_to_on_a_private_address(
    build: Callable[[HttpWebhookSender], Service], alice: Viewer, receiver: Receiver
) -> None:
    lookup = mapped({PUBLIC_NAME: ["127.0.0.1"]})
    service = build(HttpWebhookSender(allowed_hosts=[PUBLIC_NAME], lookup=lookup))
    hook = register(service, f"http://{PUBLIC_NAME}:{receiver.port}/hook", ["story.created"])
    write_story(service, alice)
    service.deliver()
    [request] = receiver.received
    assert request.headers["host"] == f"{PUBLIC_NAME}:{receiver.port}"
    assert request.verified(hook.secret)["type"] == "story.created"
    assert only_delivery(service, hook).state == "delivered"


def test_a_name_written_in_full_width_letters_is_sent_to_as_its_ascii_form(
    build: Callable[[HttpWebhookSender], Service], alice: Viewer, receiver: Receiver
) -> None:
    """The sender connects to the host the registration judged (``storycore.rules.hosts``):
    full-width letters are the ASCII name, which httpx would not take as written."""
    lookup = mapped({"example.test": ["127.0.0.1"]})
    service = build(HttpWebhookSender(allowed_hosts=["example.test"], lookup=lookup))
    url = f"http://\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.test:{receiver.port}/hook"
    hook = register(service, url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    [request] = receiver.received
    assert request.headers["host"] == f"example.test:{receiver.port}"
    assert only_delivery(service, hook).state == "delivered"
    assert hook.url == url  # the address as it was written


def test_a_private_address_is_refused_unless_allowed(receiver: Receiver) -> None:
    refused = _send(HttpWebhookSender(), receiver.url)
    assert (refused.status, refused.refused) == (None, True)
    assert "refused" in (refused.error or "")
    assert receiver.received == []
    assert _send(HttpWebhookSender(allowed_hosts=["127.0.0.1"]), receiver.url).delivered
    assert len(receiver.received) == 1


@pytest.mark.parametrize("host", ["127.1", "2130706433", "0x7f.0.0.1"])
def test_an_allowed_address_is_sent_to_however_it_is_written(receiver: Receiver, host: str) -> None:
    """The allowance is for the host, read as the registration reads it: allowing 127.0.0.1
    admits ``127.1``, as it does at registration."""
    url = f"http://{host}:{receiver.port}/hook"
    assert _send(HttpWebhookSender(allowed_hosts=["127.0.0.1"]), url).delivered
    assert len(receiver.received) == 1


def test_a_name_that_does_not_resolve_is_said_not_to(
    build: Callable[[HttpWebhookSender], Service], alice: Viewer
) -> None:
    async def nowhere(host: str, port: int) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    service = build(HttpWebhookSender(lookup=nowhere))
    hook = register(service, f"http://{PUBLIC_NAME}/hook", ["story.created"])
    write_story(service, alice)
    service.deliver()
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.last_status) == ("pending", None)
    assert delivery.last_error == f"the host name {PUBLIC_NAME} does not resolve"


@pytest.mark.parametrize("scheme", ["ftp", "file", "ws"])
def test_a_scheme_other_than_http_or_https_is_refused(scheme: str, receiver: Receiver) -> None:
    sender = HttpWebhookSender(allowed_hosts=["127.0.0.1"])
    attempt = _send(sender, f"{scheme}://127.0.0.1:{receiver.port}/hook")
    assert attempt.status is None
    assert attempt.error is not None
    assert receiver.received == []


@pytest.mark.parametrize("scheme", ["ftp", "file", "javascript"])
def test_a_webhook_on_a_scheme_other_than_http_or_https_is_not_registered(
    service: Service, scheme: str
) -> None:
    with pytest.raises(InvalidParameter):
        service.webhooks.add(f"{scheme}://{PUBLIC_NAME}/hook", viewer=OPERATOR)


def test_an_https_endpoint_s_certificate_is_checked(
    build: Callable[[HttpWebhookSender], Service],
    alice: Viewer,
    receivers: Callable[..., Receiver],
    tmp_path: Path,
) -> None:
    receiver = receivers(tls=self_signed_tls(tmp_path, PUBLIC_NAME))
    lookup = mapped({PUBLIC_NAME: ["127.0.0.1"]})
    service = build(HttpWebhookSender(allowed_hosts=[PUBLIC_NAME], lookup=lookup))
    hook = register(service, f"https://{PUBLIC_NAME}:{receiver.port}/hook", ["story.created"])
    write_story(service, alice)
    service.deliver()
    assert receiver.received == []  # nobody vouches for its certificate: nothing is sent
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.last_status) == ("pending", None)
    assert "certificate" in (delivery.last_error or "").lower()


# -- answers ---------------------------------------------------------------------------------


def test_a_redirect_is_a_failure_and_is_not_followed(
    service: Service, alice: Viewer, receivers: Callable[..., Receiver]
) -> None:
    receiver, elsewhere = receivers(), receivers()
    receiver.answer(301, location=elsewhere.url)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    assert len(receiver.received) == 1
    assert elsewhere.received == []
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.last_status, delivery.attempts) == ("pending", 301, 1)
    assert delivery.next_attempt is not None  # retried, as any answer but a 2xx is


@pytest.mark.parametrize("status", [200, 201, 202, 204, 299])
def test_any_2xx_answer_is_a_delivery(
    service: Service, alice: Viewer, receiver: Receiver, status: int
) -> None:
    receiver.answer(status)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.last_status, delivery.last_error) == (
        "delivered",
        status,
        None,
    )


@pytest.mark.parametrize("status", [304, 400, 404, 410, 429, 500, 503])
def test_any_other_answer_is_a_failure(
    service: Service, alice: Viewer, receiver: Receiver, status: int
) -> None:
    receiver.answer(status)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    delivery = only_delivery(service, hook)
    assert delivery.state == "pending"
    assert delivery.last_error is not None


def test_an_answer_is_read_up_to_64_kib_and_no_further(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.endless()  # a body that never ends: only a sender that stops reading delivers
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    assert service.deliver() == 1
    delivery = only_delivery(service, hook)  # delivered: it stopped reading before its 5 s
    assert (delivery.state, delivery.last_status) == ("delivered", 200)
    assert receiver.wait_closed()  # it stopped reading, and hung up
    assert receiver.streamed >= MAX_ANSWER_BYTES


@pytest.mark.slow
def test_an_endpoint_answering_within_5_s_is_delivered(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.slow(2)
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    assert only_delivery(service, hook).state == "delivered"


@pytest.mark.slow
def test_an_endpoint_that_does_not_answer_is_given_up_after_5_s(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.hang()
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    started = time.monotonic()
    assert service.deliver() == 1  # it returns: the attempt was given up
    assert time.monotonic() - started >= ATTEMPT_SECONDS
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.last_status) == ("pending", None)
    assert delivery.last_error == "no whole answer within 5 s"
    assert delivery.next_attempt is not None


@pytest.mark.slow
def test_an_answer_whose_body_does_not_end_within_5_s_is_a_failure(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    receiver.trickle()  # 200 at once, then a byte at a time, for ever
    hook = register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    started = time.monotonic()
    service.deliver()  # it returns: the attempt was given up
    assert time.monotonic() - started >= ATTEMPT_SECONDS
    delivery = only_delivery(service, hook)
    assert (delivery.state, delivery.last_status) == ("pending", None)
    assert delivery.last_error == "no whole answer within 5 s"


# -- connections -----------------------------------------------------------------------------


def test_attempts_to_one_endpoint_share_a_connection(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    register(service, receiver.url, ["story.created"])
    write_story(service, alice, "First")
    service.deliver()
    write_story(service, alice, "Second")
    service.deliver()
    assert len(receiver.received) == 2
    assert receiver.connections == 1


def test_closing_the_service_closes_the_sender_s_connections(
    service: Service, alice: Viewer, receiver: Receiver
) -> None:
    register(service, receiver.url, ["story.created"])
    write_story(service, alice)
    service.deliver()
    assert receiver.connections == 1  # kept open for the next delivery
    service.deliverer.close()
    assert receiver.wait_closed()
