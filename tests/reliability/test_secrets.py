"""Secrets never leak: not into logs, error bodies or exports; expired tokens are refused;
secrets are compared in constant time.
"""

from __future__ import annotations

import hmac
import logging
from datetime import timedelta
from typing import Any

import orjson
import pytest

from storycore import Service, Unauthorized
from storycore.adapters import open_store
from storycore.contrib.transfer import export_lines
from storycore.http import HttpApp, HttpRequest
from tests.conftest import TEST_SETTINGS

PASSWORD = "correct-horse-battery-staple-42"


@pytest.fixture
def world() -> Any:
    service = Service(open_store("sqlite://"), TEST_SETTINGS)
    service.accounts.create_user("alice", PASSWORD)
    key = service.accounts.create_app("app").api_key
    token = service.accounts.authenticate(key, "alice", PASSWORD).token
    yield service, key, token
    service.close()


def _call(app: HttpApp, path: str, **params: str) -> bytes:
    body = orjson.dumps({**params, "story": {"title": "x"}})
    return app.handle(
        HttpRequest("POST", path, b"", [("content-type", "application/json")], body)
    ).body


def test_an_export_holds_no_password_key_or_token(world: Any) -> None:
    service, key, token = world
    exported = b"".join(export_lines(service.store)).decode()
    for secret in (PASSWORD, key, token):
        assert secret not in exported


def test_error_bodies_never_echo_credentials(world: Any) -> None:
    service, key, token = world
    app = HttpApp(service)
    bodies = [
        _call(app, "/v1/auth", api_key=key, username="alice", password=PASSWORD + "x"),
        _call(app, "/v1/auth", api_key=key + "x", username="alice", password=PASSWORD),
        _call(app, "/v1/stories/alice/create", api_key=key, username="bob", _token=token),
        _call(app, "/v1/stories/alice/create", api_key=key, username="alice", _token=token + "x"),
    ]
    for body in bodies:
        assert b'"code":401' in body
        for secret in (PASSWORD, key, token):
            assert secret.encode() not in body


def test_internal_errors_log_no_credentials(
    world: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, key, token = world

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("storage fell over")

    monkeypatch.setattr(service.store.stories, "add_many", broken)
    caplog.set_level(logging.DEBUG)
    body = _call(
        HttpApp(service), "/v1/stories/alice/create", api_key=key, username="alice", _token=token
    )
    assert b'"internal_error"' in body
    assert b"storage fell over" not in body
    assert "storage fell over" in caplog.text  # the traceback is logged ...
    for secret in (PASSWORD, key, token):
        assert secret not in caplog.text  # ... and holds no secret


def test_expired_tokens_are_refused() -> None:
    settings = TEST_SETTINGS.model_copy(update={"token_lifetime": timedelta(microseconds=1)})
    with Service(open_store("sqlite://"), settings) as service:
        service.accounts.create_user("alice", PASSWORD)
        key = service.accounts.create_app("app").api_key
        token = service.accounts.authenticate(key, "alice", PASSWORD).token
        with pytest.raises(Unauthorized):
            service.accounts.viewer(key, "alice", token)


def test_keys_and_tokens_are_compared_in_constant_time(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, key, token = world
    compared: list[tuple[bytes, bytes]] = []
    original = hmac.compare_digest

    def recording(left: Any, right: Any) -> bool:
        compared.append((left, right))
        return original(left, right)

    monkeypatch.setattr(hmac, "compare_digest", recording)
    service.accounts.viewer(key, "alice", token)
    service.accounts.authenticate(key, "alice", PASSWORD)
    assert len(compared) >= 4  # api key digest, token's user and app, the password hash
