"""Each route declares whether it needs, accepts or ignores credentials: ``HttpApp``
resolves them once by that declaration, before the handler runs, and the OpenAPI document
reads the same declaration for its security requirements and its 401.

``REQUIRED``: the operation needs a user, and answers 401 without one. ``OPTIONAL``: anyone may
call it; credentials sent are checked (decisions, "HTTP") and may change what the caller sees.
``NONE``: the operation takes its own parameters (``/v1/auth``, delegated creation) or none
(oEmbed), and ``api_key``, ``username`` and ``_token`` are ignored, as they are today.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.http import HttpApp, HttpRequest
from storycore.http.api import ROUTES
from storycore.http.call import Call
from storycore.http.messages import HttpResponse
from storycore.http.routing import Credentials, Route
from storycore.model.visibility import Viewer
from storycore.usecases.accounts import Accounts
from tests.conftest import TEST_SETTINGS
from tests.http._clients import Answer, Client
from tests.http._shapes import error_of
from tests.http.conftest import World
from tests.http.test_endpoints import DELEGATION, VALID_REQUESTS

CREDENTIAL_NAMES = ("api_key", "username", "_token")
BEARER: dict[str, list[str]] = {"bearerToken": []}
ALL_THREE: dict[str, list[str]] = {"api_key": [], "username": [], "_token": []}
KEY_IN_HEADER: dict[str, list[str]] = {"apiKeyHeader": [], "username": [], "_token": []}
# the security requirement each declaration documents: alternatives, any one of which will do
# (docs/api.md#credentials: a bearer token alone, or the v1 parameters with the key in either place)
SECURITY = {
    Credentials.REQUIRED: [BEARER, ALL_THREE, KEY_IN_HEADER],
    Credentials.OPTIONAL: [
        {},
        BEARER,
        ALL_THREE,
        KEY_IN_HEADER,
        {"api_key": []},
        {"apiKeyHeader": []},
    ],
    Credentials.NONE: [],
}
REFUSED = {"api_key": "no-such-key", "username": "nobody", "_token": "x" * 43}


def _ids(routes: list[Route]) -> list[str]:
    return [f"{route.method} {route.template}" for route in routes]


def _declared(credentials: Credentials) -> list[Route]:
    return [route for route in ROUTES if route.credentials is credentials]


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    service = Service(open_store("memory://"), TEST_SETTINGS)
    answer = HttpApp(service).handle(HttpRequest("GET", "/v1/openapi.json"))
    service.close()
    return orjson.loads(answer.body)  # type: ignore[no-any-return]


def _operation(document: dict[str, Any], route: Route) -> dict[str, Any]:
    return document["paths"][route.template][route.method.lower()]  # type: ignore[no-any-return]


def _call(client: Client, world: World, route: Route, credentials: dict[str, str]) -> Answer:
    """The route's valid request of ``test_endpoints``, with ``credentials`` as the only ones."""
    path, params, _ = VALID_REQUESTS[route.method, route.template]
    path = world.at(path)
    own = {p.name for p in route.parameters}
    values: dict[str, object] = {**params}
    if "api_key" in own:  # /v1/auth and delegated creation take an application key of their own
        values["api_key"] = world.partner_key if "delegated" in path else world.api_key
    values.update({k: v for k, v in credentials.items() if k not in own})
    if route.method == "GET":
        return client.get(path, values)
    return client.post_json(path, values, headers=DELEGATION)


# -- the declaration -------------------------------------------------------------------------


@pytest.mark.parametrize("route", ROUTES, ids=_ids(list(ROUTES)))
def test_every_route_declares_its_credential_use(route: Route) -> None:
    assert isinstance(route.credentials, Credentials)


@pytest.mark.parametrize("route", ROUTES, ids=_ids(list(ROUTES)))
def test_the_documented_security_of_an_operation_is_its_declaration(
    document: dict[str, Any], route: Route
) -> None:
    # an operation anyone may call inherits the document's default, which allows no credentials
    documented = _operation(document, route).get("security", document["security"])
    assert documented == SECURITY[route.credentials]


def test_the_security_schemes_are_the_bearer_token_the_key_header_and_the_parameters(
    document: dict[str, Any],
) -> None:
    schemes = document["components"]["securitySchemes"]
    where = {
        name: (scheme["type"], scheme.get("scheme") or (scheme["in"], scheme["name"]))
        for name, scheme in schemes.items()
    }
    assert where == {
        "bearerToken": ("http", "bearer"),
        "apiKeyHeader": ("apiKey", ("header", "X-Api-Key")),
        **{name: ("apiKey", ("query", name)) for name in CREDENTIAL_NAMES},
    }


@pytest.mark.parametrize(
    "route", [*_declared(Credentials.REQUIRED), *_declared(Credentials.OPTIONAL)],
    ids=_ids([*_declared(Credentials.REQUIRED), *_declared(Credentials.OPTIONAL)]),
)  # fmt: skip
def test_an_operation_that_reads_credentials_documents_their_400_and_401(
    document: dict[str, Any], route: Route
) -> None:
    # the credentials themselves are its security requirements (the test above)
    assert {"400", "401"} <= set(_operation(document, route)["responses"])


@pytest.mark.parametrize(
    "route", _declared(Credentials.NONE), ids=_ids(_declared(Credentials.NONE))
)
def test_an_operation_that_ignores_credentials_documents_none_of_them(
    document: dict[str, Any], route: Route
) -> None:
    operation = _operation(document, route)
    own = {p.name for p in route.parameters}
    documented = {p["name"] for p in operation["parameters"]}
    for media in operation.get("requestBody", {}).get("content", {}).values():
        documented |= set(media["schema"]["properties"])
    assert documented & set(CREDENTIAL_NAMES) <= own
    # a 401 is documented only where the operation's own parameters can earn it
    assert ("401" in operation["responses"]) == (401 in route.errors)


