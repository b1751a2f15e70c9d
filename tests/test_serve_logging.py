"""``serve --log-level`` and ``--log-format`` (decisions section 21): at ``info`` each request
gets an access line, from one process and from workers; at the default, ``warning``, requests
log nothing. ``--log-format json`` makes every log line, uvicorn's and storycore's own, one JSON
object; the default, ``text``, is uvicorn's lines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from ._serve import STARTUP_SECONDS

LIST = "/v1/stories/browse/latest"
CLI = [sys.executable, "-m", "storycore.contrib.cli"]


def _served_output(tmp_path: Path, *args: str) -> tuple[str, str]:
    """Everything ``serve`` printed on standard output and standard error around one request."""
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    process = subprocess.Popen(
        [*CLI, "--db", db, "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
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
        rest, errors = process.communicate(timeout=STARTUP_SECONDS)
    return first + rest, errors


def _json_lines(text: str) -> list[dict[str, Any]]:
    """Each line of ``text`` as the JSON object it must be."""
    objects = [json.loads(line) for line in text.splitlines()]
    assert all(isinstance(o, dict) for o in objects), objects
    return objects


@pytest.mark.parametrize("workers", ["1", "2"])
def test_at_info_each_request_has_an_access_line(tmp_path: Path, workers: str) -> None:
    printed, _ = _served_output(tmp_path, "--workers", workers, "--log-level", "info")
    assert f'"GET {LIST} HTTP/1.1" 200' in printed


def test_by_default_requests_log_nothing(tmp_path: Path) -> None:
    printed, _ = _served_output(tmp_path, "--workers", "1")
    assert printed.splitlines()[1:] == []


@pytest.mark.parametrize("workers", ["1", "2"])
def test_in_json_the_access_line_is_an_object_with_the_request(
    tmp_path: Path, workers: str
) -> None:
    printed, _ = _served_output(
        tmp_path, "--workers", workers, "--log-level", "info", "--log-format", "json"
    )
    logged = _json_lines(printed.partition("\n")[2])
    [access] = [o for o in logged if o["logger"] == "uvicorn.access"]
    assert (access["method"], access["path"], access["status"]) == ("GET", LIST, 200)
    assert access["level"] == "INFO"
    assert access["client"].startswith("127.0.0.1:")
    assert f"GET {LIST}" in access["message"]
    assert access["timestamp"]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_in_json_every_log_line_is_an_object(tmp_path: Path, workers: str) -> None:
    printed, errors = _served_output(
        tmp_path, "--workers", workers, "--log-level", "info", "--log-format", "json"
    )
    logged = _json_lines(printed.partition("\n")[2]) + _json_lines(errors)
    assert {o["logger"] for o in logged} >= {"uvicorn.access", "uvicorn.error"}
    for line in logged:
        assert {"timestamp", "level", "logger", "message"} <= line.keys()
        assert "color_message" not in line


def test_by_default_the_access_line_is_text(tmp_path: Path) -> None:
    printed, _ = _served_output(tmp_path, "--workers", "1", "--log-level", "info")
    [access] = printed.splitlines()[1:]
    assert access.startswith("INFO:")
    with pytest.raises(json.JSONDecodeError):
        json.loads(access)


def test_in_json_storycore_s_own_loggers_write_objects_and_a_traceback_stays_on_its_line() -> None:
    script = (
        "import logging\n"
        "from storycore.contrib.serving import configure_logging\n"
        "configure_logging('info', 'json')\n"
        "try:\n    1 / 0\n"
        "except ZeroDivisionError:\n"
        "    logging.getLogger('storycore.views').exception('views of %s dropped', 'x')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True
    )
    [line] = _json_lines(done.stderr)
    assert (line["logger"], line["level"], line["message"]) == (
        "storycore.views",
        "ERROR",
        "views of x dropped",
    )
    assert "ZeroDivisionError" in line["exc_info"]


def test_a_log_format_that_is_not_offered_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [*CLI, "--db", f"sqlite:///{tmp_path / 's.db'}", "serve", "--log-format", "xml"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert "--log-format" in line
