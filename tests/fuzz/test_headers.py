"""Hostile request headers (docs/api.md#credentials, docs/api.md#caching-and-compression): whatever
``Host``, ``Authorization``,
``X-Api-Key``, ``Origin``, ``If-None-Match`` or ``Accept-Encoding`` holds, the answer is a
documented status with an error body (JSON from the API; from the web host's paths a page,
unless the ``Host`` names no site to make one for), never a 500, and nothing of ``Host`` that
is not a host reaches an answer."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storycore import Service
from storycore.adapters import open_store
from storycore.http import HttpApp, HttpRequest
from tests.conftest import TEST_SETTINGS

# what a server hands an app as a header value: latin-1 text without CR, LF or NUL
_VALUES = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_characters="\x7f"),
    max_size=80,
)
_HEADERS = ("host", "authorization", "x-api-key", "origin", "if-none-match", "accept-encoding")
_PATHS = ("/v1/stories/alice", "/v1/stories/search?q=harbour", "/alice/open", "/v1/openapi.json")
_DOCUMENTED = {200, 204, 304, 400, 401, 404}
# what a host name or address and a port are written with; a Host holding anything else never
# becomes an address in an answer (it is refused before one is made, or credentials are first)
_HOST_CHARACTERS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:[]")


@pytest.fixture(scope="module")
def app() -> Iterator[HttpApp]:
    service = Service(open_store("memory://"), TEST_SETTINGS)
    service.accounts.create_user("alice", "a-password")
    alice = service.accounts.as_user("alice")
    service.stories.create("alice", {"title": "Open", "slug": "open"}, viewer=alice, publish=True)
    yield HttpApp(service, compress=True)
    service.close()


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    method=st.sampled_from(["GET", "HEAD", "OPTIONS", "POST"]),
    target=st.sampled_from(_PATHS),
    headers=st.dictionaries(st.sampled_from(_HEADERS), _VALUES, max_size=len(_HEADERS)),
)
def test_any_header_values_get_a_documented_answer(
    app: HttpApp, method: str, target: str, headers: dict[str, str]
) -> None:
    path, _, query = target.partition("?")
    request = HttpRequest(method, path, query.encode(), list(headers.items()))
    response = app.handle(request)
    assert response.status in _DOCUMENTED | {405}, response.body[:200]
    if response.status >= 400 and method != "HEAD":
        kind = dict(response.headers)["Content-Type"]
        if kind.startswith("text/html"):  # the web host's page of a refused request
            assert not path.startswith("/v1"), (path, response.status)
        else:
            assert set(orjson.loads(response.body)) == {"error", "code"}
    host = headers.get("host", "")
    if set(host) - _HOST_CHARACTERS and path != "/v1/openapi.json" and method != "OPTIONS":
        assert response.status in (400, 401), (host, response.status)
