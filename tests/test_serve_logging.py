"""``serve --log-level`` (decisions section 21): at ``info`` each request gets an access line,
from one process and from workers; at the default, ``warning``, requests log nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from ._serve import STARTUP_SECONDS

LIST = "/v1/stories/browse/latest"


def _served_output(tmp_path: Path, *args: str) -> str:
    """Everything ``serve`` printed on standard output around one request."""
    command = [sys.executable, "-m", "storycore.contrib.cli"]
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    process = subprocess.Popen(
        [*command, "--db", db, "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith("listening on "), first
        answer = httpx.get(first.removeprefix("listening on ").strip() + LIST, timeout=10)
        assert answer.status_code == 200
    finally:
        process.terminate()
        rest, _ = process.communicate(timeout=STARTUP_SECONDS)
    return first + rest


@pytest.mark.parametrize("workers", ["1", "2"])
def test_at_info_each_request_has_an_access_line(tmp_path: Path, workers: str) -> None:
    printed = _served_output(tmp_path, "--workers", workers, "--log-level", "info")
    assert f'"GET {LIST} HTTP/1.1" 200' in printed


def test_by_default_requests_log_nothing(tmp_path: Path) -> None:
    printed = _served_output(tmp_path, "--workers", "1")
    assert printed.splitlines()[1:] == []
