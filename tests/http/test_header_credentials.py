"""Credentials in headers and token revocation (docs/api.md#credentials).

``Authorization: Bearer <token>`` proves the token's user through the token's application;
``X-Api-Key`` stands for the ``api_key`` parameter anywhere; ``POST /v1/auth/revoke`` ends the
token it is called with. Parameters keep working for v1 clients.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.http._clients import Client
from tests.http._shapes import content_of, error_of
from tests.http.conftest import World

_DRAFTS = {"filter": "working"}


def _bearer(world: World, username: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {world.tokens[username]}"}


def _drafts(answer_content: dict[str, Any]) -> list[str]:
    return [story["slug"] for story in answer_content["stories"]]


def test_a_bearer_token_alone_proves_its_user(client: Client, world: World) -> None:
    answer = client.get("/v1/stories/alice", _DRAFTS, headers=_bearer(world, "alice"))
    assert _drafts(content_of(answer)) == ["draft"]


def test_a_bearer_token_writes_as_its_user(client: Client, world: World) -> None:
    answer = client.post_json(
        "/v1/stories/alice/create", {"story": {"title": "By header"}}, _bearer(world, "alice")
    )
    assert content_of(answer)["slug"] == "by-header"


def test_a_bearer_token_with_the_matching_api_key_and_username_is_accepted(
    client: Client, world: World
) -> None:
    params = {**_DRAFTS, "api_key": world.api_key, "username": "ALICE"}
    answer = client.get("/v1/stories/alice", params, headers=_bearer(world, "alice"))
    assert _drafts(content_of(answer)) == ["draft"]


@pytest.mark.parametrize(
    "params",
    [{"username": "bob"}, {"api_key": "not-the-key"}, {"_token": "another-token"}],
    ids=["another username", "another api key", "another _token"],
)
def test_a_bearer_token_with_credentials_that_disagree_is_401(
    client: Client, world: World, params: dict[str, str]
) -> None:
    answer = client.get("/v1/stories/alice", params, headers=_bearer(world, "alice"))
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")


@pytest.mark.parametrize(
    "authorization",
    ["Basic YWxpY2U6cGFzc3dvcmQ=", "Bearer", "Bearer ", "Token abc", "Bearer a b", "bearer"],
)
def test_an_authorization_header_that_is_not_bearer_and_a_token_is_401(
    client: Client, authorization: str
) -> None:
    answer = client.get("/v1/stories/browse/latest", headers={"Authorization": authorization})
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")


def test_an_unknown_bearer_token_is_401(client: Client) -> None:
    answer = client.get("/v1/stories", headers={"Authorization": "Bearer no-such-token"})
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")


def test_a_401_names_bearer_as_the_way_to_authenticate(client: Client) -> None:
    answer = client.get("/v1/stories", headers={"Authorization": "Bearer no-such-token"})
    assert answer.headers["www-authenticate"].startswith("Bearer ")


def test_the_bearer_scheme_is_read_in_any_case(client: Client, world: World) -> None:
    headers = {"Authorization": f"bEaReR {world.tokens['alice']}"}
    answer = client.get("/v1/stories/alice", _DRAFTS, headers=headers)
    assert _drafts(content_of(answer)) == ["draft"]


def test_an_expired_bearer_token_is_401(client: Client, world: World) -> None:
    token = world.service.accounts.authenticate(world.api_key, "bob", "bob-password").token
    world.clock.advance(world.service.settings.token_lifetime)
    answer = client.get("/v1/stories", headers={"Authorization": f"Bearer {token}"})
    assert (answer.status, error_of(answer)["message"]) == (
        401,
        "the token has expired; authenticate again",
    )


def test_x_api_key_stands_for_the_api_key_parameter(client: Client, world: World) -> None:
    params = {**_DRAFTS, "username": "alice", "_token": world.tokens["alice"]}
    answer = client.get("/v1/stories/alice", params, headers={"X-Api-Key": world.api_key})
    assert _drafts(content_of(answer)) == ["draft"]


def test_x_api_key_authenticates_a_password(client: Client, world: World) -> None:
    answer = client.request(
        "POST",
        "/v1/auth",
        params={"username": "bob", "password": "bob-password"},
        headers={"X-Api-Key": world.api_key},
    )
    assert content_of(answer)["username"] == "bob"


def test_x_api_key_and_an_api_key_parameter_that_differ_are_401(
    client: Client, world: World
) -> None:
    answer = client.get(
        "/v1/stories", {"api_key": world.api_key}, headers={"X-Api-Key": "another-key"}
    )
    assert (answer.status, error_of(answer)["field"]) == (401, "api_key")


def test_an_unknown_x_api_key_is_401(client: Client) -> None:
    answer = client.get("/v1/stories", headers={"X-Api-Key": "no-such-key"})
    assert (answer.status, error_of(answer)["field"]) == (401, "api_key")


# -- revocation -------------------------------------------------------------------------------


def test_revoke_answers_revoked_true(client: Client, world: World) -> None:
    answer = client.request("POST", "/v1/auth/revoke", headers=_bearer(world, "alice"))
    assert (answer.status, answer.json()) == (200, {"content": {"revoked": True}, "code": 200})


def test_a_revoked_token_is_refused_as_a_bearer_token(client: Client, world: World) -> None:
    client.request("POST", "/v1/auth/revoke", headers=_bearer(world, "alice"))
    answer = client.get("/v1/stories/alice", headers=_bearer(world, "alice"))
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")


def test_a_revoked_token_is_refused_as_parameters(client: Client, world: World) -> None:
    client.post_form("/v1/auth/revoke", world.credentials("alice"))
    answer = client.get("/v1/stories/alice", world.credentials("alice"))
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")


def test_revoking_a_token_leaves_the_users_other_tokens(client: Client, world: World) -> None:
    other = world.service.accounts.authenticate(world.api_key, "alice", "alice-password").token
    client.request("POST", "/v1/auth/revoke", headers=_bearer(world, "alice"))
    answer = client.get("/v1/stories/alice", _DRAFTS, headers={"Authorization": f"Bearer {other}"})
    assert _drafts(content_of(answer)) == ["draft"]


def test_revoke_without_a_token_is_401(client: Client, world: World) -> None:
    answer = client.post_form("/v1/auth/revoke", {"api_key": world.api_key})
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")


def test_revoking_a_revoked_token_is_401(client: Client, world: World) -> None:
    client.request("POST", "/v1/auth/revoke", headers=_bearer(world, "alice"))
    answer = client.request("POST", "/v1/auth/revoke", headers=_bearer(world, "alice"))
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")
