"""How many attempts the deliverer makes to one endpoint at once (docs/webhooks.md): a
few, whatever the number due, so that one endpoint neither takes every attempt a process
makes at once nor gets a crowd of connections (each attempt to it adds one to the sender's
pool for it, and the pool's every step looks at all of them: ``benchmarks/README.md``, issue
29). A real receiver on 127.0.0.1 holds each request until more than the limit are in flight,
or every one due has come, or a second has passed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.webhooks import HttpWebhookSender
from storycore.model.visibility import OPERATOR
from storycore.rules.webhook_secrets import new_key
from storycore.settings import Settings
from storycore.usecases.delivery import _PER_ENDPOINT

#: How long the receiver holds a request at most, waiting for others to come beside it.
HOLD_SECONDS = 1.0


class Crowd:
    """The requests a receiver is answering at once: now, and at most."""

    def __init__(self, expected: int) -> None:
        self.expected = expected
        self.arrived = 0
        self.in_flight = 0
        self.most = 0
        self.changed = threading.Condition()

    def hold(self) -> None:
        """Count one request in while it is held: until more than the limit are in flight,
        or every expected one has come (or ``HOLD_SECONDS``)."""
        with self.changed:
            self.arrived += 1
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
            self.changed.notify_all()
            self.changed.wait_for(
                lambda: self.in_flight > _PER_ENDPOINT or self.arrived >= self.expected,
                timeout=HOLD_SECONDS,
            )
            self.in_flight -= 1


@pytest.fixture
def service() -> Iterator[Service]:
    settings = Settings(webhook_key=new_key(), resolver_allowed_hosts=("127.0.0.1",))
    sender = HttpWebhookSender(allowed_hosts=["127.0.0.1"])
    with Service(open_store("memory://"), settings, webhook_sender=sender) as made:
        made.accounts.create_user("ed", password="a long passphrase", editor=True)
        yield made


@pytest.fixture
def crowd() -> Crowd:
    # one more than the limit: a deliverer without one sends them all at once
    return Crowd(expected=_PER_ENDPOINT + 1)


@pytest.fixture
def endpoint(crowd: Crowd) -> Iterator[str]:
    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["content-length"]))
            crowd.hold()
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    class Server(ThreadingHTTPServer):
        # connections all come at once: with the default backlog (5), the kernel drops those
        # beyond it, and the client tries again a second later
        request_queue_size = 64

    server = Server(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    finally:
        server.shutdown()
        server.server_close()


def test_an_endpoint_gets_a_few_attempts_at_once_however_many_are_due(
    service: Service, endpoint: str, crowd: Crowd
) -> None:
    service.webhooks.add(endpoint, ["story.created"], viewer=OPERATOR)
    ed = service.accounts.as_user("ed")
    for n in range(crowd.expected):
        service.stories.create("ed", {"title": f"Story {n}"}, viewer=ed)
    assert service.deliver() == crowd.expected
    assert crowd.arrived == crowd.expected
    assert crowd.most == _PER_ENDPOINT
