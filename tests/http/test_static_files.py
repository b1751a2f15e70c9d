"""The demo's files on the web host (docs/decisions.md): ``GET /static/demo/{name}`` answers
a file the package ships, with its type, an ``ETag`` and a week's caching; any other path under
``/static/`` is the web host's HTML 404, however it tries to leave the folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.http._clients import Client
from tests.http.conftest import PREFIX

FOLDER = Path(__file__).resolve().parents[2] / "storycore" / "static" / "demo"
PICTURE = "porto.webp"
ESCAPES = [
    "/static/demo/../../pyproject.toml",
    "/static/demo/../../http/app.py",
    "/static/demo/..%2F..%2Fhttp%2Fapp.py",
    "/static/demo/%2e%2e/%2e%2e/__init__.py",
    "/static/demo/..%5C..%5C__init__.py",
    "/static/demo/%2Fetc%2Fpasswd",
    "/static/demo//etc/passwd",
    "/static/demo/porto.webp%00.txt",
    "/static/../static/demo/porto.webp",
    "/static/embed/embed.js",
    "/static/demo",
    "/static/demo/",
    "/static/demo/missing.webp",
]


def test_a_demo_picture_is_the_packaged_file_as_webp(client: Client) -> None:
    answer = client.get(f"/static/demo/{PICTURE}")
    assert (answer.status, answer.headers["content-type"]) == (200, "image/webp")
    assert answer.body == (FOLDER / PICTURE).read_bytes()
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_every_packaged_demo_file_is_served(client: Client) -> None:
    names = sorted(path.name for path in FOLDER.iterdir())
    assert len(names) >= 8
    answers = {name: client.get(f"/static/demo/{name}") for name in names}
    assert {name: answer.status for name, answer in answers.items()} == dict.fromkeys(names, 200)


def test_a_demo_file_may_be_cached_for_a_week(client: Client) -> None:
    answer = client.get(f"/static/demo/{PICTURE}")
    assert answer.headers["cache-control"] == "public, max-age=604800"


def test_a_demo_file_sends_an_etag_and_honours_if_none_match(client: Client) -> None:
    etag = client.get(f"/static/demo/{PICTURE}").headers["etag"]
    answer = client.get(f"/static/demo/{PICTURE}", headers={"If-None-Match": etag})
    assert (answer.status, answer.body) == (304, b"")
    other = client.get("/static/demo/kyoto.webp").headers["etag"]
    assert other != etag


def test_head_of_a_demo_file_has_its_headers_and_no_body(client: Client) -> None:
    answer = client.request("HEAD", f"/static/demo/{PICTURE}")
    size = (FOLDER / PICTURE).stat().st_size
    assert (answer.status, answer.headers["content-length"], answer.body) == (200, str(size), b"")


@pytest.mark.parametrize("path", ESCAPES)
def test_a_path_that_names_no_demo_file_is_the_html_404(client: Client, path: str) -> None:
    answer = client.get(path)
    assert (answer.status, answer.headers["content-type"]) == (404, "text/html; charset=utf-8")
    assert b"There is no such file." in answer.body


def test_a_demo_file_takes_only_get_and_head(client: Client) -> None:
    answer = client.request("POST", f"/static/demo/{PICTURE}")
    assert (answer.status, answer.headers["allow"]) == (405, "GET, HEAD")


def test_a_mounted_app_serves_the_demo_files_under_its_prefix(mounted: Client) -> None:
    answer = mounted.get(f"/static/demo/{PICTURE}")
    assert answer.status == 200
    assert mounted.prefix == PREFIX
