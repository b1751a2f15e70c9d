"""Delegated creation through allowlisted identity providers (docs/delegation.md)."""

from __future__ import annotations

import logging
from typing import Any

import orjson
import pytest

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.identity import HttpProviderClient
from storycore.http import HttpApp, HttpResponse
from storycore.testing import ManualClock
from storycore.usecases.delegation import username_from_screen_name
from tests.conftest import TEST_SETTINGS
from tests.usecases.delegation.conftest import (
    SECRET,
    Delegating,
    FakeProvider,
    Reply,
    Trickle,
)


def _json(response: HttpResponse) -> dict[str, Any]:
    content: dict[str, Any] = orjson.loads(response.body)
    return content


def test_a_verified_user_gets_a_story_and_its_short_link(
    delegating: Delegating, provider: FakeProvider
) -> None:
    provider.answer_user()
    answer = delegating.create(provider.verify_url)
    content = _json(answer)["content"]
    assert answer.status == 200
    assert set(content) == {"sid", "permalink", "shortlink"}
    assert content["permalink"].endswith("/alice_a/from-afar")
    assert provider.requests == [("/1.1/account/verify_credentials.json", SECRET)]


def test_a_delegated_story_is_published_by_default(
    delegating: Delegating, provider: FakeProvider
) -> None:
    provider.answer_user()
    delegating.create(provider.verify_url)
    assert [s.slug for s in delegating.service.catalog.latest().items] == ["from-afar"]


def test_publish_false_keeps_the_story_working(
    delegating: Delegating, provider: FakeProvider
) -> None:
    provider.answer_user()
    delegating.create(provider.verify_url, publish="false")
    assert delegating.service.catalog.latest().items == []


def test_the_same_identity_is_the_same_user_with_the_providers_name_and_avatar(
    delegating: Delegating, provider: FakeProvider
) -> None:
    provider.answer_user(profile_image_url="https://img.example/a.png")
    delegating.create(provider.verify_url)
    provider.answer_user(name="Alice Renamed", profile_image_url="https://img.example/b.png")
    delegating.create(provider.verify_url, story={"title": "Second"})
    profile = delegating.service.accounts.get("alice_a")
    assert (profile.name, profile.avatar) == ("Alice Renamed", "https://img.example/b.png")
    assert len(delegating.service.accounts.list().items) == 1


def test_another_identity_with_the_same_screen_name_gets_a_numbered_username(
    delegating: Delegating, provider: FakeProvider
) -> None:
    provider.answer_user(user_id="1", screen_name="sam")
    delegating.create(provider.verify_url)
    provider.answer_user(user_id="2", screen_name="sam")
    delegating.create(provider.verify_url)
    assert [u.username for u in delegating.service.accounts.list().items] == ["sam", "sam_2"]


@pytest.mark.parametrize(
    ("screen_name", "number", "username"),
    [("a.b-c", 1, "abc"), ("***", 1, "user"), ("x" * 40, 2, "x" * 28 + "_2"), ("API", 1, "API_1")],
)
def test_usernames_are_made_valid_from_screen_names(
    screen_name: str, number: int, username: str
) -> None:
    assert username_from_screen_name(screen_name, number) == username


@pytest.mark.parametrize(
    ("reply", "status", "error"),
    [
        (Reply(401, b"{}"), 401, "unauthorized"),
        (Reply(403, b"{}"), 401, "unauthorized"),
        (Reply(500, b"oops"), 502, "provider_unavailable"),
        (Reply(200, b"<html>not json</html>"), 502, "provider_unavailable"),
        (Reply(200, b"[1, 2]"), 502, "provider_unavailable"),
        (Reply(200, b'{"name": "no id"}'), 502, "provider_unavailable"),
        (
            Reply(200, b'{"id_str": "1", "screen_name": "' + b"x" * 70000 + b'"}'),
            502,
            "provider_unavailable",
        ),
        (
            Reply(200, b'{"id_str": "1", "screen_name": "slow"}', delay=1.5),
            502,
            "provider_unavailable",
        ),
    ],
    ids=["401", "403", "500", "not-json", "not-an-object", "no-user", "oversized", "timeout"],
)
def test_provider_answers_map_to_errors(
    delegating: Delegating, provider: FakeProvider, reply: Reply, status: int, error: str
) -> None:
    provider.reply = reply
    answer = delegating.create(provider.verify_url)
    assert (answer.status, _json(answer)["error"]["type"]) == (status, error)
    assert delegating.service.accounts.list().items == []


