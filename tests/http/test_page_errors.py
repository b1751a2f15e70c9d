"""A request the web host refuses on its own paths is a page, never JSON (docs/api.md#the-web-host):
a method a page does not take is an HTML 405 naming the methods it takes in ``Allow``; under
``/v1`` the API answers in its envelope as before."""

from __future__ import annotations

import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.http import HttpApp, HttpRequest
from tests.conftest import TEST_SETTINGS


@pytest.fixture(scope="module")
def app() -> HttpApp:
    return HttpApp(Service(open_store("memory://"), settings=TEST_SETTINGS))


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("GET", "/signout", "POST"),
        ("DELETE", "/", "GET, HEAD"),
        ("POST", "/search", "GET, HEAD"),
        ("POST", "/alice/open.js", "GET, HEAD"),
        ("OPTIONS", "/alice/open.js", "GET, HEAD"),
    ],
)
def test_a_method_a_page_does_not_take_is_an_html_405(
    app: HttpApp, method: str, path: str, allowed: str
) -> None:
    answer = app.handle(HttpRequest(method, path, headers=[("host", "news.example")]))
    headers = dict(answer.headers)
    assert answer.status == 405
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Allow"] == allowed
    assert b"<h1>Not a request this page takes</h1>" in answer.body
    assert "Content-Security-Policy" in headers


def test_the_api_answers_a_method_it_does_not_take_in_json(app: HttpApp) -> None:
    request = HttpRequest("PUT", "/v1/stories/browse/latest", headers=[("host", "news.example")])
    answer = app.handle(request)
    assert answer.status == 405
    assert dict(answer.headers)["Content-Type"].startswith("application/json")
