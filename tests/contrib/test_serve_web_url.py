"""``serve --web-url`` and ``--site-name`` (docs/decisions.md): a web address that is not an
absolute http(s) address with a host, without query, fragment or credentials, is refused with
one line and exit status 2, from the option or from ``STORYCORE_WEB_URL``; the site's name
(``--site-name``, ``STORYCORE_SITE_NAME``) names it in pages and feeds, from one process and
from workers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests._serve import serving

CLI = [sys.executable, "-m", "storycore.contrib.cli"]
TIMEOUT = 60


def _serve_once(tmp_path: Path, *args: str, **environment: str) -> subprocess.CompletedProcess[str]:
    """``storycore serve ARGS`` run to completion: it must stop by itself."""
    return subprocess.run(
        [*CLI, "--db", f"sqlite:///{tmp_path / 'stories.db'}", "serve", "--port", "0", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env={**os.environ, **environment},
    )


@pytest.mark.parametrize(
    "web_url",
    ["notaurl", "javascript:alert(1)", "https://example.org/?x=1", "https://u:secret@example.org"],
)
def test_a_web_url_that_is_not_an_absolute_http_address_is_a_usage_error(
    tmp_path: Path, web_url: str
) -> None:
    done = _serve_once(tmp_path, "--web-url", web_url)
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert "--web-url" in line
    assert "secret" not in line
    assert not (tmp_path / "stories.db").exists()  # refused before the store is opened


def test_a_storycore_web_url_that_is_not_an_absolute_http_address_is_a_usage_error(
    tmp_path: Path,
) -> None:
    done = _serve_once(tmp_path, STORYCORE_WEB_URL="notaurl")
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert "STORYCORE_WEB_URL" in line


def test_a_blank_site_name_is_a_usage_error(tmp_path: Path) -> None:
    done = _serve_once(tmp_path, "--site-name", " ")
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert "--site-name" in line


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_site_name_and_web_url_name_the_site_in_pages_and_feeds(
    tmp_path: Path, workers: str
) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    with serving(
        db,
        tmp_path,
        *("--demo", "--workers", workers),
        *("--web-url", "https://news.example/stories/", "--site-name", "Harbour News"),
    ) as base:
        feed = httpx.get(f"{base}/feed.atom", timeout=10)
        latest = httpx.get(f"{base}/v1/stories/browse/latest", timeout=10).json()
        first = latest["content"]["stories"][0]
        page = httpx.get(f"{base}/{first['author']['username']}/{first['slug']}", timeout=10)
    assert "<title>Latest stories on Harbour News</title>" in feed.text
    assert "<id>https://news.example/stories/feed.atom</id>" in feed.text  # web_url, kept
    assert '<meta property="og:site_name" content="Harbour News">' in page.text
