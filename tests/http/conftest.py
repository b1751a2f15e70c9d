"""Fixtures of the HTTP suite: a small world on the reference store, and a client.

``client`` calls ``HttpApp`` in process (``AppClient``): every rule of the HTTP face lives
there, so each test runs once; ``mounted`` is the same under a path prefix. That the ASGI and
WSGI bindings only convert is ``test_bindings.py``'s part, which sends a representative set of
requests through each (``binding``). The store kind does not matter to the HTTP layer (storage
is the contract suite's part, on every backend), so the world lives on the reference store
``memory://``, the fastest.

The world: alice (the owner of every story), bob (another user), ed (an editor) and cora (may
feature stories); one application with a key and a token for each user; a partner application
with a delegation grant and a fake identity provider. alice has a published public story
``open`` (featured, with elements), a working story ``draft`` (saved once: at version 2, with
revision 1) and a published private ``secret``. Before alice wrote, ed registered a webhook
(``world.webhook``) for ``story.published`` at a receiver on 127.0.0.1 (the world's settings
hold a webhook key and allow that host); ``world.event()`` delivers the events it is due and
names one of them, on first call (sending costs a connection that most tests do not need).
Its time is a ``ManualClock`` (``world.clock``): it moves only when a test moves it, and each
story ``world.publish`` makes is published a second after the one before.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import orjson
import pytest
from pydantic import SecretStr

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.webhooks import HttpWebhookSender
from storycore.rules.webhook_secrets import new_key
from storycore.testing import ManualClock
from storycore.usecases.identity import NoAnswer, ProviderAnswer
from tests._receivers import Receiver, receiving
from tests.conftest import TEST_SETTINGS
from tests.http._clients import BINDINGS, AppClient, Client

PROVIDER = "https://id.example/1.1/account/verify_credentials.json"
PREFIX = "/stories-api"
OPEN_ELEMENTS = [
    "https://socialA.example/bob/status/1",
    "https://img.example/harbour.jpg",
    {"type": "text", "data": {"text": "<p>Fog over the #harbour</p>"}},
]

# who calls, by the names of the permission table (docs/api.md#credentials)
ACTORS = {
    "anonymous": None,
    "app-only": "",
    "owner": "alice",
    "other user": "bob",
    "editor": "ed",
    "featurer": "cora",
}


@dataclass
class FakeProvider:
    """An identity provider answering in process: ``answer`` is returned, or raised."""

    answer: ProviderAnswer | NoAnswer | Exception = field(
        default_factory=lambda: ProviderAnswer(
            200, orjson.dumps({"id_str": "42", "screen_name": "far_away", "name": "Far Away"})
        )
    )

    def get(
        self, url: str, authorization: str, *, timeout: float, max_bytes: int
    ) -> ProviderAnswer | NoAnswer:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@dataclass
class World:
    service: Service
    api_key: str
    partner_key: str
    provider: FakeProvider
    tokens: dict[str, str]
    clock: ManualClock
    webhook: str
    receiver: Receiver
    _event: str | None = None

    def event(self) -> str:
        """The event of a delivery to the world's webhook: the events due are delivered (to
        the receiver) on the first call."""
        if self._event is None:
            self.service.deliver()
            editor = self.service.accounts.as_user("ed")
            [*_, delivery] = self.service.webhooks.deliveries(self.webhook, viewer=editor).items
            self._event = delivery.event
        return self._event

    def at(self, path: str) -> str:
        """``path`` with the world's webhook for ``{webhook}`` and ``event()`` for
        ``{event}``: the paths of the valid requests (``test_endpoints.VALID_REQUESTS``)."""
        if "{event}" in path:
            path = path.replace("{event}", self.event())
        return path.replace("{webhook}", self.webhook)

    def credentials(self, username: str | None) -> dict[str, str]:
        """The authentication parameters of a user; ``""`` the api key alone, None nothing."""
        if username is None:
            return {}
        if not username:
            return {"api_key": self.api_key}
        return {"api_key": self.api_key, "username": username, "_token": self.tokens[username]}

    def actor(self, name: str) -> dict[str, str]:
        """The credentials of an actor of the permission table."""
        return self.credentials(ACTORS[name])

    def publish(self, *titles: str, username: str = "alice", **members: object) -> list[str]:
        """Published public stories with these titles, oldest first, each a second after the
        last thing the world wrote; their slugs."""
        viewer = self.service.accounts.as_user(username)
        slugs = []
        for title in titles:
            self.clock.advance(1)
            created = self.service.stories.create(
                username, {"title": title, **members}, viewer=viewer, publish=True
            )
            slugs.append(created.slug)
        return slugs


@pytest.fixture(scope="session")
def receiver() -> Iterator[Receiver]:
    """The endpoint of the world's webhook: one for the session (stopping one takes a while)."""
    with receiving() as listening:
        yield listening


