"""The limit on failed sign-ins, as a browser meets it (docs/editor.md#signing-in): ten
failures a minute per username and per client address, then the 429 page with
``Retry-After``, whatever the password."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI
from storycore.testing import ManualClock
from storycore.testing.client import asgi_client
from tests.conftest import TEST_SETTINGS

PASSWORD = "alice-password"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def browser(clock: ManualClock) -> Iterator[httpx.Client]:
    service = Service(open_store("memory://"), settings=TEST_SETTINGS, clock=clock)
    service.accounts.create_user("alice", PASSWORD)
    service.accounts.create_user("bob", "bob-password")
    with asgi_client(StorycoreASGI(service)) as client:
        yield client


def _sign_in(browser: httpx.Client, username: str, password: str) -> httpx.Response:
    page = browser.get("/signin")
    token = re.search(r'name="form_token" value="([^"]+)"', page.text)
    assert token is not None
    form = {"form_token": token.group(1), "username": username, "password": password}
    return browser.post("/signin", data=form)


def test_the_eleventh_failure_in_a_minute_is_refused_with_retry_after(
    browser: httpx.Client,
) -> None:
    for _ in range(10):
        assert _sign_in(browser, "alice", "not-the-password").status_code == 401
    refused = _sign_in(browser, "alice", "not-the-password")
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "60"
    assert "Too many attempts" in refused.text


def test_past_the_limit_even_the_right_password_waits(browser: httpx.Client) -> None:
    for _ in range(10):
        _sign_in(browser, "ALICE", "not-the-password")
    assert _sign_in(browser, "alice", PASSWORD).status_code == 429
    assert "storycore_session" not in browser.cookies


def test_the_limit_counts_a_minute_of_the_services_clock(
    browser: httpx.Client, clock: ManualClock
) -> None:
    for _ in range(10):
        _sign_in(browser, "alice", "not-the-password")
    clock.advance(61)
    assert _sign_in(browser, "alice", PASSWORD).status_code == 303


def test_the_client_address_is_limited_across_usernames(browser: httpx.Client) -> None:
    for number in range(10):
        _sign_in(browser, f"nobody{number}", "not-the-password")
    assert _sign_in(browser, "bob", "bob-password").status_code == 429
