"""The command line of docs/decisions.md#command-line: ``storycore --version``,
``python -m storycore``, a bare ``storycore``, which prints its help, and ``demo`` run twice."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import storycore
from storycore.contrib.cli import main


def _module(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "storycore", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_version_prints_the_installed_version() -> None:
    done = _module("--version")
    assert (done.returncode, done.stdout) == (0, f"storycore {version('storycore')}\n")
    assert storycore.__version__ == version("storycore")


def test_python_dash_m_storycore_runs_the_command() -> None:
    done = _module("--db", "sqlite://", "users", "create", "alice", "--password", "s3cret-pass")
    assert (done.returncode, done.stdout, done.stderr) == (0, "created user alice\n", "")


def test_a_bare_storycore_prints_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    printed = capsys.readouterr()
    assert printed.out.startswith("usage: storycore")
    assert all(command in printed.out for command in ("serve", "users", "import", "export"))
    assert printed.err == ""


def test_demo_on_a_store_that_holds_the_demo_data_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'demo.db'}"
    assert main(["--db", db, "demo"]) == 0
    assert main(["--db", db, "export", str(tmp_path / "first.jsonl")]) == 0
    capsys.readouterr()
    assert main(["--db", db, "demo"]) == 0
    assert capsys.readouterr().out == "loaded 0 demo stories\n"
    assert main(["--db", db, "export", str(tmp_path / "second.jsonl")]) == 0
    assert (tmp_path / "second.jsonl").read_bytes() == (tmp_path / "first.jsonl").read_bytes()


def test_the_command_starts_without_the_http_client_or_the_page_parser() -> None:
    """httpx and selectolax are loaded by the commands that fetch (``serve --resolve online``,
    delegated creation), not by every command: they cost a tenth of a second a start."""
    code = (
        "import sys, storycore.contrib.cli\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'httpx', 'selectolax'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
