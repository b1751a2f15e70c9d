"""End to end: ``storycore serve --port 0`` on a SQLite file, talked to over loopback."""

from __future__ import annotations

import http.client
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests._serve import serving, storycore

# the server with the demo data starts once, on one worker
pytestmark = pytest.mark.xdist_group("server")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The base address of a running server with the demo data, and an api key."""
    folder = tmp_path_factory.mktemp("server")
    db = f"sqlite:///{folder / 'stories.db'}"
    api_key = storycore("apps", "create", "e2e", db=db).stdout.strip().splitlines()[-1]
    with serving(db, folder, "--demo") as base:
        yield base, api_key


def test_the_server_answers_public_lists(server: tuple[str, str]) -> None:
    base, _ = server
    answer = httpx.get(f"{base}/v1/stories/browse/latest", params={"per_page": 5}, timeout=10)
    assert answer.status_code == 200
    assert len(answer.json()["content"]["stories"]) == 5
    assert 'rel="next"' in answer.headers["link"]


def test_the_server_gzips_a_large_answer_for_a_client_that_accepts_it(
    server: tuple[str, str],
) -> None:
    base, _ = server
    answer = httpx.get(f"{base}/v1/stories/browse/latest", headers={"Accept-Encoding": "gzip"})
    assert answer.headers["content-encoding"] == "gzip"
    assert len(answer.json()["content"]["stories"]) == 20  # httpx decoded it


def test_a_story_goes_from_creation_to_a_redirected_read(server: tuple[str, str]) -> None:
    base, api_key = server
    with httpx.Client(base_url=base, timeout=10) as client:
        grant = client.post(
            "/v1/auth", data={"api_key": api_key, "username": "alice", "password": "demo-password"}
        ).json()["content"]
        credentials = {"api_key": api_key, "username": "alice", "_token": grant["_token"]}
        created = client.post(
            "/v1/stories/alice/create",
            json={**credentials, "story": {"title": "End to end"}, "publish": True},
        )
        assert created.json()["content"]["slug"] == "end-to-end"
        moved = client.post(
            "/v1/stories/alice/end-to-end/editslug", data={**credentials, "slug": "e2e"}
        )
        assert moved.json()["content"]["slug"] == "e2e"
        old = client.get("/v1/stories/alice/end-to-end", params={"page": 1})
        assert (old.status_code, old.headers["location"]) == (301, "/v1/stories/alice/e2e?page=1")
        found = client.get("/v1/stories/search", params={"q": "end to end"}).json()
        assert [s["slug"] for s in found["content"]["stories"]] == ["e2e"]


def test_a_topic_holding_a_slash_answers_at_its_encoded_address(
    server: tuple[str, str],
) -> None:
    base, api_key = server
    with httpx.Client(base_url=base, timeout=10) as client:
        grant = client.post(
            "/v1/auth", data={"api_key": api_key, "username": "alice", "password": "demo-password"}
        ).json()["content"]
        credentials = {"api_key": api_key, "username": "alice", "_token": grant["_token"]}
        story = {"title": "Either or", "topics": ["either/or"]}
        client.post(
            "/v1/stories/alice/create", json={**credentials, "story": story, "publish": True}
        )
        listed = client.get("/v1/stories/browse/topic/either%2For").json()["content"]
        assert [s["title"] for s in listed["stories"]] == ["Either or"]
        page = client.get("/topics/either%2For")
        assert (page.status_code, "Either or" in page.text) == (200, True)


def test_the_server_data_lives_in_the_sqlite_file(server: tuple[str, str], tmp_path: Path) -> None:
    base, _ = server
    answer = httpx.get(f"{base}/v1/users/curator", timeout=10).json()
    assert answer == {
        "content": {
            "username": "curator",
            "name": "Mina Okafor",
            "bio": "Picks the front page.",
            "location": "Lagos",
            "website": "https://curator.example",
            "avatar": f"{base}/static/demo/avatar-curator.webp",
        },
        "code": 200,
    }


def test_the_demo_pictures_are_served_at_the_address_listened_on(
    server: tuple[str, str],
) -> None:
    """Without --web-url, serve --demo stores its pictures' addresses under the address it
    listens on, where they load."""
    base, _ = server
    story = httpx.get(
        f"{base}/v1/stories/alice/a-morning-in-the-harbour-fog-of-porto", timeout=10
    ).json()
    image = next(e for e in story["content"]["elements"] if e["type"] == "image")
    src = image["data"]["image"]["src"]
    assert src.startswith(f"{base}/static/demo/")
    answer = httpx.get(src, timeout=10)
    assert (answer.status_code, answer.headers["content-type"]) == (200, "image/webp")
    assert answer.content[:4] == b"RIFF"


@pytest.mark.parametrize(
    "path",
    [
        "/static/demo/../../pyproject.toml",
        "/static/demo/..%2F..%2Fpyproject.toml",
        "/static/demo/%2e%2e/%2e%2e/storycore/__init__.py",
        "/static/demo/..%5C..%5Cpyproject.toml",
        "/static/%2e%2e/%2e%2e/README.md",
    ],
)
def test_a_path_out_of_the_demo_folder_is_the_html_404(server: tuple[str, str], path: str) -> None:
    """Sent as written (no client tidies the dots away), over a real socket."""
    address = urlsplit(server[0])
    connection = http.client.HTTPConnection(address.hostname or "", address.port, timeout=10)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        body = answer.read()
    finally:
        connection.close()
    assert (answer.status, answer.getheader("content-type")) == (404, "text/html; charset=utf-8")
    assert b"There is no such file." in body


def test_serve_demo_names_its_site_when_no_name_is_given(server: tuple[str, str]) -> None:
    """Not by the address's host (``127.0.0.1:8000``): the demo's site has a name of its own."""
    page = httpx.get(f"{server[0]}/", timeout=10).text
    assert '<meta property="og:site_name" content="Harbour Notes">' in page


def test_serve_demo_with_a_web_url_and_a_site_name_keeps_both(tmp_path: Path) -> None:
    """The pictures are stored under the web address, and the name given names the site."""
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    given = ("--web-url", "https://stories.example", "--site-name", "Lisbon Ledger")
    with serving(db, tmp_path, "--demo", *given) as base:
        profile = httpx.get(f"{base}/v1/users/alice", timeout=10).json()["content"]
        page = httpx.get(f"{base}/", timeout=10).text
    assert profile["avatar"] == "https://stories.example/static/demo/avatar-alice.webp"
    assert '<meta property="og:site_name" content="Lisbon Ledger">' in page


def test_wrong_arguments_give_one_line_and_a_non_zero_exit() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "storycore.contrib.cli", "users", "create"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode != 0
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
