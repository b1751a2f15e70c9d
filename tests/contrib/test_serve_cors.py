"""``storycore serve`` answers browsers' origins and clients' hosts (docs/api.md#credentials,
docs/decisions.md#command-line).

``--cors-origin ORIGIN`` (repeatable) lists the origins whose pages may call the API: the
request's origin, when listed, is echoed with ``Vary: Origin``; without the flag any origin may
(``*``). Without ``--web-url``, addresses in answers are under the ``Host`` the client used.
Each holds in one process and in ``--workers 2``, which are handed the origins through
``STORYCORE_CORS_ORIGINS``.

The four servers are real processes on 127.0.0.1, started side by side once for the module.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from storycore import Service
from storycore.adapters import open_store
from tests.conftest import TEST_SETTINGS

pytestmark = pytest.mark.xdist_group("serve-cors")  # the servers start once, on one worker

STARTUP_SECONDS = 30
STOP_SECONDS = 10
CLI = [sys.executable, "-m", "storycore.contrib.cli"]
PAGES = "http://pages.example"
LIST = "/v1/stories/browse/latest"
WORKERS = ("1", "2")


class _Server:
    """``storycore serve --port 0 ARGS`` on a prepared SQLite file, started at once."""

    def __init__(self, folder: Path, *args: str) -> None:
        folder.mkdir()
        db = f"sqlite:///{folder / 'stories.db'}"
        with Service(open_store(db), TEST_SETTINGS) as service:
            service.accounts.create_user("writer")
            writer = service.accounts.as_user("writer")
            story = {"title": "Harbour lights"}
            service.stories.create("writer", story, viewer=writer, publish=True)
        self.errors = folder / "serve.err"
        kept = {k: v for k, v in os.environ.items() if not k.startswith("STORYCORE_")}
        with self.errors.open("wb") as stderr:
            self.process = subprocess.Popen(
                [*CLI, "--db", db, "serve", "--port", "0", *args],
                stdout=subprocess.PIPE,
                stderr=stderr,
                env=kept,
            )
        self._base = ""

    @property
    def base(self) -> str:
        """The address it says it listens on, once it does."""
        if not self._base:
            assert self.process.stdout is not None
            ready, _, _ = select.select([self.process.stdout], [], [], STARTUP_SECONDS)
            line = self.process.stdout.readline().decode() if ready else ""
            assert line.startswith("listening on http://127.0.0.1:"), (
                line or self.errors.read_text() or "serve said nothing"
            )
            self._base = line.removeprefix("listening on ").strip()
        return self._base

    def get(self, path: str, **headers: str) -> httpx.Response:
        return httpx.get(self.base + path, headers=headers, timeout=10)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=STOP_SECONDS)
        if self.process.stdout is not None:
            self.process.stdout.close()


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[tuple[str, str], _Server]]:
    """("listed" | "default", workers) -> a server allowing ``PAGES`` only, or any origin; no
    ``--web-url`` for either."""
    root = tmp_path_factory.mktemp("serve-cors")
    started: dict[tuple[str, str], _Server] = {}
    try:
        for workers in WORKERS:
            started["listed", workers] = _Server(
                root / f"listed-{workers}", "--workers", workers, "--cors-origin", PAGES
            )
            started["default", workers] = _Server(root / f"default-{workers}", "--workers", workers)
        yield started
    finally:
        for server in started.values():
            server.stop()


@pytest.mark.parametrize("workers", WORKERS)
def test_a_listed_origin_is_echoed_with_vary_origin(
    servers: dict[tuple[str, str], _Server], workers: str
) -> None:
    answer = servers["listed", workers].get(LIST, Origin=PAGES)
    assert answer.status_code == 200
    assert answer.headers["access-control-allow-origin"] == PAGES
    assert "Origin" in answer.headers["vary"]


@pytest.mark.parametrize("workers", WORKERS)
def test_an_origin_not_listed_gets_no_allow_origin(
    servers: dict[tuple[str, str], _Server], workers: str
) -> None:
    answer = servers["listed", workers].get(LIST, Origin="http://elsewhere.example")
    assert answer.status_code == 200
    assert "access-control-allow-origin" not in answer.headers


@pytest.mark.parametrize("workers", WORKERS)
def test_without_the_flag_any_origin_is_allowed(
    servers: dict[tuple[str, str], _Server], workers: str
) -> None:
    answer = servers["default", workers].get(LIST, Origin="http://elsewhere.example")
    assert answer.headers["access-control-allow-origin"] == "*"


@pytest.mark.parametrize("workers", WORKERS)
def test_without_web_url_permalinks_are_under_the_host_the_client_used(
    servers: dict[tuple[str, str], _Server], workers: str
) -> None:
    answer = servers["default", workers].get("/v1/stories/search?q=harbour", Host="news.example")
    [item] = answer.json()["content"]["stories"]
    assert item["permalink"].startswith("http://news.example/writer/")


@pytest.mark.parametrize("workers", WORKERS)
def test_without_web_url_oembed_names_the_host_the_client_used(
    servers: dict[tuple[str, str], _Server], workers: str
) -> None:
    server = servers["default", workers]
    permalink = "http://news.example/writer/harbour-lights"
    answer = server.get(f"/v1/oembed?url={quote(permalink, safe='')}", Host="news.example")
    assert answer.status_code == 200, answer.text
    assert "http://news.example/writer/harbour-lights" in answer.json()["html"]
    assert "127.0.0.1" not in answer.json()["html"]


def test_an_origin_that_is_no_origin_is_a_usage_error(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    done = subprocess.run(
        [*CLI, "--db", db, "serve", "--port", "0", "--cors-origin", "not-an-origin"],
        capture_output=True,
        text=True,
        timeout=STARTUP_SECONDS,
        check=False,
    )
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert "--cors-origin" in line
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
