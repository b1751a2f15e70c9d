"""The webhook routes (docs/webhooks.md) over HTTP, through ``HttpApp``: registering a
webhook (its secret shown once), listing and reading them, their deliveries, a redelivery and a
removal; who may call them; the faults each names.

The world's ed registered a webhook for ``story.published`` (``world.webhook``) at a receiver
on 127.0.0.1 before alice published ``open`` and ``secret``; the world's settings allow that
host. How sending goes is the deliverer's own tests' part; here a delivery is made by
``service.deliver()`` where a test needs one.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import jsonschema_rs
import pytest
import standardwebhooks

from storycore import Service
from storycore.adapters import open_store
from storycore.http.api import ROUTES
from storycore.http.routing import Route
from storycore.model.events import EVENT_TYPES
from storycore.rules.timestamps import format_timestamp
from storycore.usecases.webhooks import MAX_WEBHOOKS
from tests._unicode import full_width
from tests.conftest import TEST_SETTINGS
from tests.http._clients import Answer, AppClient, Client
from tests.http._shapes import TIMESTAMP, content_of, error_of, keys
from tests.http.conftest import World
from tests.http.test_endpoints import VALID_REQUESTS

WEBHOOK = keys("id url events private created failing disabled")
DELIVERY = keys(
    "event type created state attempts last_status last_error last_attempt next_attempt"
)
HOOKS = "/v1/webhooks"
ELSEWHERE = "https://hooks.example/storycore"
UNKNOWN_WEBHOOK = "wh_000000000000"
UNKNOWN_EVENT = "evt_0000000000000000"
WEBHOOK_ROUTES = [route for route in ROUTES if "webhooks" in route.tags]
WEBHOOK_IDS = [f"{route.method} {route.template}" for route in WEBHOOK_ROUTES]


def _as_ed(world: World, **params: object) -> dict[str, object]:
    return {**params, **world.credentials("ed")}


def _add(client: Client, world: World, url: object = ELSEWHERE, **params: object) -> Answer:
    return client.post_json(HOOKS, _as_ed(world, url=url, **params))


def _call(client: Client, world: World, route: Route, credentials: dict[str, str]) -> Answer:
    """The route's valid request (``test_endpoints``) with ``credentials``."""
    path, params, _ = VALID_REQUESTS[route.method, route.template]
    values = {**params, **credentials}
    if route.method == "GET":
        return client.get(world.at(path), values)
    return client.post_json(world.at(path), values)


def _deliveries(client: Client, world: World, webhook: str, **params: object) -> Any:
    return content_of(client.get(f"{HOOKS}/{webhook}/deliveries", _as_ed(world, **params)))


# -- registering -----------------------------------------------------------------------------


def test_add_answers_the_webhook_with_its_signing_secret(client: Client, world: World) -> None:
    made = content_of(_add(client, world, events=["story.published", "story.deleted"]))
    assert set(made) == WEBHOOK | {"secret"}
    assert (made["url"], made["events"]) == (ELSEWHERE, ["story.published", "story.deleted"])
    assert (made["failing"], made["disabled"]) == (None, None)
    assert made["id"].startswith("wh_")
    assert TIMESTAMP.match(made["created"])
    standardwebhooks.Webhook(made["secret"])  # the form Standard Webhooks takes
    assert made["secret"].startswith("whsec_")


def test_the_list_and_a_read_never_show_the_secret(client: Client, world: World) -> None:
    made = content_of(_add(client, world))
    listed = content_of(client.get(HOOKS, _as_ed(world)))["webhooks"]
    read = content_of(client.get(f"{HOOKS}/{made['id']}", _as_ed(world)))
    assert all(set(hook) == WEBHOOK for hook in listed)
    assert set(read) == WEBHOOK
    assert made["secret"] not in str([listed, read])


def test_the_secret_add_answers_signs_what_the_webhook_is_sent(
    client: Client, world: World
) -> None:
    url = f"{world.receiver.url}/signed"
    made = content_of(_add(client, world, url=url, events=["story.published"]))
    world.clock.set(datetime.now(UTC))  # a receiver refuses a signature made long ago
    world.publish("Signed")
    world.service.deliver()
    [sent] = [d for d in world.receiver.received if d.path.endswith("/signed")]
    payload = standardwebhooks.Webhook(made["secret"]).verify(sent.body, sent.headers)
    assert (payload["type"], payload["data"]["title"]) == ("story.published", "Signed")


def test_a_webhook_is_not_private_unless_registered_so(client: Client, world: World) -> None:
    made = content_of(_add(client, world))
    assert made["private"] is False
    assert content_of(client.get(f"{HOOKS}/{made['id']}", _as_ed(world)))["private"] is False


