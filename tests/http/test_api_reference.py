"""The API reference (docs/api.md#the-web-host): ``GET {web_url}/docs/api`` is an HTML page that
shows the OpenAPI document in Swagger UI, whose files storycore serves itself under
``/docs/api/``, under the prefix the app is mounted under, with or without ``web_url``: nothing
on the page or in its initializer points at another host.
"""

from __future__ import annotations

import importlib.util
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from storycore import Service
from tests.http._clients import AppClient, Client
from tests.http.conftest import PREFIX, World

PAGE = "/docs/api"
OWN = Path(__file__).resolve().parents[2] / "storycore/static/apidocs"
OWN_FILES = {
    "initializer.js": "application/javascript; charset=utf-8",
    "apidocs.css": "text/css; charset=utf-8",
}
VIEWER_FILES = {
    "swagger-ui-bundle.js": "application/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "index.css": "text/css; charset=utf-8",
    "favicon-32x32.png": "image/png",
    "favicon-16x16.png": "image/png",
}
FILES = {**VIEWER_FILES, **OWN_FILES}
ESCAPES = [
    "/docs/api/../../pyproject.toml",
    "/docs/api/..%2F..%2Fhttp%2Fapp.py",
    "/docs/api/%2e%2e/core.py",
    "/docs/api/..%5C__init__.py",
    "/docs/api/%2Fetc%2Fpasswd",
    "/docs/api//etc/passwd",
    "/docs/api/swagger-ui.css%00.txt",
    "/docs/api/swagger-ui.js",
    "/docs/api/swagger-editor-bundle.js",
    "/docs/api/LICENSE",
    "/docs/api/index.html",
    "/docs/api/swagger-initializer.js",
    "/docs/api/initializer.js/x",
    "/docs/swagger-ui.css",
    "/docs/API",
    "/docs",
]


class _Page(HTMLParser):
    """The parts of a page the tests read: tags with their attributes, and the text."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.title = ""
        self._in_title = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data

    def find(self, tag: str, **attrs: str) -> list[dict[str, str]]:
        """The attributes of each ``tag`` whose attributes hold ``attrs``."""
        return [
            found
            for name, found in self.tags
            if name == tag and all(found.get(key) == value for key, value in attrs.items())
        ]

    def loaded(self) -> list[str]:
        """The addresses the page makes a browser load: scripts, stylesheets, icons, the
        document the viewer reads."""
        found = [attrs["src"] for tag, attrs in self.tags if tag == "script"]
        found += [a["href"] for tag, a in self.tags if tag == "link" and a["rel"] != "canonical"]
        found += [a["data-url"] for tag, a in self.tags if "data-url" in a]
        return found


def _page(client: Client) -> _Page:
    return _Page(client.get(PAGE).body.decode())


def _viewer_file(name: str) -> bytes:
    spec = importlib.util.find_spec("swagger_ui")
    assert spec is not None
    assert spec.submodule_search_locations
    return (Path(next(iter(spec.submodule_search_locations))) / "static" / name).read_bytes()


def test_the_api_reference_is_an_html_page(client: Client) -> None:
    answer = client.get(PAGE)
    assert (answer.status, answer.headers["content-type"]) == (200, "text/html; charset=utf-8")
    assert answer.body.startswith(b"<!doctype html>")


def test_the_page_has_lang_title_description_viewport_and_canonical(client: Client) -> None:
    page = _page(client)
    assert page.find("html")[0]["lang"] == "en"
    assert page.title == "API reference · stories.test"
    assert page.find("meta", name="description")[0]["content"].startswith("The HTTP API of")
    assert page.find("meta", name="viewport")[0]["content"].startswith("width=device-width")
    assert page.find("link", rel="canonical")[0]["href"] == f"{client.web_url}{PAGE}"
    assert page.find("meta", property="og:site_name")[0]["content"] == "stories.test"


def test_the_viewer_reads_the_openapi_document_of_the_same_app(client: Client) -> None:
    (viewer,) = [attrs for _, attrs in _page(client).tags if attrs.get("id") == "swagger-ui"]
    assert viewer["data-url"] == "/v1/openapi.json"
    document = client.get(viewer["data-url"])
    assert document.status == 200
    assert document.json()["openapi"].startswith("3.1")


def test_the_page_loads_the_viewer_from_storycore_itself(client: Client) -> None:
    loaded = _page(client).loaded()
    assert sorted(loaded) == sorted(
        [f"{PAGE}/{name}" for name in FILES if name != "favicon-16x16.png"]
        + [f"{PAGE}/favicon-16x16.png", "/v1/openapi.json"]
    )
    assert {address: client.get(address).status for address in loaded} == dict.fromkeys(loaded, 200)


def test_under_a_mount_prefix_everything_the_page_loads_is_under_the_prefix(
    mounted: Client,
) -> None:
    page = _page(mounted)
    loaded = page.loaded()
    assert f"{PREFIX}/v1/openapi.json" in loaded
    assert all(address.startswith(f"{PREFIX}/") for address in loaded)
    assert page.find("link", rel="canonical")[0]["href"] == f"{mounted.web_url}{PAGE}"
    for address in loaded:  # the mounted client adds the prefix itself
        assert mounted.get(address.removeprefix(PREFIX)).status == 200


def test_a_configured_web_url_is_the_canonical_and_the_files_stay_under_the_prefix(
    world: World,
) -> None:
    settings = world.service.settings.model_copy(update={"web_url": "https://pub.example/news"})
    page = _page(AppClient(Service(world.service.store, settings), PREFIX))
    assert page.find("link", rel="canonical")[0]["href"] == "https://pub.example/news/docs/api"
    assert all(address.startswith(f"{PREFIX}/") for address in page.loaded())


def test_the_page_and_its_initializer_name_no_other_host(mounted: Client) -> None:
    page = mounted.get(PAGE).body.decode()
    own = re.escape(f"{mounted.web_url}{PAGE}")
    assert re.findall(r"(?:https?:)?//[^\s\"'<>]*", re.sub(own, "", page)) == []
    script = mounted.get(f"{PAGE}/initializer.js").body.decode()
    assert re.findall(r"(?:https?:)?//[\w.-]+", script) == []


def test_the_initializer_turns_swagger_uis_online_validator_off(client: Client) -> None:
    script = client.get(f"{PAGE}/initializer.js").body.decode()
    assert re.search(r"\bvalidatorUrl:\s*null\b", script)
    assert re.search(r"\bqueryConfigEnabled:\s*false\b", script)


def test_the_site_name_is_text_on_the_page(world: World) -> None:
    settings = world.service.settings.model_copy(update={"site_name": '"><script>x()</script>'})
    body = AppClient(Service(world.service.store, settings)).get(PAGE).body.decode()
    assert "<script>x()" not in body
    assert "&quot;&gt;&lt;script&gt;x()&lt;/script&gt;" in body


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_file_of_the_page_has_its_type(client: Client, name: str) -> None:
    answer = client.get(f"{PAGE}/{name}")
    assert (answer.status, answer.headers["content-type"]) == (200, FILES[name])
    assert answer.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("name", sorted(VIEWER_FILES))
def test_the_viewers_files_are_those_its_package_ships(client: Client, name: str) -> None:
    assert client.get(f"{PAGE}/{name}").body == _viewer_file(name)


@pytest.mark.parametrize("name", sorted(OWN_FILES))
def test_the_initializer_and_stylesheet_are_storycores_files(client: Client, name: str) -> None:
    assert client.get(f"{PAGE}/{name}").body == (OWN / name).read_bytes()


def test_the_pages_own_stylesheet_comes_after_the_viewers(client: Client) -> None:
    """Its rules win over the viewer's that they correct, being as specific and later."""
    sheets = [a["href"] for a in _page(client).find("link", rel="stylesheet")]
    assert sheets[-1] == f"{PAGE}/apidocs.css"


