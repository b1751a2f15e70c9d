"""Each route declares its parameters once: how each is read and under which keyword
it reaches the operation. A handler takes its arguments from that declaration
(``Call.arguments``), and the OpenAPI document describes the same declaration.
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
from storycore.http.params import Read
from storycore.http.routing import Credentials, Parameter, Route
from tests.conftest import TEST_SETTINGS
from tests.http._clients import JSON, Client
from tests.http._shapes import error_of
from tests.http.conftest import World
from tests.http.test_endpoints import DELEGATION, VALID_REQUESTS

_TEXT = {"type": "string"}
#: a parameter its handler reads itself
_FORMAT = Parameter("format", _TEXT, keyword=None)
#: one parameter of each reading, as an operation would take them
_DECLARED = (
    Parameter("containingElement", _TEXT, keyword="containing_element"),
    Parameter("page", _TEXT, read=Read.PAGE),
    Parameter("total", _TEXT, read=Read.BOOLEAN),
    Parameter("publish", _TEXT, read=Read.BOOLEAN, default=True),
    Parameter("version", _TEXT, read=Read.INTEGER),
    Parameter("story", _TEXT, read=Read.OBJECT),
    _FORMAT,
)


def _echo(call: Call) -> HttpResponse:
    """What the operation would receive, and what the handler reads itself."""
    return call.ok({"arguments": call.arguments(), "format": call.read("format")})


def _answer(routes: tuple[Route, ...], path: str, body: dict[str, Any]) -> tuple[int, Any]:
    service = Service(open_store("memory://"), TEST_SETTINGS)
    request = HttpRequest("POST", path, headers=[("content-type", JSON)], body=orjson.dumps(body))
    answer = HttpApp(service, routes).handle(request)
    service.close()
    return answer.status, orjson.loads(answer.body)


def _route(*parameters: Parameter) -> Route:
    return Route(
        "POST", "/v1/echo/{username}", _echo, "echo", parameters, credentials=Credentials.NONE
    )


def test_a_handler_takes_each_parameter_read_as_declared_under_its_keyword() -> None:
    sent: dict[str, Any] = {"containingElement": "https://x.test/a", "page": "2", "total": "yes"}
    sent |= {"version": "7", "story": {"title": "t"}, "format": "xml"}
    status, body = _answer((_route(*_DECLARED),), "/v1/echo/alice", sent)
    assert status == 200, body
    assert body["content"]["arguments"] == {
        "username": "alice",
        "containing_element": "https://x.test/a",
        "page": "2",
        "total": True,
        "publish": True,
        "version": 7,
        "story": {"title": "t"},
    }


def test_a_parameter_its_handler_reads_itself_is_read_as_declared_and_not_passed_on() -> None:
    status, body = _answer((_route(*_DECLARED),), "/v1/echo/alice", {"format": "xml"})
    assert (status, body["content"]["format"]) == (200, "xml")
    assert "format" not in body["content"]["arguments"]


@pytest.mark.parametrize("read", [Read.TEXT, Read.OBJECT])
def test_a_required_parameter_sent_absent_is_400_naming_it(read: Read) -> None:
    route = _route(_FORMAT, Parameter("story", _TEXT, required=True, read=read))
    status, body = _answer((route,), "/v1/echo/alice", {})
    assert (status, body["error"]["field"]) == (400, "story")


def test_a_required_parameter_its_operation_refuses_itself_reaches_it_as_none() -> None:
    story = Parameter("story", _TEXT, required=True, read=Read.OBJECT, absent_to_operation=True)
    status, body = _answer((_route(_FORMAT, story),), "/v1/echo/alice", {})
    assert (status, body["content"]["arguments"]) == (200, {"username": "alice", "story": None})


def test_a_route_passing_one_keyword_twice_is_refused_when_declared() -> None:
    template = "/v1/stories/{username}/{slug}/editslug"
    new_slug = Parameter("slug", _TEXT, keyword="new_slug")
    Route("POST", template, _echo, "", (new_slug,), credentials=Credentials.NONE)
    with pytest.raises(ValueError, match="twice"):
        Route(
            "POST", template, _echo, "", (Parameter("slug", _TEXT),), credentials=Credentials.NONE
        )


_READ_BY_KIND = [
    (route, parameter.name)
    for route in ROUTES
    for parameter in route.parameters
    if parameter.read is not Read.OBJECT  # an object goes to the operation as received
]


@pytest.mark.parametrize(
    ("route", "name"),
    _READ_BY_KIND,
    ids=[f"{route.method} {route.template} {name}" for route, name in _READ_BY_KIND],
)
def test_every_parameter_a_route_declares_is_read_by_its_handler(
    client: Client, world: World, route: Route, name: str
) -> None:
    """No reading takes a JSON array: a parameter sent as one is a 400 naming it, in the
    route's valid request, so its handler reads every parameter its route declares."""
    path, params, username = VALID_REQUESTS[route.method, route.template]
    path = world.at(path)
    key = world.partner_key if "delegated" in path else world.api_key
    own = {p.name for p in route.parameters}
    sent = {"api_key": key, **params}
    sent |= {k: v for k, v in world.credentials(username).items() if k not in own}
    sent[name] = []
    answer = client.request(
        route.method, path, body=orjson.dumps(sent), content_type=JSON, headers=DELEGATION
    )
    assert (answer.status, error_of(answer)["field"]) == (400, name), answer.body
