"""``publish_at`` over HTTP (docs/api.md#scheduled-publishing), through ``HttpApp``: in a form
(text; an
empty value cancels) and in JSON (a string; null cancels), on create, save and publish.

The world's clock stands at 2026-01-01T00:00:00Z until a test moves it.
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest

from storycore.http.api import ROUTES
from storycore.http.openapi import openapi_document
from tests.conftest import TEST_SETTINGS
from tests.http._clients import Answer, Client
from tests.http._shapes import content_of, error_of
from tests.http.conftest import World

AN_HOUR = "2026-01-01T01:00:00Z"
AN_HOUR_STORED = "2026-01-01T01:00:00.000Z"
DRAFT = "/v1/stories/alice/draft"


def _send(client: Client, how: str, path: str, values: dict[str, Any]) -> Answer:
    return client.post_form(path, values) if how == "form" else client.post_json(path, values)


def _draft(client: Client, world: World) -> dict[str, Any]:
    return content_of(client.get(DRAFT, world.credentials("alice")))  # type: ignore[no-any-return]


@pytest.mark.parametrize("how", ["form", "json"])
def test_create_with_publish_at_answers_a_working_story_scheduled_then(
    client: Client, world: World, how: str
) -> None:
    values = {**world.credentials("alice"), "story": {"title": "Soon"}, "publish_at": AN_HOUR}
    created = content_of(
        _send(client, how, "/v1/stories/alice/create", {**values, "publish": True})
    )
    assert created["status"] == "working"
    story = content_of(
        client.get(f"/v1/stories/alice/{created['slug']}", world.credentials("alice"))
    )
    assert story["publish_at"] == AN_HOUR_STORED


@pytest.mark.parametrize("how", ["form", "json"])
def test_save_with_publish_at_schedules_the_story(client: Client, world: World, how: str) -> None:
    values = {**world.credentials("alice"), "story": {}, "publish_at": AN_HOUR}
    saved = content_of(_send(client, how, f"{DRAFT}/save", values))
    assert (saved["status"], saved["publish_at"]) == ("working", AN_HOUR_STORED)


@pytest.mark.parametrize(("how", "cancel"), [("form", ""), ("json", None), ("json", "")])
def test_a_save_with_publish_at_null_or_empty_cancels_the_schedule(
    client: Client, world: World, how: str, cancel: str | None
) -> None:
    credentials = world.credentials("alice")
    content_of(
        client.post_json(f"{DRAFT}/save", {**credentials, "story": {}, "publish_at": AN_HOUR})
    )
    values: dict[str, Any] = {**credentials, "story": {}, "publish_at": cancel}
    assert content_of(_send(client, how, f"{DRAFT}/save", values))["publish_at"] is None
    assert _draft(client, world)["publish_at"] is None


def test_a_save_without_publish_at_keeps_the_schedule(client: Client, world: World) -> None:
    credentials = world.credentials("alice")
    content_of(
        client.post_json(f"{DRAFT}/save", {**credentials, "story": {}, "publish_at": AN_HOUR})
    )
    saved = content_of(client.post_form(f"{DRAFT}/save", {**credentials, "story": {"title": "T"}}))
    assert saved["publish_at"] == AN_HOUR_STORED


@pytest.mark.parametrize("how", ["form", "json"])
def test_publish_with_publish_at_schedules_instead_of_publishing(
    client: Client, world: World, how: str
) -> None:
    values = {**world.credentials("alice"), "publish_at": AN_HOUR}
    answer = content_of(_send(client, how, f"{DRAFT}/publish", values))
    assert (answer["status"], answer["publish_at"]) == ("working", AN_HOUR_STORED)


@pytest.mark.parametrize(("how", "now"), [("form", ""), ("json", None), ("json", "absent")])
def test_publish_without_a_time_publishes_now_and_cancels_the_schedule(
    client: Client, world: World, how: str, now: str | None
) -> None:
    credentials = world.credentials("alice")
    content_of(client.post_json(f"{DRAFT}/publish", {**credentials, "publish_at": AN_HOUR}))
    values = {**credentials} if now == "absent" else {**credentials, "publish_at": now}
    answer = content_of(_send(client, how, f"{DRAFT}/publish", values))
    assert (answer["status"], answer["publish_at"]) == ("published", None)


@pytest.mark.parametrize(
    ("how", "publish_at"),
    [
        ("form", "tomorrow"),
        ("form", "2026-01-01T00:00:00.500Z"),  # half a second ahead
        ("form", "2025-12-31T00:00:00Z"),  # past
        ("form", "2027-06-01T00:00:00Z"),  # more than a year ahead
        ("form", "2026-01-01T01:00:00"),  # no zone
        ("form", "2026-01-01T10:00:00+08:60"),  # minutes of the offset beyond 59
        ("json", "2026-01-01T10:00:00+08:60"),
        ("json", "2026-01-01T10:00:00-00:75"),
        ("json", 3600),
        ("json", True),
        ("json", ["2026-01-01T01:00:00Z"]),
        ("json", {"at": "2026-01-01T01:00:00Z"}),
    ],
    ids=repr,
)
def test_a_publish_at_that_is_no_time_one_second_to_one_year_ahead_is_400_naming_it(
    client: Client, world: World, how: str, publish_at: object
) -> None:
    writes: list[tuple[str, dict[str, Any]]] = [
        ("/v1/stories/alice/create", {"story": {"title": "Soon"}}),
        (f"{DRAFT}/save", {"story": {}}),
        (f"{DRAFT}/publish", {}),
    ]
    for path, values in writes:
        sent = {**world.credentials("alice"), **values, "publish_at": publish_at}
        answer = _send(client, how, path, sent)
        error = error_of(answer)
        assert (answer.status, error["type"], error["field"]) == (
            400,
            "invalid_parameter",
            "publish_at",
        ), path
    assert _draft(client, world)["version"] == 2


def test_a_published_story_cannot_be_scheduled(client: Client, world: World) -> None:
    values = {**world.credentials("alice"), "story": {}, "publish_at": AN_HOUR}
    answer = client.post_json("/v1/stories/alice/open/save", values)
    assert (answer.status, error_of(answer)["field"]) == (400, "publish_at")


def test_a_scheduled_story_is_published_when_its_time_has_come(
    client: Client, world: World
) -> None:
    credentials = world.credentials("alice")
    content_of(client.post_json(f"{DRAFT}/publish", {**credentials, "publish_at": AN_HOUR}))
    world.clock.advance(hours=1)
    assert world.service.publish_due() == 1
    story = content_of(client.get(DRAFT))  # anyone may read it now
    assert (story["status"], story["publish_at"], story["updated"]) == (
        "published",
        None,
        AN_HOUR_STORED,
    )


@pytest.mark.parametrize("formats", [True, False], ids=["formats checked", "formats not checked"])
@pytest.mark.parametrize("value", [AN_HOUR, AN_HOUR_STORED, None, ""], ids=repr)
def test_the_documented_publish_at_takes_a_time_null_and_the_empty_string(
    value: str | None, formats: bool
) -> None:
    document = openapi_document(ROUTES, TEST_SETTINGS)
    save = document["paths"]["/v1/stories/{username}/{slug}/save"]["post"]
    schema = save["requestBody"]["content"]["application/json"]["schema"]["properties"]
    validator = jsonschema_rs.validator_for(
        {**schema["publish_at"], "components": document["components"]}, validate_formats=formats
    )
    assert validator.is_valid(value)
    assert not validator.is_valid("tomorrow")
    assert not validator.is_valid("2026-01-01T01:00:00")  # no zone: the service refuses it


@pytest.mark.parametrize("action", ["save", "publish"])
def test_a_caller_without_credentials_is_refused_before_the_time_it_sends_is_read(
    client: Client, action: str
) -> None:
    answer = client.post_form(
        f"{DRAFT}/{action}", {"story": "{}", "publish_at": "2000-01-01T00:00:00Z"}
    )
    assert answer.status == 401