_USER = b'{"id_str": "7", "screen_name": "trickler"}'
_HEADERS = [f"X-Filler-{n}: {n}\r\n".encode() for n in range(8)]
_ANSWER_HEAD = b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(_USER)


@pytest.mark.parametrize(
    "trickle",
    [
        # the status line, one byte every 0.2 s, then the rest of a good answer (3.6 s in all)
        Trickle(
            [bytes([byte]) for byte in b"HTTP/1.1 200 OK\r\n"] + [_ANSWER_HEAD + b"\r\n" + _USER],
            0.2,
        ),
        # the status line, then one header line every 0.4 s, then the rest (4 s in all)
        Trickle([b"HTTP/1.1 200 OK\r\n", *_HEADERS, _ANSWER_HEAD + b"\r\n" + _USER], 0.4),
        # a whole head, then the body one byte every 0.2 s (9 s in all)
        Trickle(
            [b"HTTP/1.1 200 OK\r\n" + _ANSWER_HEAD + b"\r\n"] + [bytes([b]) for b in _USER], 0.2
        ),
    ],
    ids=["status-line", "headers", "body"],
)
def test_the_provider_timeout_is_one_deadline_for_the_whole_answer(
    patient: Delegating, provider: FakeProvider, trickle: Trickle
) -> None:
    provider.trickle = trickle
    answer = patient.create(provider.verify_url)
    # a deadline per read would have let the whole answer in (each byte comes within it)
    assert (answer.status, _json(answer)["error"]["type"]) == (502, "provider_unavailable")
    assert patient.service.accounts.list().items == []


def test_a_provider_redirect_is_not_followed_and_means_unverified(
    delegating: Delegating, provider: FakeProvider, elsewhere: FakeProvider
) -> None:
    provider.reply = Reply(302, b"", {"Location": elsewhere.verify_url})
    answer = delegating.create(provider.verify_url)
    assert answer.status == 401
    assert elsewhere.requests == []


@pytest.mark.parametrize(
    "attempt",
    [
        "{allowed}/",
        "{allowed}?x=1",
        "{allowed}#frag",
        "{allowed_https}",
        "{allowed_other_port}",
        "{allowed_other_path}",
        "{allowed_encoded}",
        "{allowed_upper}",
        "http://{allowed_host}@{evil_host}/1.1/account/verify_credentials.json",
        "{evil}",
        " {allowed}",
        "",
    ],
)
def test_no_request_goes_anywhere_but_an_allowlisted_address(
    delegating: Delegating, provider: FakeProvider, elsewhere: FakeProvider, attempt: str
) -> None:
    allowed = provider.verify_url
    host = provider.base.removeprefix("http://")
    evil_host = elsewhere.base.removeprefix("http://")
    header = attempt.format(
        allowed=allowed,
        allowed_https=allowed.replace("http://", "https://"),
        allowed_other_port=allowed.replace(host, evil_host),
        allowed_other_path=allowed.replace("/1.1/", "/1.2/"),
        allowed_encoded=allowed.replace("verify_credentials", "verify%5Fcredentials"),
        allowed_upper=allowed.replace("account", "ACCOUNT"),
        allowed_host=host,
        evil_host=evil_host,
        evil=elsewhere.verify_url,
    )
    answer = delegating.create(header)
    assert (answer.status, _json(answer)["error"]["type"]) == (400, "invalid_parameter")
    assert _json(answer)["error"]["field"] == "X-Auth-Service-Provider"
    assert provider.requests == []
    assert elsewhere.requests == []


def test_a_missing_provider_header_is_refused_without_a_request(
    delegating: Delegating, provider: FakeProvider
) -> None:
    assert delegating.create(None).status == 400
    assert provider.requests == []


def test_an_application_without_a_grant_is_forbidden(
    delegating: Delegating, provider: FakeProvider
) -> None:
    key = delegating.service.accounts.create_app("plain").api_key
    answer = delegating.create(provider.verify_url, api_key=key)
    assert answer.status == 403
    assert provider.requests == []


def test_a_revoked_grant_is_forbidden(delegating: Delegating, provider: FakeProvider) -> None:
    delegating.service.accounts.set_delegation("partner", False)
    assert delegating.create(provider.verify_url).status == 403


def test_a_wrong_api_key_is_unauthorized(delegating: Delegating, provider: FakeProvider) -> None:
    assert delegating.create(provider.verify_url, api_key="nope").status == 401
    assert provider.requests == []


def test_a_bad_story_is_refused_before_the_provider_is_asked(
    delegating: Delegating, provider: FakeProvider
) -> None:
    provider.answer_user()
    answer = delegating.create(provider.verify_url, story={"title": 5})
    assert (answer.status, _json(answer)["error"]["field"]) == (400, "story.title")
    assert provider.requests == []


