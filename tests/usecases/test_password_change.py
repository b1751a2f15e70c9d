"""A writer changing their own password (docs/editor.md#the-profile): the current one proves
them, the new one keeps the password rule, and every other session of theirs ends, through any
application, while the one they are using stays."""

from __future__ import annotations

import pytest

from storycore import InvalidParameter, Service, Unauthorized, Viewer


def _refused_field(service: Service, viewer: Viewer, current: str, new: str) -> str | None:
    with pytest.raises(InvalidParameter) as refused:
        service.accounts.change_password(viewer, current, new)
    return refused.value.field


def test_a_wrong_current_password_is_refused_naming_it(service: Service, alice: Viewer) -> None:
    assert _refused_field(service, alice, "guessed-password", "a-new-password") == (
        "current_password"
    )
    assert service.accounts.sign_in("alice", "alice-password")


def test_a_new_password_breaking_the_rule_is_refused_naming_it(
    service: Service, alice: Viewer
) -> None:
    assert _refused_field(service, alice, "alice-password", "short") == "new_password"
    assert service.accounts.sign_in("alice", "alice-password")


def test_a_changed_password_ends_every_other_token_and_keeps_the_session(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    accounts = service.accounts
    session = accounts.sign_in("alice", "alice-password")
    elsewhere = accounts.sign_in("alice", "alice-password")
    api_key = accounts.create_app("phone").api_key
    phone = accounts.authenticate(api_key, "alice", "alice-password").token
    bobs = accounts.sign_in("bob", "bob-password")

    accounts.change_password(
        accounts.bearer(session), "alice-password", "a-new-password", session=session
    )

    assert accounts.bearer(session).user.username == "alice"  # type: ignore[union-attr]
    for ended in (elsewhere, phone):
        with pytest.raises(Unauthorized):
            accounts.bearer(ended)
    assert accounts.bearer(bobs).user is not None
    assert accounts.sign_in("alice", "a-new-password")
