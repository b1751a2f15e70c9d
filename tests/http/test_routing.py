"""How a path finds its row (docs/architecture.md#routes): the first row of the table whose
template fits, among those of the path's segment count and first segment; typed segments; the
API's part apart from the web host's."""

from __future__ import annotations

from typing import Any

import pytest

from storycore.errors import MethodNotAllowed, NotFound
from storycore.http import raw_path_of
from storycore.http.routing import Credentials, Kind, Route, Router, web_route
from tests.http._clients import Client


def _handler(*_: Any) -> None:
    return None


def _router(*templates: str) -> Router:
    return Router(tuple(web_route(template, _handler, Kind.PAGE) for template in templates))


def _means(router: Router, path: str) -> tuple[str, dict[str, str]] | None:
    found = router.find(path)
    return None if found is None else (found[0][0].template, found[1])


def test_a_path_means_the_first_row_that_fits_it() -> None:
    router = _router("/{username}/feed.atom", "/topics/{topic}", "/{username}/{slug}")
    assert _means(router, "/topics/feed.atom") == ("/{username}/feed.atom", {"username": "topics"})
    assert _means(router, "/topics/sea") == ("/topics/{topic}", {"topic": "sea"})
    assert _means(router, "/alice/sea") == (
        "/{username}/{slug}",
        {"username": "alice", "slug": "sea"},
    )


def test_a_parameter_never_takes_an_empty_segment() -> None:
    assert _means(_router("/{username}/{slug}"), "/alice//x") is None


def test_a_suffixed_parameter_takes_a_segment_ending_in_its_suffix_without_it() -> None:
    router = _router("/{username}/{slug}.js", "/{username}/{slug}")
    assert _means(router, "/alice/sea.js") == (
        "/{username}/{slug}.js",
        {"username": "alice", "slug": "sea"},
    )
    assert _means(router, "/alice/.js") == (
        "/{username}/{slug}",
        {"username": "alice", "slug": ".js"},
    )


@pytest.mark.parametrize(
    ("path", "rest"),
    [
        ("/static", ""),
        ("/static/", ""),
        ("/static/demo/a.webp", "demo/a.webp"),
        ("/static//a", "/a"),
    ],
)
def test_a_rest_parameter_takes_none_or_more_segments(path: str, rest: str) -> None:
    router = _router("/static/{rest:path}", "/{username}")
    assert _means(router, path) == ("/static/{rest:path}", {"rest": rest})


def test_a_row_before_a_rest_parameters_wins_the_paths_it_fits() -> None:
    router = _router("/static/demo/{name}", "/static/{rest:path}")
    assert _means(router, "/static/demo/a.webp") == ("/static/demo/{name}", {"name": "a.webp"})
    assert _means(router, "/static/other/a.webp") == (
        "/static/{rest:path}",
        {"rest": "other/a.webp"},
    )


def test_a_path_longer_than_every_template_fits_only_a_rest_parameter() -> None:
    router = _router("/docs/{rest:path}", "/{a}/{b}")
    assert _means(router, "/docs/1/2/3/4/5/6/7/8/9") == (
        "/docs/{rest:path}",
        {"rest": "1/2/3/4/5/6/7/8/9"},
    )
    assert _means(router, "/x/1/2/3/4/5/6/7/8/9") is None


def test_the_web_host_takes_slashes_before_and_after_a_path_as_one() -> None:
    assert _means(_router("/{username}"), "//alice//") == ("/{username}", {"username": "alice"})


def test_a_path_under_v1_never_means_a_row_of_the_web_host() -> None:
    router = _router("/{username}", "/{username}/{slug}")
    assert (router.find("/v1"), router.find("/v1/stories")) == (None, None)


def test_an_api_path_led_or_ended_by_two_slashes_means_no_row() -> None:
    router = Router((Route("GET", "/v1/stories", _handler, "", credentials=Credentials.NONE),))
    assert router.find("/v1/stories/") is not None
    assert (router.find("//v1/stories"), router.find("/v1/stories//")) == (None, None)


def test_a_path_whose_rows_take_other_methods_is_a_405_naming_them() -> None:
    router = Router(
        (
            web_route("/signin", _handler, Kind.PAGE),
            web_route("/signin", _handler, Kind.PAGE, method="POST"),
        )
    )
    assert router.methods("/signin") == ("GET", "POST", "HEAD")
    with pytest.raises(MethodNotAllowed) as refused:
        router.resolve("PUT", "/signin")
    assert refused.value.allowed == ("GET", "POST", "HEAD")
    with pytest.raises(NotFound):
        router.resolve("GET", "/signout")


def test_a_template_takes_the_rest_of_a_path_only_at_its_end() -> None:
    with pytest.raises(ValueError, match="last segment"):
        web_route("/{rest:path}/x", _handler, Kind.PAGE)


def test_the_feed_of_the_path_topics_feed_atom_is_the_missing_users(client: Client) -> None:
    answer = client.get("/topics/feed.atom")
    assert answer.status == 404
    assert b"There is no such user" in answer.body


def test_a_script_path_under_topics_is_a_script(client: Client) -> None:
    answer = client.get("/topics/sea.js")
    assert (answer.status, answer.headers["content-type"]) == (
        404,
        "application/javascript; charset=utf-8",
    )


def test_a_segment_is_decoded_after_the_path_is_split_at_its_slashes() -> None:
    router = _router("/topics/{topic}", "/topics/{topic}/feed.atom")
    assert _means(router, "/topics/a%2Fb") == ("/topics/{topic}", {"topic": "a/b"})
    assert _means(router, "/topics/50%25/feed.atom") == (
        "/topics/{topic}/feed.atom",
        {"topic": "50%"},
    )
    assert _means(router, "/topics/%2541") == ("/topics/{topic}", {"topic": "%41"})
    assert _means(router, "/%74opics/x") == ("/topics/{topic}", {"topic": "x"})


@pytest.mark.parametrize(
    ("target", "path", "raw"),
    [
        ("/topics/a%2Fb", "/topics/a/b", "/topics/a%2Fb"),
        ("/mount/topics/a%2fb?page=2", "/topics/a/b", "/topics/a%2fb"),
        ("http://stories.test/mount/topics/q%3Fx", "/topics/q?x", "/topics/q%3Fx"),
        ("/", "/", "/"),
        ("/rewritten/elsewhere", "/topics/a/b", None),
        ("/mount", "/", None),
    ],
)
def test_a_binding_finds_the_path_as_sent_in_its_raw_target(
    target: str, path: str, raw: str | None
) -> None:
    assert raw_path_of(target, path) == raw
