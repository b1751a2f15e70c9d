"""The writer's profile (docs/editor.md#the-profile): the members of a profile and the password,
each a form posted to ``/me/profile`` and answered by a 303 back saying what was saved; a
refused value beside its field, the form as typed, never a password sent back."""

from __future__ import annotations

import re

import pytest

from storycore import Service
from storycore.errors import Unauthorized
from storycore.model.visibility import Viewer
from tests.http.editor._editor import WEB_URL, browser, post_form, sign_in, signed_in

PROFILE = {
    "action": "profile",
    "name": "Alice L.",
    "bio": "Writes about harbours.",
    "location": "Oxford",
    "website": "https://alice.example",
    "avatar": "https://alice.example/me.jpg",
}


def _value(page: str, field: str) -> str:
    """The value a page's input ``field`` holds."""
    found = re.search(rf'<input id="{field}" name="{field}" type="[a-z]+" value="([^"]*)"', page)
    assert found is not None, page
    return found.group(1)


def test_the_profile_page_holds_the_stored_profile(service: Service, alice: Viewer) -> None:
    service.accounts.update("alice", {"location": "Oxford"}, viewer=alice)

    with signed_in(service, "alice") as client:
        page = client.get("/me/profile")

    assert page.status_code == 200
    assert _value(page.text, "name") == "Alice Liddell"
    assert _value(page.text, "location") == "Oxford"
    assert 'aria-current="page">Profile</a>' in page.text


def test_saving_the_profile_changes_it_and_says_so(service: Service, alice: Viewer) -> None:
    with signed_in(service, "alice") as client:
        saved = post_form(client, "/me/profile", PROFILE, page="/me/profile")
        after = client.get(saved.headers["location"])

    assert saved.status_code == 303
    assert saved.headers["location"] == f"{WEB_URL}/me/profile?done=profile"
    assert "Your profile is saved." in after.text
    stored = service.accounts.get("alice")
    assert (stored.name, stored.bio, stored.location, stored.website, stored.avatar) == (
        "Alice L.",
        "Writes about harbours.",
        "Oxford",
        "https://alice.example",
        "https://alice.example/me.jpg",
    )


def test_a_refused_value_is_shown_beside_its_field_with_the_form_as_typed(
    service: Service, alice: Viewer
) -> None:
    before = service.accounts.get("alice")
    typed = {**PROFILE, "website": "javascript:alert(1)"}

    with signed_in(service, "alice") as client:
        refused = post_form(client, "/me/profile", typed, page="/me/profile")

    assert refused.status_code == 400
    assert re.search(
        r'<p class="problem" id="website-problem">Website must be an http or https address',
        refused.text,
    )
    assert 'aria-invalid="true"' in refused.text.split('id="website"', 1)[1].split(">", 1)[0]
    assert _value(refused.text, "website") == "javascript:alert(1)"
    assert _value(refused.text, "name") == "Alice L."
    assert service.accounts.get("alice") == before


def test_changing_the_password_keeps_this_session_ends_the_others_and_says_so(
    service: Service, alice: Viewer
) -> None:
    fields = {
        "action": "password",
        "current_password": "alice-password",
        "new_password": "a-new-password",
    }
    with signed_in(service, "alice") as elsewhere, signed_in(service, "alice") as client:
        changed = post_form(client, "/me/profile", fields, page="/me/profile")
        after = client.get(changed.headers["location"])
        assert elsewhere.get("/me").status_code == 303

    assert changed.status_code == 303
    assert changed.headers["location"] == f"{WEB_URL}/me/profile?done=password"
    assert after.status_code == 200
    assert "Your password is changed." in after.text
    with browser(service) as new:
        assert sign_in(new, "alice", "a-new-password").status_code == 303
    with browser(service) as old:
        assert sign_in(old, "alice", "alice-password").status_code == 401


def test_a_wrong_current_password_is_refused_beside_it_and_never_sent_back(
    service: Service, alice: Viewer
) -> None:
    fields = {
        "action": "password",
        "current_password": "guessed-password",
        "new_password": "a-new-password",
    }
    with signed_in(service, "alice") as client:
        refused = post_form(client, "/me/profile", fields, page="/me/profile")

    assert refused.status_code == 400
    assert 'id="current_password-problem">This is not your current password.' in refused.text
    assert "guessed-password" not in refused.text
    assert "a-new-password" not in refused.text
    with pytest.raises(Unauthorized):
        service.accounts.sign_in("alice", "a-new-password")


def test_a_new_password_breaking_the_rule_is_refused_beside_it(
    service: Service, alice: Viewer
) -> None:
    fields = {"action": "password", "current_password": "alice-password", "new_password": "short"}
    with signed_in(service, "alice") as client:
        refused = post_form(client, "/me/profile", fields, page="/me/profile")

    assert refused.status_code == 400
    assert 'id="new_password-problem">New password must have at least 8 characters' in (
        refused.text
    )
    assert service.accounts.sign_in("alice", "alice-password")


def test_a_form_that_says_nothing_to_change_changes_nothing(
    service: Service, alice: Viewer
) -> None:
    before = service.accounts.get("alice")
    with signed_in(service, "alice") as client:
        refused = post_form(client, "/me/profile", {"name": "Forged"}, page="/me/profile")

    assert refused.status_code == 400
    assert service.accounts.get("alice") == before


def test_where_the_host_application_signs_writers_in_there_is_no_password_form(
    service: Service, alice: Viewer
) -> None:
    fields = {"action": "password", "current_password": "alice-password", "new_password": "x" * 9}
    with browser(service, editor_user=lambda request: "alice") as client:
        page = client.get("/me/profile")
        refused = post_form(client, "/me/profile", fields, page="/me/profile")
        saved = post_form(client, "/me/profile", PROFILE, page="/me/profile")

    assert page.status_code == 200
    assert 'name="current_password"' not in page.text
    assert refused.status_code == 404
    assert service.accounts.sign_in("alice", "alice-password")
    assert saved.status_code == 303