def test_the_viewers_files_may_be_cached_for_a_week(client: Client) -> None:
    answer = client.get(f"{PAGE}/swagger-ui-bundle.js")
    assert answer.headers["cache-control"] == "public, max-age=604800"


def test_the_page_is_revalidated_each_time(client: Client) -> None:
    assert client.get(PAGE).headers["cache-control"] == "public, max-age=0, must-revalidate"


@pytest.mark.parametrize("path", [PAGE, f"{PAGE}/swagger-ui-bundle.js", f"{PAGE}/initializer.js"])
def test_the_page_and_its_files_send_an_etag_and_honour_if_none_match(
    client: Client, path: str
) -> None:
    etag = client.get(path).headers["etag"]
    answer = client.get(path, headers={"If-None-Match": etag})
    assert (answer.status, answer.body) == (304, b"")


def test_each_file_has_its_own_etag(client: Client) -> None:
    tags = {client.get(f"{PAGE}/{name}").headers["etag"] for name in FILES}
    assert len(tags) == len(FILES)


@pytest.mark.parametrize("path", [PAGE, f"{PAGE}/swagger-ui.css"])
def test_head_has_the_headers_of_get_and_no_body(client: Client, path: str) -> None:
    got = client.get(path)
    answer = client.request("HEAD", path)
    assert (answer.status, answer.body) == (200, b"")
    assert answer.headers["content-length"] == str(len(got.body))
    assert answer.headers["etag"] == got.headers["etag"]


@pytest.mark.parametrize("path", ESCAPES)
def test_a_path_that_names_no_file_of_the_page_is_the_html_404(client: Client, path: str) -> None:
    answer = client.get(path)
    assert (answer.status, answer.headers["content-type"]) == (404, "text/html; charset=utf-8")


@pytest.mark.parametrize("path", [PAGE, f"{PAGE}/swagger-ui.css"])
def test_the_page_and_its_files_take_only_get_and_head(client: Client, path: str) -> None:
    answer = client.request("POST", path)
    assert (answer.status, answer.headers["allow"]) == (405, "GET, HEAD")
