"""The permission table of docs/api.md#credentials, with the fine points of docs/api.md, as one
matrix: every operation by every kind of caller, over HTTP, through ``HttpApp``.

Callers: nobody (no credentials), an application alone (``api_key`` only), the owner of the
stories (alice), another user (bob), an editor (ed) and a user who may feature stories (cora).
The world (see ``conftest``) gives alice a public story ``open``, a working ``draft`` and a
private ``secret``. An outcome is ``"200"`` or ``"<status> <error type>"``; the user list of
stories answers 200 either way, and says whether the hidden stories were in it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.http._clients import Answer, Client
from tests.http._shapes import content_of, error_of
from tests.http.conftest import ACTORS, World

Operation = Callable[[Client, World, dict[str, str]], Answer | str]

OK = "200"
UNAUTHORIZED = "401 unauthorized"
FORBIDDEN = "403 forbidden"
NOT_FOUND = "404 not_found"
WITH_HIDDEN = "200 with the hidden stories"
PUBLIC_ONLY = "200 with the public stories only"


def _get(path: str, **params: str) -> Operation:
    return lambda client, world, credentials: client.get(path, {**params, **credentials})


def _post(path: str, **params: object) -> Operation:
    return lambda client, world, credentials: client.post_form(path, {**params, **credentials})


def _oembed(client: Client, world: World, credentials: dict[str, str]) -> Answer:
    url = f"{client.web_url}/alice/open"
    return client.get("/v1/oembed", {"url": url, **credentials})


def _hidden_stories_listed(client: Client, world: World, credentials: dict[str, str]) -> str:
    answer = client.get("/v1/stories/alice", {"filter": "working,published", **credentials})
    slugs = {story["slug"] for story in content_of(answer)["stories"]}
    return WITH_HIDDEN if slugs == {"open", "draft", "secret"} else PUBLIC_ONLY


def _revisions_of_open(path: str, *, post: bool = False, **params: object) -> Operation:
    """A route of the public story ``open``'s revisions (``path`` under them), after alice has
    saved it once (version 2, revision 1)."""

    def call(client: Client, world: World, credentials: dict[str, str]) -> Answer:
        alice = world.service.accounts.as_user("alice")
        world.service.stories.save("alice", "open", {"title": "Changed"}, viewer=alice)
        send = client.post_form if post else client.get
        return send(f"/v1/stories/alice/open/revisions{path}", {**params, **credentials})

    return call


_STORY = {"title": "Changed"}

# operation -> (how it is called, the outcome for each caller in the order of ACTORS)
TABLE: dict[str, tuple[Operation, tuple[str, ...]]] = {
    "search": (_get("/v1/stories/search", q="harbour"), (OK,) * 6),
    "list public stories": (_get("/v1/stories"), (OK,) * 6),
    "list featured stories": (_get("/v1/stories/browse/featured"), (OK,) * 6),
    "list a topic": (_get("/v1/stories/browse/topic/harbour"), (OK,) * 6),
    "read a public story": (_get("/v1/stories/alice/open"), (OK,) * 6),
    "list users": (_get("/v1/users"), (OK,) * 6),
    "read a user": (_get("/v1/users/alice"), (OK,) * 6),
    "embed a public story": (_get("/alice/open.js"), (OK,) * 6),
    "oembed a public story": (_oembed, (OK,) * 6),
    "list a user's stories with the hidden ones": (
        _hidden_stories_listed,
        (PUBLIC_ONLY, PUBLIC_ONLY, WITH_HIDDEN, PUBLIC_ONLY, WITH_HIDDEN, PUBLIC_ONLY),
    ),
    "read a working story": (
        _get("/v1/stories/alice/draft"),
        (NOT_FOUND, NOT_FOUND, OK, NOT_FOUND, OK, NOT_FOUND),
    ),
    "read a private story": (
        _get("/v1/stories/alice/secret"),
        (NOT_FOUND, NOT_FOUND, OK, NOT_FOUND, OK, NOT_FOUND),
    ),
    "create under the username": (
        _post("/v1/stories/alice/create", story=_STORY),
        (UNAUTHORIZED, UNAUTHORIZED, OK, FORBIDDEN, OK, FORBIDDEN),
    ),
    "save a public story": (
        _post("/v1/stories/alice/open/save", story=_STORY),
        (UNAUTHORIZED, UNAUTHORIZED, OK, FORBIDDEN, OK, FORBIDDEN),
    ),
    "publish a public story": (
        _post("/v1/stories/alice/open/publish", story=_STORY),
        (UNAUTHORIZED, UNAUTHORIZED, OK, FORBIDDEN, OK, FORBIDDEN),
    ),
    "unpublish a public story": (
        _post("/v1/stories/alice/open/unpublish"),
        (UNAUTHORIZED, UNAUTHORIZED, OK, FORBIDDEN, OK, FORBIDDEN),
    ),
    "delete a public story": (
        _post("/v1/stories/alice/open/delete"),
        (UNAUTHORIZED, UNAUTHORIZED, OK, FORBIDDEN, OK, FORBIDDEN),
    ),
    "change the slug of a public story": (
        _post("/v1/stories/alice/open/editslug", slug="quay"),
        (UNAUTHORIZED, UNAUTHORIZED, OK, FORBIDDEN, OK, FORBIDDEN),
    ),
    # a write to a story the caller may not see answers as if it did not exist (docs/api.md)
    "save a working story": (
        _post("/v1/stories/alice/draft/save", story=_STORY),
        (UNAUTHORIZED, UNAUTHORIZED, OK, NOT_FOUND, OK, NOT_FOUND),
    ),
    "publish a working story": (
        _post("/v1/stories/alice/draft/publish"),
        (UNAUTHORIZED, UNAUTHORIZED, OK, NOT_FOUND, OK, NOT_FOUND),
    ),
    "delete a private story": (
        _post("/v1/stories/alice/secret/delete"),
        (UNAUTHORIZED, UNAUTHORIZED, OK, NOT_FOUND, OK, NOT_FOUND),
    ),
    # a story's revisions do not exist for anyone but its author and editors (docs/api.md#revisions)
    "list the revisions of a public story": (
        _revisions_of_open(""),
        (NOT_FOUND, NOT_FOUND, OK, NOT_FOUND, OK, NOT_FOUND),
    ),
    "read a revision of a public story": (
        _revisions_of_open("/1"),
        (NOT_FOUND, NOT_FOUND, OK, NOT_FOUND, OK, NOT_FOUND),
    ),
    "restore a revision of a public story": (
        _revisions_of_open("/1/restore", post=True, version=2),
        (NOT_FOUND, NOT_FOUND, OK, NOT_FOUND, OK, NOT_FOUND),
    ),
    "list the revisions of a working story": (
        _get("/v1/stories/alice/draft/revisions"),
        (NOT_FOUND, NOT_FOUND, OK, NOT_FOUND, OK, NOT_FOUND),
    ),
    "update the profile": (
        _post("/v1/users/alice/update", user={"bio": "Changed"}),
        (UNAUTHORIZED, UNAUTHORIZED, OK, FORBIDDEN, FORBIDDEN, FORBIDDEN),
    ),
    # featuring needs canFeatureStories, even for editors (docs/api.md)
    "feature a story": (
        _post("/v1/stories/alice/open/feature"),
        (UNAUTHORIZED, UNAUTHORIZED, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK),
    ),
    "unfeature a story": (
        _post("/v1/stories/alice/open/unfeature"),
        (UNAUTHORIZED, UNAUTHORIZED, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK),
    ),
}

CASES = [
    pytest.param(operation, actor, outcomes[index], id=f"{name}-by-{actor}")
    for name, (operation, outcomes) in TABLE.items()
    for index, actor in enumerate(ACTORS)
]


def _outcome(answer: Answer | str) -> str:
    if isinstance(answer, str):
        return answer
    if answer.status == 200:
        return OK
    return f"{answer.status} {error_of(answer)['type']}"


@pytest.mark.parametrize(("operation", "actor", "expected"), CASES)
def test_the_permission_table(
    client: Client, world: World, operation: Operation, actor: str, expected: str
) -> None:
    assert _outcome(operation(client, world, world.actor(actor))) == expected


def test_the_table_covers_every_caller_for_every_operation() -> None:
    assert all(len(outcomes) == len(ACTORS) for _, outcomes in TABLE.values())


# -- the credential rules of docs/api.md#credentials, docs/api.md
# ------------------------------------------------


def test_a_token_sent_with_another_username_is_401(client: Client, world: World) -> None:
    credentials = {**world.credentials("alice"), "username": "bob"}
    answer = client.post_form("/v1/stories/bob/create", {**credentials, "story": _STORY})
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")


def test_a_token_sent_with_another_application_is_401(client: Client, world: World) -> None:
    credentials = {**world.credentials("alice"), "api_key": world.partner_key}
    answer = client.post_form("/v1/stories/alice/create", {**credentials, "story": _STORY})
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")


def test_a_token_without_an_api_key_is_401_naming_api_key(client: Client, world: World) -> None:
    credentials = {"username": "alice", "_token": world.tokens["alice"]}
    answer = client.post_form("/v1/stories/alice/create", {**credentials, "story": _STORY})
    assert answer.status == 401
    assert error_of(answer) == {
        "type": "unauthorized",
        "message": "api_key is required",
        "field": "api_key",
    }


def test_wrong_credentials_are_401_even_where_none_are_needed(client: Client, world: World) -> None:
    answer = client.get("/v1/stories", {**world.credentials("alice"), "_token": "x" * 43})
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")


def test_a_story_an_editor_creates_under_a_username_is_that_users(
    client: Client, world: World
) -> None:
    answer = client.post_form(
        "/v1/stories/alice/create",
        {**world.credentials("ed"), "story": {"title": "By ed"}, "publish": True},
    )
    story = content_of(client.get(f"/v1/stories/alice/{content_of(answer)['slug']}"))
    assert story["author"]["username"] == "alice"
