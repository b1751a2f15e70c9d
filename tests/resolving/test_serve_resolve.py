"""``storycore serve --resolve online --resolve-allow-host HOST`` end to end
(docs/decisions.md#command-line, docs/resolver.md): a story created over HTTP stores what its
permalinks point to, in one process and in
``--workers`` processes, which take the options from the environment."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests._serve import serving, storycore
from tests.resolving.conftest import FakeSite


def _served(tmp_path: Path, elements: list[str], *options: str) -> dict[str, Any]:
    """The story ``storycore serve OPTIONS`` stores when alice creates one of ``elements`` over
    HTTP, as a read answers it."""
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    storycore("users", "create", "alice", "--password", "alice-password", db=db)
    api_key = storycore("apps", "create", "e2e", db=db).stdout.strip().splitlines()[-1]
    with serving(db, tmp_path, *options) as base, httpx.Client(base_url=base, timeout=30) as client:
        grant = client.post(
            "/v1/auth", data={"api_key": api_key, "username": "alice", "password": "alice-password"}
        ).json()["content"]
        credentials = {"api_key": api_key, "username": "alice", "_token": grant["_token"]}
        created = client.post(
            "/v1/stories/alice/create",
            json={**credentials, "story": {"title": "Served", "elements": elements}},
        )
        assert created.status_code == 200, created.text
        slug = created.json()["content"]["slug"]
        read = client.get(f"/v1/stories/alice/{slug}", params=credentials)
        return dict(read.json()["content"])


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_story_created_over_http_stores_resolved_content(
    site: FakeSite, tmp_path: Path, workers: str
) -> None:
    article = site.page("/a", '<meta property="og:title" content="Resolved over HTTP">')
    options = ["--resolve", "online", "--resolve-allow-host", "127.0.0.1", "--workers", workers]
    story = _served(tmp_path, [article], *options)
    assert story["elements"][0]["data"]["link"]["title"] == "Resolved over HTTP"
    assert site.requests == ["/a"]


def test_serve_without_resolve_stays_offline(site: FakeSite, tmp_path: Path) -> None:
    article = site.page("/a", '<meta property="og:title" content="Not fetched">')
    story = _served(tmp_path, [article], "--resolve-allow-host", "127.0.0.1")
    assert story["elements"][0]["data"]["link"]["title"] == ""
    assert site.requests == []


@pytest.mark.parametrize(
    "arguments",
    [
        ["--resolve", "sometimes"],
        ["--resolve-allow-host", "http://127.0.0.1/"],
        ["--resolve-allow-host", "a,b"],
        ["--resolve-allow-host", " "],
    ],
)
def test_a_wrong_resolve_option_is_a_usage_error(arguments: list[str], tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    command = [sys.executable, "-m", "storycore.contrib.cli", "--db", db, "serve", *arguments]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("usage:") or "error:" in done.stderr
    assert "Traceback" not in done.stderr
