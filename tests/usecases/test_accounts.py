"""Users, applications and authentication (docs/api.md#credentials)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from storycore import Forbidden, InvalidParameter, NotFound, Service, Unauthorized, Viewer
from storycore.adapters import open_store
from storycore.rules.credentials import digest, hash_password
from tests.conftest import TEST_SETTINGS

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")


@pytest.mark.parametrize("username", ["browse", "Search", "V1", "s", "api"])
def test_reserved_usernames_are_refused_in_any_case(service: Service, username: str) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.accounts.create_user(username, "a-password")
    assert caught.value.field == "username"


@pytest.mark.parametrize("username", ["", "has space", "dash-ed", "x" * 31, "ünï"])
def test_usernames_are_1_to_30_letters_digits_or_underscores(
    service: Service, username: str
) -> None:
    with pytest.raises(InvalidParameter):
        service.accounts.create_user(username, "a-password")


def test_usernames_are_unique_regardless_of_case(service: Service, alice: Viewer) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.accounts.create_user("ALICE", "a-password")
    assert caught.value.field == "username"


def test_authenticate_gives_the_profile_and_a_long_random_token(
    service: Service, alice: Viewer
) -> None:
    app = service.accounts.create_app("app")
    grant = service.accounts.authenticate(app.api_key, "alice", "alice-password")
    body = grant.to_json_dict()
    assert body["username"] == "alice"
    assert len(body["_token"]) >= 43


def test_an_unknown_user_and_a_wrong_password_are_the_same_error(
    service: Service, alice: Viewer
) -> None:
    app = service.accounts.create_app("app")
    errors = []
    for username, password in (("alice", "wrong"), ("nobody", "alice-password")):
        with pytest.raises(Unauthorized) as caught:
            service.accounts.authenticate(app.api_key, username, password)
        errors.append(caught.value.body())
    assert errors[0] == errors[1]


def test_a_wrong_api_key_is_unauthorized(service: Service, alice: Viewer) -> None:
    with pytest.raises(Unauthorized):
        service.accounts.authenticate("not-a-key", "alice", "alice-password")


def test_a_token_proves_its_user_and_application(service: Service, alice: Viewer) -> None:
    app = service.accounts.create_app("app")
    grant = service.accounts.authenticate(app.api_key, "alice", "alice-password")
    viewer = service.accounts.viewer(app.api_key, "alice", grant.token)
    assert viewer.user is not None
    assert viewer.user.username == "alice"


def test_a_valid_token_sent_with_another_username_is_unauthorized(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    app = service.accounts.create_app("app")
    grant = service.accounts.authenticate(app.api_key, "alice", "alice-password")
    with pytest.raises(Unauthorized):
        service.accounts.viewer(app.api_key, "bob", grant.token)


def test_a_token_belongs_to_one_application(service: Service, alice: Viewer) -> None:
    first = service.accounts.create_app("first")
    second = service.accounts.create_app("second")
    grant = service.accounts.authenticate(first.api_key, "alice", "alice-password")
    with pytest.raises(Unauthorized):
        service.accounts.viewer(second.api_key, "alice", grant.token)


def test_an_expired_token_is_unauthorized(tmp_path: object) -> None:
    expired = TEST_SETTINGS.model_copy(update={"token_lifetime": timedelta(seconds=-1)})
    with Service(open_store("sqlite://"), expired) as service:
        service.accounts.create_user("alice", "a-password")
        app = service.accounts.create_app("app")
        grant = service.accounts.authenticate(app.api_key, "alice", "a-password")
        with pytest.raises(Unauthorized) as caught:
            service.accounts.viewer(app.api_key, "alice", grant.token)
        assert caught.value.field == "_token"


def test_authenticating_removes_the_expired_tokens(service: Service) -> None:
    short = service.settings.model_copy(update={"token_lifetime": timedelta(seconds=-1)})
    expiring = Service(service.store, short)  # the same store; ``service`` closes it
    service.accounts.create_user("carol", "a-password")
    app = service.accounts.create_app("app")
    old = expiring.accounts.authenticate(app.api_key, "carol", "a-password").token
    assert service.store.tokens.get(digest(old)) is not None
    service.accounts.authenticate(app.api_key, "carol", "a-password")
    assert service.store.tokens.get(digest(old)) is None


def test_no_credentials_is_the_anonymous_caller(service: Service) -> None:
    assert service.accounts.viewer().user is None


def test_an_api_key_alone_names_the_application_only(service: Service) -> None:
    app = service.accounts.create_app("app")
    viewer = service.accounts.viewer(app.api_key)
    assert (viewer.user, viewer.app) == (None, app.app)


def test_a_token_without_an_api_key_is_unauthorized(service: Service, alice: Viewer) -> None:
    with pytest.raises(Unauthorized) as caught:
        service.accounts.viewer(None, "alice", "some-token")
    assert caught.value.field == "api_key"


def test_a_profile_update_applies_the_profile_members(service: Service, alice: Viewer) -> None:
    updated = service.accounts.update(
        "alice",
        {"name": "A.", "bio": "b", "location": "l", "website": "https://a.example", "avatar": ""},
        viewer=alice,
    )
    assert updated.model_dump() == {
        "username": "alice",
        "name": "A.",
        "bio": "b",
        "location": "l",
        "website": "https://a.example",
        "avatar": "",
    }


def test_a_profile_update_ignores_email_and_password(service: Service, alice: Viewer) -> None:
    service.accounts.update("alice", {"email": "x@y.z", "password": "new"}, viewer=alice)
    app = service.accounts.create_app("app")
    assert service.accounts.authenticate(app.api_key, "alice", "alice-password").username == "alice"


def test_a_typo_in_a_profile_member_is_refused_and_changes_nothing(
    service: Service, alice: Viewer
) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.accounts.update("alice", {"bio": "kept?", "nmae": "typo"}, viewer=alice)
    assert caught.value.field == "user.nmae"
    assert service.accounts.get("alice").bio == ""


def test_a_profile_update_with_another_username_is_refused(service: Service, alice: Viewer) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.accounts.update("alice", {"username": "mallory"}, viewer=alice)
    assert caught.value.field == "user.username"


def test_a_profile_website_must_be_an_http_address(service: Service, alice: Viewer) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.accounts.update("alice", {"website": "javascript:alert(1)"}, viewer=alice)
    assert caught.value.field == "user.website"
    assert service.accounts.get("alice").website == ""


def test_only_the_user_may_update_a_profile(
    service: Service, alice: Viewer, editor: Viewer
) -> None:
    with pytest.raises(Forbidden):
        service.accounts.update("alice", {"name": "x"}, viewer=editor)


def test_users_are_listed_by_username_regardless_of_case(service: Service) -> None:
    for name in ("bob", "Alice", "carol"):
        service.accounts.create_user(name)
    assert [u.username for u in service.accounts.list().items] == ["Alice", "bob", "carol"]


def test_an_unknown_profile_is_not_found(service: Service) -> None:
    with pytest.raises(NotFound):
        service.accounts.get("nobody")


def test_a_user_without_a_password_cannot_authenticate(service: Service) -> None:
    service.accounts.create_user("nopass")
    app = service.accounts.create_app("app")
    with pytest.raises(Unauthorized):
        service.accounts.authenticate(app.api_key, "nopass", "")


@pytest.mark.parametrize(
    "password", ["", "seven77", "eight\x008", "tab\tinside-it", "\x7fdelete-me", "bell\x07-sounds"]
)
def test_a_password_has_8_characters_and_no_control_character(
    service: Service, password: str
) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.accounts.create_user("carol", password)
    assert caught.value.field == "password"
    assert service.store.users.get_by_username("carol") is None


@pytest.mark.parametrize("password", ["8 chars!", "λόγος-και-πράξη", "a" * 200])
def test_a_password_that_keeps_the_rule_authenticates(service: Service, password: str) -> None:
    service.accounts.create_user("carol", password)
    app = service.accounts.create_app("app")
    assert service.accounts.authenticate(app.api_key, "carol", password).username == "carol"


def test_a_password_that_breaks_the_rule_never_authenticates(service: Service) -> None:
    # a store written before the rule may hold the hash of an empty password
    service.accounts.create_user("carol", "a-password")
    carol = service.store.users.get_by_username("carol")
    assert carol is not None
    service.store.users.update(carol.id, {"password_hash": hash_password("", cost=2**4)})
    app = service.accounts.create_app("app")
    with pytest.raises(Unauthorized):
        service.accounts.authenticate(app.api_key, "carol", "")


def test_a_bearer_token_proves_its_user_through_its_application(service: Service) -> None:
    service.accounts.create_user("alice", "a-password")
    app = service.accounts.create_app("app")
    grant = service.accounts.authenticate(app.api_key, "alice", "a-password")
    viewer = service.accounts.bearer(grant.token)
    assert (viewer.user and viewer.user.username, viewer.app and viewer.app.name) == (
        "alice",
        "app",
    )


def test_a_revoked_token_is_unauthorized(service: Service) -> None:
    service.accounts.create_user("alice", "a-password")
    app = service.accounts.create_app("app")
    grant = service.accounts.authenticate(app.api_key, "alice", "a-password")
    assert service.accounts.revoke(grant.token).revoked is True
    with pytest.raises(Unauthorized):
        service.accounts.viewer(app.api_key, "alice", grant.token)
    with pytest.raises(Unauthorized):
        service.accounts.bearer(grant.token)