@pytest.mark.parametrize("private", [True, "true"])
def test_a_webhook_registered_private_is_answered_private(
    client: Client, world: World, private: object
) -> None:
    made = content_of(_add(client, world, private=private))
    assert made["private"] is True
    assert content_of(client.get(f"{HOOKS}/{made['id']}", _as_ed(world)))["private"] is True
    listed = content_of(client.get(HOOKS, _as_ed(world)))["webhooks"]
    assert [hook["private"] for hook in listed if hook["id"] == made["id"]] == [True]


def test_events_absent_are_every_event(client: Client, world: World) -> None:
    assert content_of(_add(client, world))["events"] == ["*"]


def test_events_may_be_comma_separated_text_in_a_form(client: Client, world: World) -> None:
    answer = client.post_form(
        HOOKS, _as_ed(world, url=ELSEWHERE, events="story.saved, story.deleted")
    )
    assert content_of(answer)["events"] == ["story.saved", "story.deleted"]


def test_a_private_address_is_taken_when_the_deployment_allowed_its_host(
    client: Client, world: World
) -> None:
    assert world.service.settings.resolver_allowed_hosts == ("127.0.0.1",)
    assert content_of(_add(client, world, url="http://127.0.0.1:9/hook"))["url"] == (
        "http://127.0.0.1:9/hook"
    )


#: addresses refused for their form: the document's schema of ``url`` refuses them too
REFUSED_FORMS = [
    "ftp://hooks.example/x",
    "not an address",
    "http://localhost/hook",
    "http://Events.LocalHost:8080/hook",
    "http://[::1]/hook",
    f"http://{full_width('LOCALHOST')}/hook",
    "https://user:password@hooks.example/hook",
    "//token@hooks.example/hook",
    "",
    5,
]
#: addresses refused for where they lead, which the operation's description says
REFUSED_ADDRESSES = [
    "http://10.0.0.1/hook",
    "http://169.254.169.254/latest",
    "http://0.0.0.0/",
    # the same, written as the system's resolver also reads them
    "http://10.1/hook",
    "http://012.0.0.1/hook",
    "http://0xa9fea9fe/latest",
    "http://0/",
]
REFUSED_EVENTS = [
    [],
    ["story.nope"],
    ["Story.Published"],
    "story.published,",
    "nope",
    "\x0bstory.published",
    5,
    {"type": "*"},
]


@pytest.mark.parametrize("url", [*REFUSED_FORMS, *REFUSED_ADDRESSES])
def test_a_url_that_is_not_a_public_http_address_is_400_naming_url(
    client: Client, world: World, url: object
) -> None:
    answer = _add(client, world, url=url)
    assert (answer.status, error_of(answer)["field"]) == (400, "url"), answer.body


@pytest.mark.parametrize("events", REFUSED_EVENTS)
def test_events_that_are_not_event_types_are_400_naming_events(
    client: Client, world: World, events: object
) -> None:
    answer = _add(client, world, events=events)
    assert (answer.status, error_of(answer)["field"]) == (400, "events"), answer.body


def _body_schema(client: Client, media: str) -> Any:
    """The schema of an add's body in the document the world's service serves."""
    document = client.get("/v1/openapi.json").json()
    schema = document["paths"][HOOKS]["post"]["requestBody"]["content"][media]["schema"]
    return jsonschema_rs.validator_for({**schema, "components": document["components"]})


def test_the_document_refuses_what_add_refuses_for_its_form(client: Client) -> None:
    schema = _body_schema(client, "application/json")
    assert [url for url in REFUSED_FORMS if schema.is_valid({"url": url})] == []
    assert [e for e in REFUSED_EVENTS if schema.is_valid({"url": ELSEWHERE, "events": e})] == []


@pytest.mark.parametrize(
    "body",
    [
        {"url": ELSEWHERE},
        {"url": "//hooks.example/x", "events": None},
        {"url": "http://127.0.0.1:9/hook", "events": ["*"]},  # the world allowed the host
        {"url": "http://localhost.example/", "events": ["story.saved", "story.saved"]},
    ],
)
def test_the_document_and_add_take_a_json_body(
    client: Client, world: World, body: dict[str, object]
) -> None:
    assert _body_schema(client, "application/json").is_valid(body)
    assert _add(client, world, **body).status == 200


@pytest.mark.parametrize("events", ["", "*", "story.saved , user.created", " story.deleted"])
def test_the_document_and_add_take_events_as_text_in_a_form(
    client: Client, world: World, events: str
) -> None:
    body = {"url": ELSEWHERE, "events": events}
    assert _body_schema(client, "application/x-www-form-urlencoded").is_valid(body)
    assert client.post_form(HOOKS, _as_ed(world, **body)).status == 200


