"""The editor's tests drive it as a browser does (docs/editor.md): an ``httpx.Client`` over
``StorycoreASGI`` keeps the cookies, every form is sent with the ``form_token`` its page holds,
and signing in is the sign-in page's form."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI
from storycore.testing import ManualClock
from storycore.testing.client import asgi_client
from tests.conftest import TEST_SETTINGS

#: Where the test client's requests go, and so the web host's address in answers.
WEB_URL = "http://testserver"
#: The session's cookie.
SESSION = "storycore_session"

_TOKEN = re.compile(r'name="form_token" value="([^"]+)"')


def writers() -> Service:
    """A service with ``alice`` (who writes the stories), ``bob`` (another writer) and ``ed``
    (an editor), each with the password ``<name>-password``, on a clock moved by hand."""
    service = Service(open_store("memory://"), settings=TEST_SETTINGS, clock=ManualClock())
    service.accounts.create_user("alice", "alice-password", name="Alice Liddell")
    service.accounts.create_user("bob", "bob-password")
    service.accounts.create_user("ed", "ed-password", editor=True)
    return service


@contextmanager
def browser(service: Service, **options: Any) -> Iterator[httpx.Client]:
    """A browser on the web host of ``service`` (``options`` for ``StorycoreASGI``)."""
    with asgi_client(StorycoreASGI(service, **options)) as client:
        yield client


def form_token(page: httpx.Response) -> str:
    """The form token a page's forms carry."""
    found = _TOKEN.search(page.text)
    assert found is not None, page.text
    return found.group(1)


def sign_in(
    client: httpx.Client, username: str, password: str | None = None, next_path: str = "/me"
) -> httpx.Response:
    """The answer to the sign-in form (the password ``<username>-password`` unless given)."""
    page = client.get("/signin", params={"next": next_path})
    fields = {
        "form_token": form_token(page),
        "username": username,
        "password": f"{username}-password" if password is None else password,
        "next": next_path,
    }
    return client.post("/signin", data=fields)


@contextmanager
def signed_in(service: Service, username: str = "alice", **options: Any) -> Iterator[httpx.Client]:
    """A browser where ``username`` is signed in."""
    with browser(service, **options) as client:
        assert sign_in(client, username).status_code == 303
        yield client


def post_form(
    client: httpx.Client, path: str, fields: dict[str, str], page: str = "/me"
) -> httpx.Response:
    """``fields`` posted to ``path`` as a form of the page ``page`` posts them."""
    token = form_token(client.get(page))
    return client.post(path, data={"form_token": token, **fields})