def test_applications_are_rate_limited_with_retry_after(provider: FakeProvider) -> None:
    from storycore import Service
    from storycore.adapters import open_store
    from storycore.contrib.identity import HttpProviderClient
    from storycore.http import HttpApp
    from tests.usecases.delegation.conftest import Delegating

    settings = Settings(
        password_cost=16, delegation_providers=(provider.verify_url,), delegation_rate_limit=2
    )
    with Service(
        open_store("memory://"), settings, provider_client=HttpProviderClient()
    ) as service:
        key = service.accounts.create_app("busy", delegation=True).api_key
        delegating = Delegating(service, HttpApp(service), key)
        provider.answer_user()
        statuses = [delegating.create(provider.verify_url).status for _ in range(3)]
        limited = delegating.create(provider.verify_url)
    assert statuses == [200, 200, 429]
    assert int(dict(limited.headers)["Retry-After"]) >= 1
    assert len(provider.requests) == 2


def test_the_rate_limits_minute_is_the_services_clocks(provider: FakeProvider) -> None:
    settings = TEST_SETTINGS.model_copy(
        update={"delegation_providers": (provider.verify_url,), "delegation_rate_limit": 1}
    )
    clock = ManualClock()
    with Service(
        open_store("memory://"), settings, provider_client=HttpProviderClient(), clock=clock
    ) as service:
        key = service.accounts.create_app("busy", delegation=True).api_key
        delegating = Delegating(service, HttpApp(service), key)
        provider.answer_user()
        first = delegating.create(provider.verify_url).status
        clock.advance(59)
        limited = delegating.create(provider.verify_url)
        clock.advance(1)
        again = delegating.create(provider.verify_url, story={"title": "Again"}).status
    assert (first, limited.status, again) == (200, 429, 200)
    assert dict(limited.headers)["Retry-After"] == "1"


def test_the_forwarded_authorization_is_never_echoed_logged_or_stored(
    delegating: Delegating, provider: FakeProvider, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    bodies = []
    for reply in (Reply(500, b"x"), Reply(401, b"{}"), Reply(200, b"not json")):
        provider.reply = reply
        bodies.append(delegating.create(provider.verify_url).body)
    provider.answer_user()
    bodies.append(delegating.create(provider.verify_url).body)
    exported = b"".join(
        __import__("storycore.contrib.transfer", fromlist=["export_lines"]).export_lines(
            delegating.service.store
        )
    )
    secret = b"s3cr3t-signature-value"
    assert all(secret not in body for body in bodies)
    assert secret not in exported
    assert "s3cr3t" not in caplog.text


def test_a_provider_whose_name_does_not_resolve_is_a_502_that_says_so() -> None:
    unresolved = "http://no-such-host.invalid/verify"
    settings = TEST_SETTINGS.model_copy(update={"delegation_providers": (unresolved,)})
    service = Service(open_store("memory://"), settings, provider_client=HttpProviderClient())
    with service:
        key = service.accounts.create_app("partner", delegation=True).api_key
        answer = Delegating(service, HttpApp(service), key).create(unresolved)
    error = _json(answer)["error"]
    assert (answer.status, error["type"]) == (502, "provider_unavailable")
    assert error["message"] == "the identity provider's host name does not resolve"


def test_a_first_use_reports_user_created_and_a_new_name_user_updated(
    delegating: Delegating, provider: FakeProvider
) -> None:
    """docs/webhooks.md: the user a first use makes is ``user.created``, a profile the
    provider changed is ``user.updated`` (each with the public profile), before the story's
    own events; a profile the provider did not change reports nothing of the user."""
    service = delegating.service
    start = service.events.end()
    provider.answer_user()
    delegating.create(provider.verify_url)
    provider.answer_user(name="Alice Renamed")
    delegating.create(provider.verify_url, story={"title": "Second"})
    delegating.create(provider.verify_url, story={"title": "Third"})
    events = [item.event for item in service.events.after(start, 100)]
    story = ["story.created", "story.published"]
    assert [e.type for e in events] == ["user.created", *story, "user.updated", *story, *story]
    user = service.store.users.get_by_username("alice_a")
    assert user is not None
    created, updated = events[0], events[3]
    assert (created.subject, updated.subject) == (user.id, user.id)
    assert orjson.loads(created.data)["name"] == "Alice A."
    profile = service.accounts.get("alice_a").model_dump(by_alias=True)
    assert orjson.loads(updated.data) == profile
