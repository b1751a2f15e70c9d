"""What the editor's HTTP tests share: a service on the fastest store with a writer, another
writer and an editor, and a browser signed in as one of them the way a browser signs in (the
sign-in form's token, then its ``POST``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI
from storycore.testing import ManualClock
from storycore.testing.client import asgi_client
from tests.conftest import TEST_SETTINGS

__all__ = ["browser", "form_token", "writers"]

_TOKEN = re.compile(r'name="form_token" value="([^"]+)"')


def writers() -> Service:
    """A service with ``alice`` (who writes the stories), ``bob`` (another writer) and ``ed``
    (an editor), each with the password ``<name>-password``, on a clock moved by hand."""
    service = Service(open_store("memory://"), settings=TEST_SETTINGS, clock=ManualClock())
    service.accounts.create_user("alice", "alice-password", name="Alice Liddell")
    service.accounts.create_user("bob", "bob-password")
    service.accounts.create_user("ed", "ed-password", editor=True)
    return service


def form_token(page: httpx.Response) -> str:
    """The form token a page's forms carry."""
    found = _TOKEN.search(page.text)
    assert found is not None, "the page has no form token"
    return found.group(1)


@contextmanager
def browser(service: Service, username: str | None = None) -> Iterator[httpx.Client]:
    """A client of ``service``'s apps, signed in as ``username`` (signed out without one)."""
    with asgi_client(StorycoreASGI(service)) as client:
        if username is not None:
            token = form_token(client.get("/signin"))
            signed = client.post(
                "/signin",
                data={"form_token": token, "username": username,
                      "password": f"{username}-password", "next": "/me"},
            )  # fmt: skip
            assert signed.status_code == 303, signed.text
        yield client