def test_a_registration_links_to_the_calls_on_the_webhook_it_answers_with(
    client: Client,
) -> None:
    document = client.get("/v1/openapi.json").json()
    links = document["paths"][HOOKS]["post"]["responses"]["200"]["links"]
    assert set(links) == {"read_webhook", "remove_webhook", "list_deliveries", "redeliver"}
    for name, link in links.items():
        assert link == {
            "operationId": name,
            "parameters": {"webhook": "$response.body#/content/id"},
        }


def test_a_store_full_of_webhooks_answers_409_to_another(client: Client, world: World) -> None:
    ed = world.service.accounts.as_user("ed")
    for _ in range(MAX_WEBHOOKS - 1):  # the world's is the first
        world.service.webhooks.add(ELSEWHERE, viewer=ed)
    answer = _add(client, world)
    assert (answer.status, error_of(answer)["type"]) == (409, "conflict")


def test_without_a_webhook_key_add_is_503() -> None:
    service = Service(open_store("memory://"), TEST_SETTINGS)
    service.accounts.create_user("ed", "ed-password", editor=True)
    key = service.accounts.create_app("tests").api_key
    token = service.accounts.authenticate(key, "ed", "ed-password").token
    credentials = {"api_key": key, "username": "ed", "_token": token}
    answer = AppClient(service).post_json(HOOKS, {"url": ELSEWHERE, **credentials})
    service.close()
    assert (answer.status, error_of(answer)["type"]) == (503, "unavailable")


# -- who may call them -----------------------------------------------------------------------


@pytest.mark.parametrize("route", WEBHOOK_ROUTES, ids=WEBHOOK_IDS)
@pytest.mark.parametrize("actor", ["anonymous", "app-only"])
def test_a_webhook_route_answers_401_without_a_user(
    client: Client, world: World, route: Route, actor: str
) -> None:
    answer = _call(client, world, route, world.actor(actor))
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")


@pytest.mark.parametrize("route", WEBHOOK_ROUTES, ids=WEBHOOK_IDS)
@pytest.mark.parametrize("actor", ["owner", "other user", "featurer"])
def test_a_webhook_route_answers_403_to_a_user_who_is_not_an_editor(
    client: Client, world: World, route: Route, actor: str
) -> None:
    answer = _call(client, world, route, world.actor(actor))
    assert (answer.status, error_of(answer)["type"]) == (403, "forbidden")


@pytest.mark.parametrize(
    ("method", "path", "params"),
    [
        ("POST", HOOKS, {"url": "http://localhost/hook", "events": ["nope"]}),
        ("GET", HOOKS, {"page": "0", "per_page": "x"}),
        ("GET", f"{HOOKS}/{UNKNOWN_WEBHOOK}/deliveries", {"page": "0"}),
        ("POST", f"{HOOKS}/{UNKNOWN_WEBHOOK}/deliveries/{UNKNOWN_EVENT}/redeliver", {}),
    ],
)
@pytest.mark.parametrize(("actor", "status"), [("anonymous", 401), ("other user", 403)])
def test_who_calls_is_judged_before_what_the_operation_is_asked(
    client: Client,
    world: World,
    method: str,
    path: str,
    params: dict[str, object],
    actor: str,
    status: int,
) -> None:
    values = {**params, **world.actor(actor)}
    answer = client.get(path, values) if method == "GET" else client.post_json(path, values)
    assert answer.status == status, answer.body


# -- reading ---------------------------------------------------------------------------------


def test_the_list_is_a_page_of_webhooks_oldest_first(client: Client, world: World) -> None:
    world.clock.advance(1)
    made = content_of(_add(client, world))
    content = content_of(client.get(HOOKS, _as_ed(world)))
    assert set(content) == {"page", "per_page", "webhooks"}
    assert (content["page"], content["per_page"]) == (1, 20)
    assert [hook["id"] for hook in content["webhooks"]] == [world.webhook, made["id"]]


def test_the_list_links_its_next_page(client: Client, world: World) -> None:
    _add(client, world)
    answer = client.get(HOOKS, _as_ed(world, per_page=1))
    assert len(content_of(answer)["webhooks"]) == 1
    assert 'rel="next"' in answer.headers["link"]


