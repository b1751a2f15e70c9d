"""``serve --log-level`` and ``--log-format`` (docs/decisions.md#command-line): at ``info`` each
request
gets an access line, from one process and from workers; at the default, ``warning``, requests
log nothing. ``--log-format json`` makes every log line, uvicorn's and storycore's own, one JSON
object; the default, ``text``, is uvicorn's lines. No line holds a secret (docs/decisions.md):
the value of ``api_key``, ``_token`` or ``password``, in any case or percent-encoding, is
written ``***``, and credentials in headers are never written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests._serve import STARTUP_SECONDS

LIST = "/v1/stories/browse/latest"
CLI = [sys.executable, "-m", "storycore.contrib.cli"]
FACTORY = "storycore.contrib.asgi:from_environment"


def _get(address: str) -> None:
    answer = httpx.get(address, timeout=10)
    assert answer.status_code < 500


def _list(base: str) -> None:
    answer = httpx.get(base + LIST, timeout=10)
    assert answer.status_code == 200


def _served_output(
    tmp_path: Path, *args: str, requests: Callable[[str], None] = _list
) -> tuple[str, str]:
    """Everything ``serve`` printed on standard output and standard error around
    ``requests`` (one list, unless told), sent to the server's base address."""
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
        requests(first.removeprefix("listening on ").strip())
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


#: A value for each secret, unlike anything else a log holds.
SECRETS = {
    "api_key": "kEy-Val0e-9f3a",
    "_token": "t0ken-VaLue-51c",
    "password": "pass-W0rd-Value-7e2",
    "api_key_upper": "uPPer-kEy-Val0e-2b",
    "token_mixed": "mIxed-t0ken-Val-8d",
    "api_key_encoded": "enc0ded-kEy-Val-4a",
    "authorization": "bearer-Val0e-6c1",
    "x_api_key": "header-kEy-Val0e-0e",
    "verify": "verify-Val0e-3f9",
}


def _requests_with_secrets(base: str) -> None:
    """Requests carrying every secret as a client may send it: parameters in the query (any
    case, a name percent-encoded), a form body, and the headers that hold credentials."""
    query = (
        f"api_key={SECRETS['api_key']}&_token={SECRETS['_token']}"
        f"&password={SECRETS['password']}&API_KEY={SECRETS['api_key_upper']}"
        f"&_Token={SECRETS['token_mixed']}&api%5Fkey={SECRETS['api_key_encoded']}"
    )
    with httpx.Client(base_url=base, timeout=10) as client:
        client.get(f"{LIST}?{query}")
        client.post(
            "/v1/auth",
            data={"api_key": SECRETS["api_key"], "username": "x", "password": SECRETS["password"]},
        )
        client.get(
            LIST,
            headers={
                "Authorization": f"Bearer {SECRETS['authorization']}",
                "X-Api-Key": SECRETS["x_api_key"],
                "X-Verify-Credentials-Authorization": SECRETS["verify"],
            },
        )


@pytest.mark.parametrize("log_format", ["text", "json"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_no_log_line_holds_a_secret_sent_in_a_query_a_form_or_a_header(
    tmp_path: Path, workers: str, log_format: str
) -> None:
    printed, errors = _served_output(
        tmp_path,
        *("--workers", workers, "--log-level", "debug", "--log-format", log_format),
        requests=_requests_with_secrets,
    )
    assert f"GET {LIST}?" in printed, printed  # the requests were logged
    for name, value in SECRETS.items():
        assert value not in printed + errors, name


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_access_line_writes_each_secret_parameter_as_stars(
    tmp_path: Path, workers: str
) -> None:
    printed, _ = _served_output(
        tmp_path, "--workers", workers, "--log-level", "info", requests=_requests_with_secrets
    )
    query = "api_key=***&_token=***&password=***&API_KEY=***&_Token=***&api%5Fkey=***"
    assert f'"GET {LIST}?{query} HTTP/1.1"' in printed, printed


def test_in_json_the_access_line_s_path_writes_each_secret_parameter_as_stars(
    tmp_path: Path,
) -> None:
    printed, _ = _served_output(
        tmp_path,
        *("--workers", "1", "--log-level", "info", "--log-format", "json"),
        requests=lambda base: _get(f"{base}{LIST}?_token={SECRETS['_token']}"),
    )
    [access] = [
        o for o in _json_lines(printed.partition("\n")[2]) if o["logger"] == "uvicorn.access"
    ]
    assert access["path"] == f"{LIST}?_token=***"


def test_uvicorn_serving_the_factory_writes_no_secret(tmp_path: Path) -> None:
    """``uvicorn --factory storycore.contrib.asgi:from_environment``: uvicorn's own logging,
    with the filter the factory installs."""
    command = [sys.executable, "-m", "uvicorn", "--factory", FACTORY, "--port", "0"]
    environment = {**os.environ, "STORYCORE_DB": f"sqlite:///{tmp_path / 'stories.db'}"}
    process = subprocess.Popen(
        [*command, "--log-level", "info"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    try:
        assert process.stderr is not None
        line = ""
        while "Uvicorn running on " not in line:
            line = process.stderr.readline()
            assert line, "uvicorn exited"
        base = line.partition("Uvicorn running on ")[2].split()[0]
        _requests_with_secrets(base)
    finally:
        process.terminate()
        printed, errors = process.communicate(timeout=STARTUP_SECONDS)
    assert f"GET {LIST}?api_key=***&" in printed, printed
    for name, value in SECRETS.items():
        assert value not in printed + errors, name
