"""No input makes the command print a traceback (docs/decisions.md#command-line): a port out of
range, a
bad storage URL, a path that cannot be opened, an address already in use each give one line
on standard error and a non-zero exit. An output pipe its reader closed (``storycore export |
head -1``) ends the command quietly: nothing on standard error, the status 141 a shell gives a
command stopped by ``SIGPIPE`` (docs/decisions.md#command-line). Run as real
processes, with the buffering a terminal user has.
"""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from storycore.contrib import cli
from storycore.contrib.cli import main

# the demo store is made once, on one worker
pytestmark = pytest.mark.xdist_group("cli-errors")

TIMEOUT = 60
#: A shell's status for a command that ``SIGPIPE`` stopped: 128 + 13.
CLOSED_PIPE = 141
PIPE_BUFFER = 64 * 1024  # Linux's default; the export below is several times larger


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "storycore.contrib.cli", *args]


def _environment(unbuffered: bool) -> dict[str, str]:
    """The environment of the child: Python's output buffered (as on a user's machine), or
    unbuffered (as under some runners), where a closed pipe shows up at another moment.
    """
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        environment["PYTHONUNBUFFERED"] = "1"
    return environment


def _assert_one_line(stderr: str) -> None:
    assert "Traceback" not in stderr
    assert "Exception ignored" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(("storycore: ", "storycore serve: ")), stderr


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A store whose export overflows a pipe's buffer several times."""
    db = f"sqlite:///{tmp_path_factory.mktemp('cli') / 'demo.db'}"
    assert main(["--db", db, "demo"]) == 0
    return db


@pytest.mark.parametrize("port", ["99999", "65536", "-1"])
def test_a_port_out_of_range_is_one_line(port: str, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    done = subprocess.run(
        _command("--db", db, "serve", "--port", port),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=_environment(unbuffered=False),
        check=False,
    )
    assert done.returncode != 0
    _assert_one_line(done.stderr)
    assert "port" in done.stderr


def _assert_quiet(stderr: bytes, status: int) -> None:
    """A command whose reader closed its output: nothing said, the status of ``SIGPIPE``."""
    assert stderr == b""
    assert status == CLOSED_PIPE


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
def test_an_export_into_a_pipe_closed_after_ten_bytes_ends_quietly(
    demo_db: str, unbuffered: bool
) -> None:
    process = subprocess.Popen(
        _command("--db", demo_db, "export"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_environment(unbuffered),
    )
    assert process.stdout is not None
    assert process.stdout.read(10) == b'{"kind":"u'
    process.stdout.close()
    _, stderr = process.communicate(timeout=TIMEOUT)
    _assert_quiet(stderr, process.returncode)


def test_export_piped_into_head_prints_the_first_line_and_nothing_else(demo_db: str) -> None:
    export = shlex.join(_command("--db", demo_db, "export"))
    done = subprocess.run(
        ["bash", "-c", f'{export} | head -1; echo "${{PIPESTATUS[0]}}" >&2'],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=_environment(unbuffered=False),
        check=False,
    )
    [line] = done.stdout.splitlines()
    assert line.startswith('{"kind":"user"')
    assert done.stderr == f"{CLOSED_PIPE}\n"  # export's status, and not a word from it


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize(
    "args",
    [["export"], ["apps", "create", "Reader"], ["demo"]],
    ids=["export", "apps-create", "demo"],
)
def test_output_into_a_pipe_closed_before_it_is_written_ends_quietly(
    tmp_path: Path, args: list[str], unbuffered: bool
) -> None:
    db = f"sqlite:///{tmp_path / 'small.db'}"
    assert main(["--db", db, "users", "create", "alice", "--password", "alice-password"]) == 0
    process = subprocess.Popen(
        _command("--db", db, *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_environment(unbuffered),
    )
    assert process.stdout is not None
    process.stdout.close()
    _, stderr = process.communicate(timeout=TIMEOUT)
    _assert_quiet(stderr, process.returncode)


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
def test_help_into_a_closed_pipe_prints_no_traceback(unbuffered: bool) -> None:
    process = subprocess.Popen(
        _command("--help"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_environment(unbuffered),
    )
    assert process.stdout is not None
    process.stdout.close()
    _, stderr = process.communicate(timeout=TIMEOUT)
    # argparse ignores a failed write of the help (exit 0); a failed flush ends quietly
    if stderr or process.returncode:
        _assert_quiet(stderr, process.returncode)


def test_the_export_is_larger_than_a_pipe_buffer(demo_db: str, tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl"
    assert main(["--db", demo_db, "export", str(path)]) == 0
    assert path.stat().st_size > 2 * PIPE_BUFFER


@pytest.mark.parametrize(
    "args",
    [
        ["--db", "nosuch://x", "users", "create", "alice", "--password", "alice-password"],
        ["import", "{dir}/missing.jsonl"],
        ["export", "{dir}/no/such/folder/export.jsonl"],
    ],
    ids=["bad-storage-url", "missing-import-file", "unwritable-export-path"],
)
def test_bad_input_from_the_command_line_is_one_line(tmp_path: Path, args: list[str]) -> None:
    filled = [arg.replace("{dir}", str(tmp_path)) for arg in args]
    if "--db" not in filled:
        filled = ["--db", f"sqlite:///{tmp_path / 'store.db'}", *filled]
    done = subprocess.run(
        _command(*filled),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=_environment(unbuffered=False),
        check=False,
    )
    assert done.returncode != 0
    _assert_one_line(done.stderr)


def test_a_bug_is_one_line_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("a bug\nwith a second line")

    monkeypatch.setattr(cli, "_run", broken)
    assert main(["--db", f"sqlite:///{tmp_path / 'store.db'}", "demo"]) == 1
    assert capsys.readouterr().err == "storycore: internal error (RuntimeError): a bug\n"


@pytest.mark.parametrize("password", ["", "short", "tab\tin-it"])
def test_a_password_that_breaks_the_rule_is_one_line_and_makes_no_user(
    password: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'users.db'}"
    assert main(["--db", db, "users", "create", "carol", "--password", password]) == 1
    error = capsys.readouterr().err
    _assert_one_line(error)
    assert "password" in error
    assert main(["--db", db, "users", "create", "carol", "--password", "long-enough"]) == 0


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_an_address_already_in_use_is_one_line_naming_it(host: str, tmp_path: Path) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        taken = socket.socket(family, socket.SOCK_STREAM)
        taken.bind((host, 0))
    except OSError:
        pytest.skip(f"no {host} here")
    with taken:
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            _command("--db", f"sqlite:///{tmp_path / 's.db'}", "serve", "--host", host, "--port",
                     str(port)),
            capture_output=True, text=True, timeout=TIMEOUT, check=False,
        )  # fmt: skip
    shown = f"[{host}]" if ":" in host else host
    assert done.returncode == 1
    assert done.stderr == f"storycore: cannot listen on {shown}:{port}: address already in use\n"