def test_a_read_answers_the_webhook(client: Client, world: World) -> None:
    read = content_of(client.get(f"{HOOKS}/{world.webhook}", _as_ed(world)))
    assert (read["id"], read["url"], read["events"]) == (
        world.webhook,
        world.receiver.url,
        ["story.published"],
    )


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", f"{HOOKS}/{UNKNOWN_WEBHOOK}"),
        ("POST", f"{HOOKS}/{UNKNOWN_WEBHOOK}/delete"),
        ("GET", f"{HOOKS}/{UNKNOWN_WEBHOOK}/deliveries"),
        ("POST", f"{HOOKS}/{UNKNOWN_WEBHOOK}/deliveries/{UNKNOWN_EVENT}/redeliver"),
        ("GET", f"{HOOKS}/not-a-webhook-id"),
    ],
)
def test_an_unknown_webhook_is_404(client: Client, world: World, method: str, path: str) -> None:
    answer = (
        client.get(path, _as_ed(world))
        if method == "GET"
        else client.post_json(path, _as_ed(world))
    )
    assert (answer.status, error_of(answer)["type"]) == (404, "not_found")


def test_a_redelivery_of_an_event_the_webhook_was_not_sent_is_404(
    client: Client, world: World
) -> None:
    path = f"{HOOKS}/{world.webhook}/deliveries/{UNKNOWN_EVENT}/redeliver"
    answer = client.post_json(path, _as_ed(world))
    assert (answer.status, error_of(answer)["type"]) == (404, "not_found")


# -- deliveries ------------------------------------------------------------------------------


def test_the_deliveries_are_a_page_newest_first_with_their_outcome(
    client: Client, world: World
) -> None:
    made = content_of(_add(client, world, url=world.receiver.url, events=["story.published"]))
    world.publish("First", "Second")
    world.service.deliver()
    content = _deliveries(client, world, made["id"], total="true")
    assert set(content) == {"page", "per_page", "total", "deliveries"}
    assert (content["page"], content["per_page"], content["total"]) == (1, 20, 2)
    assert all(set(item) == DELIVERY for item in content["deliveries"])
    logged = [e.event for e in world.service.events.after(None, 100)]
    published = [e.id for e in logged if e.type == "story.published"][-2:]
    assert [item["event"] for item in content["deliveries"]] == published[::-1]
    newest = content["deliveries"][0]
    assert (newest["type"], newest["state"], newest["attempts"]) == (
        "story.published",
        "delivered",
        1,
    )
    assert (newest["last_status"], newest["last_error"], newest["next_attempt"]) == (
        204,
        None,
        None,
    )
    assert newest["last_attempt"] == format_timestamp(world.clock.now())


def test_the_deliveries_count_every_page_only_when_asked(client: Client, world: World) -> None:
    world.event()
    assert "total" not in _deliveries(client, world, world.webhook)


def test_a_new_webhook_has_no_deliveries_of_what_happened_before(
    client: Client, world: World
) -> None:
    made = content_of(_add(client, world, url=world.receiver.url))
    world.service.deliver()
    assert _deliveries(client, world, made["id"], total="true")["total"] == 0


def test_redeliver_answers_the_delivery_due_now(client: Client, world: World) -> None:
    event = world.event()
    world.clock.advance(60)
    path = f"{HOOKS}/{world.webhook}/deliveries/{event}/redeliver"
    again = content_of(client.post_json(path, _as_ed(world)))
    assert set(again) == DELIVERY
    assert (again["event"], again["state"], again["attempts"]) == (event, "pending", 1)
    assert again["next_attempt"] == format_timestamp(world.clock.now())


def test_a_redelivered_event_is_sent_again(client: Client, world: World) -> None:
    event = world.event()
    path = f"{HOOKS}/{world.webhook}/deliveries/{event}/redeliver"
    client.post_json(path, _as_ed(world))
    world.service.deliver()
    sent = [d for d in world.receiver.received if d.headers.get("webhook-id") == event]
    assert len(sent) == 2
    [item] = [
        d for d in _deliveries(client, world, world.webhook)["deliveries"] if d["event"] == event
    ]
    assert (item["state"], item["attempts"]) == ("delivered", 2)


# -- removing --------------------------------------------------------------------------------


def test_delete_answers_the_id_and_the_webhook_is_gone(client: Client, world: World) -> None:
    answer = client.post_json(f"{HOOKS}/{world.webhook}/delete", _as_ed(world))
    assert content_of(answer) == {"id": world.webhook, "deleted": True}
    read = client.get(f"{HOOKS}/{world.webhook}", _as_ed(world))
    assert (read.status, error_of(read)["type"]) == (404, "not_found")


def test_a_deleted_webhooks_deliveries_are_gone_with_it(client: Client, world: World) -> None:
    world.event()
    deliveries = world.service.store.deliveries
    assert deliveries.count(world.webhook) == 2
    client.post_json(f"{HOOKS}/{world.webhook}/delete", _as_ed(world))
    assert deliveries.count(world.webhook) == 0


def test_every_event_type_may_be_asked_for(client: Client, world: World) -> None:
    made = content_of(_add(client, world, events=list(EVENT_TYPES)))
    assert made["events"] == list(EVENT_TYPES)