@pytest.fixture
def world(receiver: Receiver) -> Iterator[World]:
    settings = TEST_SETTINGS.model_copy(
        update={
            "delegation_providers": (PROVIDER,),
            "delegation_rate_limit": 3,
            "webhook_key": SecretStr(new_key()),
            "resolver_allowed_hosts": ("127.0.0.1",),
        }
    )
    provider = FakeProvider()
    clock = ManualClock()
    sender = HttpWebhookSender(allowed_hosts=settings.resolver_allowed_hosts)
    service = Service(
        open_store("memory://"),
        settings,
        provider_client=provider,
        clock=clock,
        webhook_sender=sender,
    )
    accounts = service.accounts
    accounts.create_user("alice", "alice-password", name="Alice Liddell", plan="enterprise")
    accounts.create_user("bob", "bob-password", name="Bob Builder")
    accounts.create_user("ed", "ed-password", name="Ed Itor", editor=True)
    accounts.create_user("cora", "cora-password", name="Cora", can_feature=True)
    api_key = accounts.create_app("tests").api_key
    partner_key = accounts.create_app("partner", delegation=True).api_key
    tokens = {
        name: accounts.authenticate(api_key, name, f"{name}-password").token
        for name in ("alice", "bob", "ed", "cora")
    }
    webhook = service.webhooks.add(
        receiver.url, ["story.published"], viewer=accounts.as_user("ed")
    ).id
    alice = accounts.as_user("alice")
    stories = service.stories
    stories.create(
        "alice",
        {
            "title": "Harbour at dawn",
            "slug": "open",
            "description": "Notes from the quay",
            "elements": OPEN_ELEMENTS,
            "topics": ["harbour"],
            "hashtags": ["sea"],
        },
        viewer=alice,
        publish=True,
    )
    stories.create("alice", {"title": "Unfinished", "slug": "draft"}, viewer=alice)
    stories.save("alice", "draft", {"description": "A first go"}, viewer=alice)
    stories.create(
        "alice",
        {"title": "Diary", "slug": "secret", "private": True},
        viewer=alice,
        publish=True,
    )
    stories.feature("alice", "open", viewer=accounts.as_user("cora"))
    yield World(service, api_key, partner_key, provider, tokens, clock, webhook, receiver)
    service.close()


@pytest.fixture
def client(world: World) -> Client:
    """The world's service through ``HttpApp``."""
    return AppClient(world.service)


@pytest.fixture
def mounted(world: World) -> Client:
    """The world's service through ``HttpApp``, mounted under ``PREFIX``."""
    return AppClient(world.service, PREFIX)


@pytest.fixture(params=sorted(BINDINGS))
def binding(request: pytest.FixtureRequest, world: World) -> Iterator[Client]:
    """The world's service through each binding in turn (ASGI, WSGI)."""
    opened = BINDINGS[request.param](world.service, "")
    yield opened
    opened.close()
