"""Caching and compression (docs/api.md#caching-and-compression): an ``ETag`` on every GET answer,
``If-None-Match`` answered with 304, ``Cache-Control`` by who asks, and gzip when the app is
built to compress."""

from __future__ import annotations

import gzip

import pytest

from storycore.http import HttpApp
from storycore.http.api import ROUTES
from tests.http._clients import AppClient, Client
from tests.http._shapes import content_of
from tests.http.conftest import World
from tests.http.test_endpoints import VALID_REQUESTS

PUBLIC = "public, max-age=0, must-revalidate"
PRIVATE = "private, no-cache"
_READ_ROUTES = [r for r in ROUTES if r.method == "GET"]
# the reads answered to anyone; the others (a story's revisions) only to its author and editors
_ANONYMOUS_READS = [r for r in _READ_ROUTES if VALID_REQUESTS["GET", r.template][2] is None]
_WEB_PATHS = ["/alice/open", "/alice/open.js", "/feed.atom", "/alice/feed.atom", "/v1/openapi.json"]


def _read(param: str, world: World) -> tuple[str, dict[str, object]]:
    """A GET's path and its parameters, with the credentials of who its valid request names."""
    if param.startswith("/v1/") and ("GET", param) in VALID_REQUESTS:
        path, params, username = VALID_REQUESTS["GET", param]
        return world.at(path), {**params, **world.credentials(username)}
    return param, {}


@pytest.fixture(params=[*(r.template for r in _READ_ROUTES), *_WEB_PATHS])
def read(request: pytest.FixtureRequest, world: World) -> tuple[str, dict[str, object]]:
    """Every GET the API and the web host answer: a path and its parameters."""
    return _read(request.param, world)


@pytest.fixture(params=[*(r.template for r in _ANONYMOUS_READS), *_WEB_PATHS])
def anonymous_read(request: pytest.FixtureRequest, world: World) -> tuple[str, dict[str, object]]:
    """Every GET the API and the web host answer to anyone, asked without credentials."""
    return _read(request.param, world)


def test_every_get_answer_carries_an_etag(
    client: Client, read: tuple[str, dict[str, object]]
) -> None:
    answer = client.get(*read)
    assert (answer.status, answer.headers["etag"][:1]) == (200, '"')


def test_if_none_match_with_the_etag_is_a_304_without_content(
    client: Client, read: tuple[str, dict[str, object]]
) -> None:
    etag = client.get(*read).headers["etag"]
    answer = client.get(*read, headers={"If-None-Match": etag})
    assert (answer.status, answer.body, answer.headers["etag"]) == (304, b"", etag)
    assert "content-type" not in answer.headers


def test_an_anonymous_answer_may_be_kept_by_shared_caches_that_revalidate(
    client: Client, anonymous_read: tuple[str, dict[str, object]]
) -> None:
    assert client.get(*anonymous_read).headers["cache-control"] == PUBLIC


def test_a_304_keeps_the_cache_control(client: Client, world: World) -> None:
    etag = client.get("/v1/stories").headers["etag"]
    answer = client.get("/v1/stories", headers={"If-None-Match": etag})
    assert answer.headers["cache-control"] == PUBLIC


@pytest.mark.parametrize("who", ["bearer", "parameters", "api key alone"])
def test_an_answer_to_a_caller_with_credentials_is_private(
    client: Client, world: World, who: str
) -> None:
    headers, params = {}, {}
    if who == "bearer":
        headers = {"Authorization": f"Bearer {world.tokens['alice']}"}
    elif who == "parameters":
        params = world.credentials("alice")
    else:
        params = world.credentials("")
    answer = client.get("/v1/stories/alice", params, headers=headers)
    assert answer.headers["cache-control"] == PRIVATE


@pytest.mark.parametrize(
    "if_none_match", ['W/"{tag}"', '"other", "{tag}"', '"other",W/"{tag}"', "*"]
)
def test_if_none_match_compares_weakly_and_takes_lists(client: Client, if_none_match: str) -> None:
    tag = client.get("/v1/stories").headers["etag"].strip('"')
    answer = client.get("/v1/stories", headers={"If-None-Match": if_none_match.format(tag=tag)})
    assert answer.status == 304


def test_an_etag_that_does_not_match_gets_the_whole_answer(client: Client) -> None:
    answer = client.get("/v1/stories", headers={"If-None-Match": '"stale"'})
    assert answer.status == 200
    assert content_of(answer)["stories"]


def test_a_lists_etag_changes_when_a_story_is_published(client: Client, world: World) -> None:
    before = client.get("/v1/stories/browse/latest").headers["etag"]
    world.publish("Another harbour")
    assert client.get("/v1/stories/browse/latest").headers["etag"] != before


def test_a_profiles_etag_changes_with_the_profile(client: Client, world: World) -> None:
    before = client.get("/v1/users/alice").headers["etag"]
    world.service.accounts.update(
        "alice", {"bio": "now with a bio"}, viewer=world.service.accounts.as_user("alice")
    )
    assert client.get("/v1/users/alice").headers["etag"] != before


def test_a_write_answer_has_no_etag(client: Client, world: World) -> None:
    answer = client.post_form(
        "/v1/stories/alice/create", {"story": {"title": "x"}, **world.credentials("alice")}
    )
    assert (answer.status, "etag" in answer.headers) == (200, False)


def test_an_error_answer_has_no_etag(client: Client) -> None:
    answer = client.get("/v1/stories/nobody")
    assert (answer.status, "etag" in answer.headers) == (404, False)


# -- compression ------------------------------------------------------------------------------


@pytest.fixture
def compressing(world: World) -> Client:
    """The world's API built with ``compress=True``, as ``storycore serve`` builds it."""
    client = AppClient(world.service)
    client.app = HttpApp(world.service, compress=True)
    return client


_GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def test_a_large_answer_goes_gzipped_to_a_client_that_accepts_it(compressing: Client) -> None:
    plain = compressing.get("/v1/openapi.json")
    answer = compressing.get("/v1/openapi.json", headers=_GZIP)
    assert answer.headers["content-encoding"] == "gzip"
    assert gzip.decompress(answer.body) == plain.body
    assert int(answer.headers["content-length"]) == len(answer.body) < len(plain.body)


def test_a_compressed_answer_varies_by_accept_encoding(compressing: Client) -> None:
    answer = compressing.get("/v1/openapi.json", headers=_GZIP)
    assert "Accept-Encoding" in answer.headers["vary"]


def test_a_compressed_answers_etag_is_weak_and_still_matches(compressing: Client) -> None:
    answer = compressing.get("/v1/openapi.json", headers=_GZIP)
    assert answer.headers["etag"].startswith('W/"')
    again = compressing.get(
        "/v1/openapi.json", headers={**_GZIP, "If-None-Match": answer.headers["etag"]}
    )
    assert again.status == 304


def test_an_answer_under_1_kib_is_not_compressed(compressing: Client) -> None:
    answer = compressing.get("/v1/users/alice", headers=_GZIP)
    assert len(answer.body) < 1024
    assert "content-encoding" not in answer.headers


@pytest.mark.parametrize("accept", ["", "identity", "gzip;q=0", "br", "*;q=0"])
def test_a_client_that_does_not_accept_gzip_gets_the_plain_answer(
    compressing: Client, accept: str
) -> None:
    answer = compressing.get("/v1/openapi.json", headers={"Accept-Encoding": accept})
    assert "content-encoding" not in answer.headers


def test_an_app_built_without_compress_never_compresses(client: Client) -> None:
    answer = client.get("/v1/openapi.json", headers=_GZIP)
    assert "content-encoding" not in answer.headers
