"""Every form that changes something carries a token bound to its session
(docs/editor.md#signing-in): without it, or with another session's, the answer is the 403 page
and nothing changes."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from storycore import Service
from storycore.model.visibility import Viewer
from tests.http.editor._editor import browser, form_token, signed_in


def _stories(service: Service, viewer: Viewer) -> int:
    return len(service.catalog.user("alice", viewer=viewer).items)


# each form: its path, its fields, and what must stay as it was when it is refused
FORMS: dict[str, tuple[dict[str, str], Callable[[Service, Viewer, httpx.Client], object]]] = {
    "/me/new": ({"title": "Forged"}, lambda service, viewer, client: _stories(service, viewer)),
    "/signout": ({}, lambda service, viewer, client: client.get("/me").status_code),
    "/me/profile": (
        {"action": "profile", "name": "Forged"},
        lambda service, viewer, client: service.accounts.get("alice").name,
    ),
}


@pytest.mark.parametrize("path", sorted(FORMS))
def test_a_form_without_its_token_is_refused_and_changes_nothing(
    service: Service, alice: Viewer, path: str
) -> None:
    fields, state = FORMS[path]
    with signed_in(service, "alice") as client:
        before = state(service, alice, client)

        refused = client.post(path, data=fields)

        assert refused.status_code == 403
        assert state(service, alice, client) == before


@pytest.mark.parametrize("path", sorted(FORMS))
def test_a_form_with_another_sessions_token_is_refused_and_changes_nothing(
    service: Service, alice: Viewer, path: str
) -> None:
    fields, state = FORMS[path]
    with signed_in(service, "alice") as elsewhere:
        other_token = form_token(elsewhere.get("/me"))
    with signed_in(service, "alice") as client:
        before = state(service, alice, client)

        refused = client.post(path, data={"form_token": other_token, **fields})

        assert refused.status_code == 403
        assert state(service, alice, client) == before


def test_where_the_host_application_signs_writers_in_forms_still_need_their_token(
    service: Service, alice: Viewer
) -> None:
    with browser(service, editor_user=lambda request: "alice") as client:
        refused = client.post("/me/new", data={"title": "Forged"})
        token = form_token(client.get("/me"))
        started = client.post("/me/new", data={"form_token": token, "title": "Mine"})

    assert refused.status_code == 403
    assert started.status_code == 303
    assert [story.title for story in service.catalog.user("alice", viewer=alice).items] == ["Mine"]
