"""Keeping webhooks (docs/webhooks.md): editors (and the operator running the service's
commands) add, list, read and remove webhooks and see and redo their deliveries; anyone else is
refused. A webhook's signing secret is shown once, in the answer to its addition, and stored
sealed under the webhook key, never in clear. Its address follows the fetcher's address rules
(docs/resolver.md) and its event types are a list of known types or every one. A new webhook
receives
the events logged after it was made, and nothing once it is removed.

Deliveries go from the real sender (``HttpWebhookSender``) to a real receiver on 127.0.0.1,
allowed as a deployment allows it (``resolver_allowed_hosts``, ``--resolve-allow-host``); the
receiver verifies each one with ``standardwebhooks``, as a user's receiver would. Time is a
``ManualClock`` started at the real time, since a receiver refuses a signature whose timestamp
is more than five minutes away from its own clock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson
import pytest
import standardwebhooks

from storycore import (
    ANONYMOUS,
    Conflict,
    Forbidden,
    InvalidParameter,
    NotFound,
    Service,
    Settings,
    StorycoreError,
    Unauthorized,
    Unavailable,
    Viewer,
)
from storycore.adapters import open_store
from storycore.contrib.webhooks import HttpWebhookSender
from storycore.model.events import EVENT_TYPES
from storycore.model.shapes import WebhookCreated
from storycore.model.visibility import OPERATOR
from storycore.rules.timestamps import format_timestamp
from storycore.rules.webhook_secrets import PREFIX, new_key, parse_key, unseal
from storycore.testing import ManualClock
from storycore.usecases.events import MAX_EVENTS
from storycore.usecases.webhooks import MAX_WEBHOOKS
from tests._unicode import IDEOGRAPHIC_FULL_STOP, full_width

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

KEY = new_key()
ALLOWED = ("127.0.0.1",)
HOOK_URL = "https://hooks.example/receive"
SETTINGS = Settings(password_cost=2**4, webhook_key=KEY, resolver_allowed_hosts=ALLOWED)
#: the same, where no private host is allowed (the default)
STRICT = Settings(password_cost=2**4, webhook_key=KEY)


@pytest.fixture
def storycore_clock() -> ManualClock:
    """The service's time, moved by hand, from now (see the module's docstring)."""
    return ManualClock(datetime.now(UTC).replace(microsecond=0))


@pytest.fixture
def storycore_settings() -> Settings:
    return SETTINGS


def _sending(store: Any, settings: Settings, clock: ManualClock) -> Service:
    sender = HttpWebhookSender(allowed_hosts=settings.resolver_allowed_hosts)
    return Service(store, settings, clock=clock, webhook_sender=sender)


@pytest.fixture
def service(store: Any, storycore_clock: ManualClock) -> Iterator[Service]:
    """The service of a deployment that allows 127.0.0.1, sending with the real sender."""
    with _sending(store, SETTINGS, storycore_clock) as made:
        yield made


@pytest.fixture
def strict() -> Iterator[Service]:
    """A service that allows no private host, on a store of its own."""
    with Service(open_store("memory://"), STRICT) as made:
        yield made


@dataclass
class Receiver:
    """A webhook endpoint on 127.0.0.1 that takes everything (204) and keeps what it got."""

    url: str
    got: list[tuple[dict[str, str], bytes]] = field(default_factory=list)

    def verified(self, secret: str) -> list[tuple[str, Any]]:
        """The event id and verified payload of every delivery, as they came."""
        webhook = standardwebhooks.Webhook(secret)
        return [
            (headers["webhook-id"], webhook.verify(body, headers)) for headers, body in self.got
        ]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            found.got.append(({k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass  # the test's output is the test's

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # a short poll: shutdown() waits for the loop to look up
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    found.url = f"http://127.0.0.1:{server.server_port}/hook"
    try:
        yield found
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _clock(service: Service) -> ManualClock:
    clock = service.clock
    assert isinstance(clock, ManualClock)
    return clock


def _story(service: Service, viewer: Viewer, slug: str, *, publish: bool = False) -> str:
    return service.stories.create("alice", {"slug": slug}, viewer=viewer, publish=publish).id


def _logged_after(service: Service, cursor: str | None) -> list[str]:
    return [item.event.id for item in service.events.after(cursor, MAX_EVENTS)]


@dataclass
class Delivered:
    """A webhook at the receiver, and an event delivered to it."""

    hook: WebhookCreated
    event: str


@pytest.fixture
def delivered(service: Service, alice: Viewer, editor: Viewer, receiver: Receiver) -> Delivered:
    # private: told of alice's working story in full (tests/webhooks/test_what_is_told.py)
    hook = service.webhooks.add(receiver.url, private=True, viewer=editor)
    _story(service, alice, "tale")
    assert service.deliver() == 1
    ((event, _),) = receiver.verified(hook.secret)
    return Delivered(hook, event)


# -- who keeps webhooks ----------------------------------------------------------------------

Operation = Callable[[Service, Viewer, Delivered], object]

OPERATIONS: dict[str, Operation] = {
    "add": lambda s, v, d: s.webhooks.add(HOOK_URL, ["story.created"], viewer=v),
    "list": lambda s, v, d: s.webhooks.list(viewer=v),
    "read": lambda s, v, d: s.webhooks.read(d.hook.id, viewer=v),
    "remove": lambda s, v, d: s.webhooks.remove(d.hook.id, viewer=v),
    "deliveries": lambda s, v, d: s.webhooks.deliveries(d.hook.id, viewer=v),
    "redeliver": lambda s, v, d: s.webhooks.redeliver(d.hook.id, d.event, viewer=v),
}


def _viewers(service: Service, alice: Viewer, curator: Viewer) -> dict[str, Viewer]:
    app = service.accounts.create_app("Reader")
    return {
        "anonymous": ANONYMOUS,
        "an application alone": service.accounts.viewer(app.api_key),
        "a user": alice,
        "a curator": curator,
    }


REFUSALS: dict[str, tuple[type[StorycoreError], int]] = {
    "anonymous": (Unauthorized, 401),
    "an application alone": (Unauthorized, 401),
    "a user": (Forbidden, 403),
    "a curator": (Forbidden, 403),
}


@pytest.mark.parametrize("who", REFUSALS)
@pytest.mark.parametrize("operation", OPERATIONS)
def test_only_editors_keep_webhooks(
    service: Service,
    alice: Viewer,
    curator: Viewer,
    delivered: Delivered,
    operation: str,
    who: str,
) -> None:
    viewer = _viewers(service, alice, curator)[who]
    error, status = REFUSALS[who]
    before = _kept(service, delivered.hook.id)
    with pytest.raises(error) as refused:
        OPERATIONS[operation](service, viewer, delivered)
    assert refused.value.status == status
    assert _kept(service, delivered.hook.id) == before  # nothing changed


def _kept(service: Service, hook_id: str) -> tuple[object, ...]:
    """What the store keeps of the webhooks and of the deliveries of ``hook_id``."""
    store = service.store
    return store.webhooks.find(0, 10), store.deliveries.of_webhook(hook_id, 0, 10)


@pytest.mark.parametrize("who", ["editor", "operator"])
@pytest.mark.parametrize("operation", OPERATIONS)
def test_an_editor_and_the_operator_keep_webhooks(
    service: Service, editor: Viewer, delivered: Delivered, operation: str, who: str
) -> None:
    viewer = editor if who == "editor" else OPERATOR
    answer: Any = OPERATIONS[operation](service, viewer, delivered)
    hooks = service.store.webhooks
    if operation == "add":
        assert hooks.get(answer.id) is not None
    elif operation == "list":
        assert [hook.id for hook in answer.items] == [delivered.hook.id]
    elif operation == "read":
        assert (answer.id, answer.url) == (delivered.hook.id, delivered.hook.url)
    elif operation == "remove":
        assert (answer.id, answer.deleted, hooks.get(delivered.hook.id)) == (
            delivered.hook.id,
            True,
            None,
        )
    elif operation == "deliveries":
        assert [(d.event, d.state) for d in answer.items] == [(delivered.event, "delivered")]
    else:
        assert (answer.event, answer.state) == (delivered.event, "pending")


def test_a_webhook_added_by_an_editor_is_theirs_and_the_operator_s_is_the_operator_s(
    service: Service, editor: Viewer
) -> None:
    by_editor = service.webhooks.add(HOOK_URL, viewer=editor)
    by_operator = service.webhooks.add(HOOK_URL, viewer=OPERATOR)
    assert editor.user is not None
    stored = [service.store.webhooks.get(hook.id) for hook in (by_editor, by_operator)]
    assert [hook.created_by if hook else None for hook in stored] == [editor.user.id, "operator"]


# -- the secret ------------------------------------------------------------------------------


def test_the_answer_to_add_shows_the_webhook_and_its_whsec_secret(
    service: Service, editor: Viewer, storycore_clock: ManualClock
) -> None:
    hook = service.webhooks.add(HOOK_URL, ["story.published"], viewer=editor)
    assert hook.secret.startswith(PREFIX)
    assert standardwebhooks.Webhook(hook.secret)  # a secret the receiver's library takes
    assert (hook.url, hook.events, hook.failing, hook.disabled) == (
        HOOK_URL,
        ["story.published"],
        None,
        None,
    )
    assert hook.id.startswith("wh_")
    assert hook.created == format_timestamp(storycore_clock.now())


@pytest.mark.parametrize("private", [True, False])
def test_a_webhook_s_private_is_answered_as_registered(
    service: Service, editor: Viewer, private: bool
) -> None:
    hook = service.webhooks.add(HOOK_URL, private=private, viewer=editor)
    assert hook.private is private
    assert service.webhooks.read(hook.id, viewer=editor).private is private
    assert [h.private for h in service.webhooks.list(viewer=editor).items] == [private]


def test_a_webhook_is_not_private_unless_registered_so(service: Service, editor: Viewer) -> None:
    assert service.webhooks.add(HOOK_URL, viewer=editor).private is False


def test_each_webhook_has_its_own_secret(service: Service, editor: Viewer) -> None:
    secrets = {service.webhooks.add(HOOK_URL, viewer=editor).secret for _ in range(5)}
    assert len(secrets) == 5


def test_the_secret_is_shown_once_never_in_a_list_or_a_read(
    service: Service, editor: Viewer, delivered: Delivered
) -> None:
    secret = delivered.hook.secret
    shown = [
        service.webhooks.read(delivered.hook.id, viewer=editor),
        service.webhooks.list(viewer=editor),
        service.webhooks.deliveries(delivered.hook.id, viewer=editor),
    ]
    for answer in shown:
        text = answer.model_dump_json(by_alias=True)
        assert secret not in text
        assert secret.removeprefix(PREFIX) not in text
        assert "secret" not in text


def test_the_store_holds_the_secret_sealed_never_in_clear(service: Service, editor: Viewer) -> None:
    hook = service.webhooks.add(HOOK_URL, viewer=editor)
    stored = service.store.webhooks.get(hook.id)
    assert stored is not None
    kept = stored.model_dump_json()
    assert hook.secret not in kept
    assert hook.secret.removeprefix(PREFIX) not in kept
    assert unseal(parse_key(KEY), stored.secret, hook.id) == hook.secret  # sealed with the key


def test_a_service_with_another_webhook_key_cannot_sign_and_records_why(
    service: Service,
    alice: Viewer,
    editor: Viewer,
    receiver: Receiver,
    storycore_clock: ManualClock,
) -> None:
    hook = service.webhooks.add(receiver.url, viewer=editor)
    _story(service, alice, "tale")
    another_key = Settings(
        password_cost=2**4, webhook_key=new_key(), resolver_allowed_hosts=ALLOWED
    )
    other = _sending(service.store, another_key, storycore_clock)  # on the same store
    try:
        assert other.deliver() == 1
    finally:
        other.deliverer.close()
    assert receiver.got == []
    (item,) = service.webhooks.deliveries(hook.id, viewer=editor).items
    assert (item.state, item.attempts, item.last_status) == ("pending", 1, None)
    assert item.last_error is not None
    assert item.last_error.startswith("not sent")
    assert KEY not in item.last_error
    # the service with the right key sends it when it is due again
    storycore_clock.advance(5)
    assert service.deliver() == 1
    assert [event for event, _ in receiver.verified(hook.secret)] == [item.event]


def test_without_a_webhook_key_adding_is_unavailable_and_names_the_setting() -> None:
    with Service(open_store("memory://"), Settings(password_cost=2**4)) as keyless:
        with pytest.raises(Unavailable) as refused:
            keyless.webhooks.add(HOOK_URL, viewer=OPERATOR)
        assert refused.value.status == 503
        assert "STORYCORE_WEBHOOK_KEY" in refused.value.message
        assert keyless.webhooks.list(viewer=OPERATOR).items == []


# -- addresses -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://hooks.example/receive",
        "http://hooks.example:8080/in?token=abc",
        "https://93.184.216.34/hook",
        "https://[2606:2800:220:1:248:1893:25c8:1946]/hook",
    ],
)
def test_a_public_http_or_https_address_is_taken(strict: Service, url: str) -> None:
    assert strict.webhooks.add(url, viewer=OPERATOR).url == url


@pytest.mark.parametrize(
    "url",
    [
        "ftp://hooks.example/receive",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "hooks.example/receive",
        "https://",
        "",
        5,
        None,
        ["https://hooks.example/"],
    ],
    ids=repr,
)
def test_an_address_that_is_not_http_or_https_is_refused(strict: Service, url: object) -> None:
    with pytest.raises(InvalidParameter) as refused:
        strict.webhooks.add(url, viewer=OPERATOR)  # type: ignore[arg-type]
    assert refused.value.field == "url"


@pytest.mark.parametrize(
    "url",
    [
        "https://user:pass@hooks.example/",
        "https://user@hooks.example/",
        "https://:pw@hooks.example/",
    ],
)
def test_an_address_with_credentials_is_refused(strict: Service, url: str) -> None:
    with pytest.raises(InvalidParameter) as refused:
        strict.webhooks.add(url, viewer=OPERATOR)
    assert refused.value.field == "url"
    assert "pass" not in refused.value.message


def test_an_address_longer_than_the_limit_is_refused(strict: Service) -> None:
    limit = strict.settings.limits.address
    fits = "https://hooks.example/" + "a" * (limit - len("https://hooks.example/"))
    assert strict.webhooks.add(fits, viewer=OPERATOR).url == fits
    with pytest.raises(InvalidParameter) as refused:
        strict.webhooks.add(fits + "a", viewer=OPERATOR)
    assert refused.value.field == "url"


PRIVATE = [
    "http://127.0.0.1:8000/hook",
    "http://127.9.9.9/hook",
    "http://10.1.2.3/hook",
    "http://192.168.1.10/hook",
    "http://172.16.0.1/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://0.0.0.0/hook",
    "http://[::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[fe80::1]/hook",
    "http://[fd00::1]/hook",
    "http://localhost:8080/hook",
    "http://LOCALHOST/hook",
    "http://api.localhost/hook",
    "http://localhost./hook",
    "http://127.0.0.1./hook",
    # the loopback address as the system's resolver also reads it, and as IDNA maps it
    "http://127.1/x",
    "http://0x7f.1/x",
    "http://0x7f000001/x",
    "http://2130706433/x",
    "http://0177.0.0.1/x",
    "http://127.000.000.001/x",
    "http://0/x",
    f"http://{full_width('LOCALHOST')}/x",
    f"http://{IDEOGRAPHIC_FULL_STOP.join(['127', '0', '0', '1'])}/x",
    f"http://{full_width('127.0.0.1')}/x",
    "http://%31%32%37.0.0.1/x",
    "http://0xa9fea9fe/latest/meta-data",
    "http://10.1/x",
]


@pytest.mark.parametrize("url", PRIVATE)
def test_a_loopback_private_or_link_local_address_is_refused(strict: Service, url: str) -> None:
    with pytest.raises(InvalidParameter) as refused:
        strict.webhooks.add(url, viewer=OPERATOR)
    assert refused.value.field == "url"
    assert "--resolve-allow-host" in refused.value.message
    assert strict.webhooks.list(viewer=OPERATOR).items == []


@pytest.mark.parametrize(
    ("allowed", "url"),
    [
        ("127.0.0.1", "http://127.0.0.1:8000/hook"),
        ("10.1.2.3", "http://10.1.2.3/hook"),
        ("169.254.169.254", "http://169.254.169.254/hook"),
        ("[::1]", "http://[::1]/hook"),
        ("localhost", "http://localhost:8080/hook"),
        ("LocalHost", "http://localhost/hook"),
        ("127.0.0.1", "http://127.1:8000/hook"),
        ("127.0.0.1", "http://2130706433:8000/hook"),
        ("localhost", f"http://{full_width('LOCALHOST')}:8080/hook"),
    ],
)
def test_a_private_address_is_taken_when_the_deployment_allows_its_host(
    allowed: str, url: str
) -> None:
    settings = Settings(password_cost=2**4, webhook_key=KEY, resolver_allowed_hosts=(allowed,))
    with Service(open_store("memory://"), settings) as allowing:
        assert allowing.webhooks.add(url, viewer=OPERATOR).url == url
        with pytest.raises(InvalidParameter):  # that host only
            allowing.webhooks.add("http://10.9.9.9/hook", viewer=OPERATOR)


# -- event types -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "kept"),
    [
        (["story.published"], ["story.published"]),
        (["story.created", "story.deleted"], ["story.created", "story.deleted"]),
        (list(EVENT_TYPES), list(EVENT_TYPES)),
        ("story.created", ["story.created"]),
        ("story.created, user.updated", ["story.created", "user.updated"]),
        ("story.created,story.deleted", ["story.created", "story.deleted"]),
        (["*"], ["*"]),
        ("*", ["*"]),
        (["story.created", "*"], ["*"]),
        (None, ["*"]),
        (["story.saved", "story.saved"], ["story.saved"]),
        (["story.saved", "user.created", "story.saved"], ["story.saved", "user.created"]),
        ("story.saved,story.saved", ["story.saved"]),
    ],
    ids=repr,
)
def test_event_types_are_a_list_a_comma_text_or_every_one(
    strict: Service, events: object, kept: list[str]
) -> None:
    hook = strict.webhooks.add(HOOK_URL, events, viewer=OPERATOR)
    assert hook.events == kept
    assert strict.webhooks.read(hook.id, viewer=OPERATOR).events == kept


@pytest.mark.parametrize(
    "events",
    [
        [],
        ["story.eaten"],
        ["story.created", "story.eaten"],
        "story.created, story.eaten",
        ["Story.Created"],
        ["story.*"],
        "story.created,,story.deleted",
        [5],
        [None],
        [["story.created"]],
        {"story.created": True},
        5,
        ["x" * 10_000],
    ],
    ids=lambda events: repr(events)[:40],
)
def test_an_unknown_event_type_or_an_empty_list_is_refused(strict: Service, events: object) -> None:
    with pytest.raises(InvalidParameter) as refused:
        strict.webhooks.add(HOOK_URL, events, viewer=OPERATOR)
    assert refused.value.field == "events"
    assert len(refused.value.message) < 400
    assert strict.webhooks.list(viewer=OPERATOR).items == []


# -- what a webhook receives -----------------------------------------------------------------


def test_a_new_webhook_receives_only_the_events_logged_after_it_was_made(
    service: Service, alice: Viewer, editor: Viewer, receiver: Receiver
) -> None:
    _story(service, alice, "before", publish=True)
    assert service.deliver() == 0  # no webhook yet: nothing waits for one
    made_at = service.events.end()
    hook = service.webhooks.add(receiver.url, viewer=editor)
    _story(service, alice, "after", publish=True)
    service.stories.save("alice", "before", {"title": "Edited"}, viewer=alice)
    later = _logged_after(service, made_at)
    assert len(later) == 3
    assert service.deliver() == 3
    got = receiver.verified(hook.secret)
    assert sorted(event for event, _ in got) == sorted(later)
    assert {payload["type"] for _, payload in got} == {
        "story.created",
        "story.published",
        "story.saved",
    }
    listed = service.webhooks.deliveries(hook.id, viewer=editor).items
    assert sorted(item.event for item in listed) == sorted(later)


def test_a_webhook_made_on_an_empty_log_receives_the_first_event(
    store: Any, storycore_clock: ManualClock, receiver: Receiver
) -> None:
    with _sending(store, SETTINGS, storycore_clock) as fresh:
        assert fresh.events.end() is None
        hook = fresh.webhooks.add(receiver.url, viewer=OPERATOR)
        fresh.accounts.create_user("dora")
        assert fresh.deliver() == 1
    ((_, payload),) = receiver.verified(hook.secret)
    assert (payload["type"], payload["data"]["username"]) == ("user.created", "dora")


def test_a_webhook_receives_only_its_event_types(
    service: Service, alice: Viewer, editor: Viewer, receiver: Receiver
) -> None:
    hook = service.webhooks.add(receiver.url, ["story.published"], viewer=editor)
    _story(service, alice, "draft")
    _story(service, alice, "out", publish=True)
    assert service.deliver() == 1
    ((_, payload),) = receiver.verified(hook.secret)
    assert (payload["type"], payload["data"]["slug"]) == ("story.published", "out")


def test_a_removed_webhook_is_not_found_and_its_deliveries_are_gone(
    service: Service, alice: Viewer, editor: Viewer, delivered: Delivered, receiver: Receiver
) -> None:
    hook = delivered.hook.id
    assert service.webhooks.remove(hook, viewer=editor).deleted
    for operation in ("read", "remove", "deliveries", "redeliver"):
        with pytest.raises(NotFound):
            OPERATIONS[operation](service, editor, delivered)
    assert service.store.webhooks.get(hook) is None
    assert (
        service.store.deliveries.count(hook),
        service.store.deliveries.get(hook, delivered.event),
    ) == (0, None)
    assert service.webhooks.list(viewer=editor).items == []
    _story(service, alice, "later")
    assert service.deliver() == 0
    assert len(receiver.got) == 1  # the delivery made before the removal


@pytest.mark.parametrize("webhook", ["wh_none", "", "../wh", "x" * 1000])
def test_an_unknown_webhook_is_not_found(service: Service, editor: Viewer, webhook: str) -> None:
    hooks = service.webhooks
    calls: list[Callable[[], object]] = [
        lambda: hooks.read(webhook, viewer=editor),
        lambda: hooks.remove(webhook, viewer=editor),
        lambda: hooks.deliveries(webhook, viewer=editor),
        lambda: hooks.redeliver(webhook, "evt_0000000000000000", viewer=editor),
    ]
    for call in calls:
        with pytest.raises(NotFound):
            call()


def test_a_redelivery_of_an_event_the_webhook_never_had_is_not_found(
    service: Service, editor: Viewer, delivered: Delivered
) -> None:
    with pytest.raises(NotFound):
        service.webhooks.redeliver(delivered.hook.id, "evt_0000000000000000", viewer=editor)


def test_a_redelivery_sends_the_event_again_at_once(
    service: Service,
    editor: Viewer,
    delivered: Delivered,
    receiver: Receiver,
    storycore_clock: ManualClock,
) -> None:
    storycore_clock.advance(60)
    again = service.webhooks.redeliver(delivered.hook.id, delivered.event, viewer=editor)
    assert (again.state, again.next_attempt) == ("pending", format_timestamp(storycore_clock.now()))
    assert service.deliver() == 1
    got = receiver.verified(delivered.hook.secret)
    assert [event for event, _ in got] == [delivered.event, delivered.event]
    (item,) = service.webhooks.deliveries(delivered.hook.id, viewer=editor).items
    assert (item.state, item.attempts) == ("delivered", 2)


# -- how many, and their list ----------------------------------------------------------------


def test_a_store_keeps_at_most_max_webhooks(strict: Service) -> None:
    made = [strict.webhooks.add(HOOK_URL, viewer=OPERATOR).id for _ in range(MAX_WEBHOOKS)]
    with pytest.raises(Conflict):
        strict.webhooks.add(HOOK_URL, viewer=OPERATOR)
    assert len(strict.store.webhooks.find(0, MAX_WEBHOOKS + 10)) == MAX_WEBHOOKS
    strict.webhooks.remove(made[0], viewer=OPERATOR)
    strict.webhooks.add(HOOK_URL, viewer=OPERATOR)  # room again
    assert len(strict.store.webhooks.find(0, MAX_WEBHOOKS + 10)) == MAX_WEBHOOKS


def test_the_list_is_oldest_first_and_paged(strict: Service) -> None:
    made = [strict.webhooks.add(f"https://hooks.example/{n}", viewer=OPERATOR).id for n in range(5)]
    pages = [strict.webhooks.list(viewer=OPERATOR, page=n, per_page=2) for n in (1, 2, 3, 4)]
    assert [page.has_next for page in pages] == [True, True, False, False]
    assert [len(page.items) for page in pages] == [2, 2, 1, 0]
    listed = [hook.id for page in pages for hook in page.items]
    assert sorted(listed) == sorted(made)  # each once (made in one millisecond: any order)
    assert listed == [hook.id for hook in strict.webhooks.list(viewer=OPERATOR).items]


def test_the_list_is_in_the_order_the_webhooks_were_made(
    service: Service, storycore_clock: ManualClock
) -> None:
    made = []
    for n in range(4):
        storycore_clock.advance(1)
        made.append(service.webhooks.add(f"https://hooks.example/{n}", viewer=OPERATOR).id)
    pages = [service.webhooks.list(viewer=OPERATOR, page=n, per_page=3) for n in (1, 2)]
    assert [hook.id for page in pages for hook in page.items] == made


@pytest.mark.parametrize(("page", "per_page"), [(0, 2), ("x", 2), (1, 0), (1, 10_000)])
def test_a_page_out_of_range_is_refused(strict: Service, page: object, per_page: object) -> None:
    with pytest.raises(InvalidParameter):
        strict.webhooks.list(viewer=OPERATOR, page=page, per_page=per_page)  # type: ignore[arg-type]


def test_a_delivery_body_is_the_event_as_logged(
    service: Service, editor: Viewer, delivered: Delivered, receiver: Receiver
) -> None:
    (logged,) = [
        item.event
        for item in service.events.after(None, MAX_EVENTS)
        if item.event.id == delivered.event
    ]
    ((_, payload),) = receiver.verified(delivered.hook.secret)
    assert payload == {
        "type": logged.type,
        "timestamp": logged.timestamp,
        "data": orjson.loads(logged.data),
    }