# -- the declaration is what the service does ------------------------------------------------


@pytest.mark.parametrize(
    "route", _declared(Credentials.REQUIRED), ids=_ids(_declared(Credentials.REQUIRED))
)
@pytest.mark.parametrize("actor", ["anonymous", "app-only"])
def test_a_route_that_needs_credentials_answers_401_without_a_user(
    client: Client, world: World, route: Route, actor: str
) -> None:
    answer = _call(client, world, route, world.actor(actor))
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")


def _for_anyone(route: Route) -> bool:
    """Whether the route's valid request is one anyone may make (it names no user)."""
    return VALID_REQUESTS[route.method, route.template][2] is None


_FOR_ANYONE = [route for route in _declared(Credentials.OPTIONAL) if _for_anyone(route)]
# a story's revisions: anyone may ask, but for all but its author and editors there are none
_FOR_THE_AUTHOR = [route for route in _declared(Credentials.OPTIONAL) if not _for_anyone(route)]


@pytest.mark.parametrize("route", _FOR_ANYONE, ids=_ids(_FOR_ANYONE))
def test_a_route_that_accepts_credentials_answers_without_them(
    client: Client, world: World, route: Route
) -> None:
    assert _call(client, world, route, {}).status == 200


@pytest.mark.parametrize("route", _FOR_THE_AUTHOR, ids=_ids(_FOR_THE_AUTHOR))
def test_a_route_of_what_only_the_author_sees_answers_404_without_credentials(
    client: Client, world: World, route: Route
) -> None:
    answer = _call(client, world, route, {})
    assert (answer.status, error_of(answer)["type"]) == (404, "not_found")
    assert _call(client, world, route, world.credentials("alice")).status == 200


@pytest.mark.parametrize(
    "route", [*_declared(Credentials.REQUIRED), *_declared(Credentials.OPTIONAL)],
    ids=_ids([*_declared(Credentials.REQUIRED), *_declared(Credentials.OPTIONAL)]),
)  # fmt: skip
def test_credentials_sent_to_a_route_that_reads_them_are_checked(
    client: Client, world: World, route: Route
) -> None:
    answer = _call(client, world, route, {**world.credentials("alice"), "_token": "x" * 43})
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")


@pytest.mark.parametrize(
    "route", _declared(Credentials.NONE), ids=_ids(_declared(Credentials.NONE))
)
def test_a_route_that_ignores_credentials_answers_whatever_credentials_are_sent(
    client: Client, world: World, route: Route
) -> None:
    assert _call(client, world, route, REFUSED).status == 200
    assert _call(client, world, route, {"api_key": "\x01", "_token": "\x00"}).status == 200


@pytest.mark.parametrize("route", ROUTES, ids=_ids(list(ROUTES)))
def test_the_app_resolves_credentials_once_a_request_by_the_declaration(
    client: Client, world: World, route: Route, monkeypatch: pytest.MonkeyPatch
) -> None:
    resolved: list[object] = []
    original = Accounts.viewer

    def viewer(accounts: Accounts, *credentials: str | None) -> Viewer:
        resolved.append(credentials)
        return original(accounts, *credentials)

    monkeypatch.setattr(Accounts, "viewer", viewer)
    _, _, username = VALID_REQUESTS[route.method, route.template]
    answer = _call(client, world, route, world.credentials(username or "bob"))
    assert answer.status == 200, answer.body
    assert len(resolved) == (0 if route.credentials is Credentials.NONE else 1)


def _reads_the_viewer(call: Call) -> HttpResponse:
    return call.ok({"anonymous": call.viewer.user is None})


def test_a_handler_of_a_route_that_ignores_credentials_has_no_viewer() -> None:
    """A route declared ``NONE`` whose handler reads the viewer is a bug (a logged 500), so no
    such handler can resolve credentials behind its declaration.
    """
    routes = (
        Route("GET", "/v1/reads", _reads_the_viewer, "reads", credentials=Credentials.OPTIONAL),
        Route("GET", "/v1/ignores", _reads_the_viewer, "ignores", credentials=Credentials.NONE),
    )
    service = Service(open_store("memory://"), TEST_SETTINGS)
    app = HttpApp(service, routes)
    reads = app.handle(HttpRequest("GET", "/v1/reads"))
    ignores = app.handle(HttpRequest("GET", "/v1/ignores"))
    service.close()
    assert (reads.status, orjson.loads(reads.body)["content"]) == (200, {"anonymous": True})
    assert ignores.status == 500


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/v1/stories/alice/create", {}),
        ("/v1/stories/alice/open/save", {}),
        ("/v1/users/alice/update", {}),
        ("/v1/stories/search", {"q": "\x01"}),
    ],
)
def test_credentials_are_checked_before_the_operations_own_parameters(
    client: Client, world: World, path: str, params: dict[str, str]
) -> None:
    """A request with refused credentials is a 401, whatever else is wrong with it."""
    refused = {**world.credentials("alice"), "_token": "x" * 43}
    if "search" in path:
        answer = client.get(path, {**params, **refused})
    else:
        answer = client.post_form(path, {**params, **refused})
    assert (answer.status, error_of(answer)["type"]) == (401, "unauthorized")
