"""Signing in and out of the editor (docs/editor.md#signing-in): a session is a cookie holding a
token of the web host's own application; the sign-in page returns to the page that asked for
it, on this site only; every failure reads the same; signing out ends the token everywhere."""

from __future__ import annotations

from http.cookies import SimpleCookie

import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI
from storycore.errors import Unauthorized
from storycore.model.visibility import Viewer
from storycore.testing.client import asgi_client
from tests.conftest import TEST_SETTINGS
from tests.http.editor._editor import (
    SESSION,
    WEB_URL,
    browser,
    form_token,
    post_form,
    sign_in,
)


def _session_cookie(set_cookies: list[str]) -> dict[str, str]:
    """The attributes of the session's ``Set-Cookie`` (``value`` its value), lower-cased names."""
    [line] = [line for line in set_cookies if line.startswith(f"{SESSION}=")]
    parsed = SimpleCookie()
    parsed.load(line)
    morsel = parsed[SESSION]
    flags = {part.strip().lower() for part in line.split(";")}
    return {
        "value": morsel.value,
        "path": morsel["path"],
        "max-age": str(morsel["max-age"]),
        "samesite": morsel["samesite"],
        **{flag: "yes" for flag in ("httponly", "secure") if flag in flags},
    }


def test_a_signed_out_writer_is_sent_to_sign_in_and_comes_back_after(
    service: Service, alice: Viewer
) -> None:
    with browser(service) as client:
        asked = client.get("/me")
        assert asked.status_code == 303
        assert asked.headers["location"] == f"{WEB_URL}/signin?next=%2Fme"

        signed = sign_in(client, "alice", next_path="/me")

        assert signed.status_code == 303
        assert signed.headers["location"] == f"{WEB_URL}/me"
        assert client.get("/me").status_code == 200


@pytest.mark.parametrize("elsewhere", ["//evil.example", "https://evil.example", "/\\evil"])
def test_signing_in_never_returns_to_another_host(
    service: Service, alice: Viewer, elsewhere: str
) -> None:
    with browser(service) as client:
        signed = sign_in(client, "alice", next_path=elsewhere)

    assert signed.status_code == 303
    assert signed.headers["location"] == f"{WEB_URL}/me"


def test_a_wrong_password_and_an_unknown_user_get_the_same_page(
    service: Service, alice: Viewer
) -> None:
    with browser(service) as client:
        wrong = sign_in(client, "alice", "not-her-password")
        unknown = sign_in(client, "nobody", "not-her-password")

    assert wrong.status_code == unknown.status_code == 401
    assert wrong.text.replace('value="alice"', "") == unknown.text.replace('value="nobody"', "")
    assert SESSION not in wrong.cookies


def test_the_session_cookie_is_http_only_same_site_and_lives_as_long_as_the_token(
    service: Service, alice: Viewer
) -> None:
    with browser(service) as client:
        signed = sign_in(client, "alice")

    cookie = _session_cookie(signed.headers.get_list("set-cookie"))
    lifetime = int(TEST_SETTINGS.token_lifetime.total_seconds())
    assert cookie["httponly"] == "yes"
    assert cookie["samesite"] == "Lax"
    assert cookie["path"] == "/"
    assert cookie["max-age"] == str(lifetime)
    assert "secure" not in cookie  # the site is http


def test_the_session_cookie_is_secure_when_the_web_host_is_https() -> None:
    settings = TEST_SETTINGS.model_copy(update={"web_url": "https://stories.example"})
    service = Service(open_store("memory://"), settings=settings)
    service.accounts.create_user("alice", "alice-password")
    app = StorycoreASGI(service)
    with asgi_client(app, base_url="https://stories.example") as client:
        signed = sign_in(client, "alice")
    service.close()

    assert signed.status_code == 303
    assert _session_cookie(signed.headers.get_list("set-cookie"))["secure"] == "yes"


def test_signing_out_revokes_the_token_and_deletes_the_cookie(
    service: Service, alice: Viewer
) -> None:
    with browser(service) as client:
        sign_in(client, "alice")
        token = client.cookies[SESSION]

        out = post_form(client, "/signout", {})

        assert out.status_code == 303
        assert out.headers["location"] == f"{WEB_URL}/signin?done=signed-out"
        deleted = _session_cookie(out.headers.get_list("set-cookie"))
        assert deleted["value"] == ""
        assert deleted["max-age"] == "0"
        api = client.get("/v1/stories/alice", headers={"Authorization": f"Bearer {token}"})
        assert api.status_code == 401
    with pytest.raises(Unauthorized):
        service.accounts.bearer(token)
    with browser(service) as stolen:
        stolen.cookies.set(SESSION, token)
        assert stolen.get("/me").status_code == 303


def test_a_token_of_an_api_application_is_not_a_session(service: Service, alice: Viewer) -> None:
    api_key = service.accounts.create_app("phone").api_key
    token = service.accounts.authenticate(api_key, "alice", "alice-password").token
    with browser(service) as client:
        client.cookies.set(SESSION, token)
        asked = client.get("/me")

    assert asked.status_code == 303
    assert asked.headers["location"].startswith(f"{WEB_URL}/signin?")


def test_where_the_host_application_signs_writers_in_there_is_no_sign_in_page(
    service: Service, alice: Viewer
) -> None:
    with browser(service, editor_user=lambda request: "alice") as client:
        page = client.get("/signin")
        posted = client.post("/signin", data={"form_token": form_token(client.get("/me"))})

    assert page.status_code == 404
    assert posted.status_code == 404


@pytest.mark.parametrize("path", ["/me", "/signin", "/me/profile"])
def test_without_the_editor_its_pages_are_the_web_hosts_404(
    service: Service, alice: Viewer, path: str
) -> None:
    with browser(service, editor=False) as client:
        page = client.get(path)

    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert 'name="password"' not in page.text
