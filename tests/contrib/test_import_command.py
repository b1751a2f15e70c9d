"""``storycore import`` on the command line (docs/decisions.md#command-line,
docs/decisions.md#export-and-import): one line naming the
bad line, nothing imported, ``--replace``, the byte-for-byte round trip; and its progress,
shown on a terminal only.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from storycore.contrib import _progress
from storycore.contrib.cli import main
from tests._exports import edited, line_of

# -- the command line -------------------------------------------------------------------------


def _database(tmp_path: Path, name: str) -> str:
    return f"sqlite:///{tmp_path / name}"


def _export_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, Path]:
    db = _database(tmp_path, "source.db")
    assert main(["--db", db, "demo"]) == 0
    path = tmp_path / "export.jsonl"
    assert main(["--db", db, "export", str(path)]) == 0
    capsys.readouterr()
    return db, path


def test_the_command_line_names_the_bad_line_and_imports_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, path = _export_file(tmp_path, capsys)
    lines = path.read_bytes().splitlines(keepends=True)
    number = line_of(lines, "user", lambda record: record["username"] == "alice")
    path.write_bytes(b"".join(edited(lines, number, _bad_username)))
    copy = _database(tmp_path, "copy.db")
    assert main(["--db", copy, "import", str(path)]) == 1
    error = capsys.readouterr().err
    assert re.fullmatch(rf"storycore: line {number}: user\.username: [^\n]+\n", error), error
    empty = tmp_path / "empty.jsonl"
    assert main(["--db", copy, "export", str(empty)]) == 0
    assert empty.read_bytes() == b""


def _bad_username(item: dict[str, Any]) -> None:
    item["record"]["username"] = "Bad/Name"


def test_the_command_line_refuses_an_existing_id_and_replaces_with_replace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, path = _export_file(tmp_path, capsys)
    assert main(["--db", db, "import", str(path)]) == 1
    error = capsys.readouterr().err
    assert re.fullmatch(r"storycore: line 1: user\.id: [^\n]+\n", error)
    assert "--replace" in error  # the option that would import it
    assert main(["--db", db, "import", "--replace", str(path)]) == 0
    again = tmp_path / "again.jsonl"
    assert main(["--db", db, "export", str(again)]) == 0
    assert again.read_bytes() == path.read_bytes()


def test_the_command_line_round_trip_gives_the_same_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, path = _export_file(tmp_path, capsys)
    copy = _database(tmp_path, "copy.db")
    assert main(["--db", copy, "import", str(path)]) == 0
    again = tmp_path / "again.jsonl"
    assert main(["--db", copy, "export", str(again)]) == 0
    assert again.read_bytes() == path.read_bytes()


def test_an_import_of_dash_reads_standard_input_from_a_pipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, path = _export_file(tmp_path, capsys)
    copy = _database(tmp_path, "copy.db")
    command = [sys.executable, "-m", "storycore.contrib.cli", "--db", copy, "import", "-"]
    # ``input`` reaches the command through a pipe, as ``export | import -`` does
    piped = subprocess.run(
        command, input=path.read_bytes(), capture_output=True, check=False, timeout=120
    )
    assert piped.returncode == 0, piped.stderr.decode()
    again = tmp_path / "again.jsonl"
    assert main(["--db", copy, "export", str(again)]) == 0
    assert again.read_bytes() == path.read_bytes()


# -- progress on a terminal -------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_shows_the_total_and_the_time_left() -> None:
    terminal = _Terminal()
    meter = _progress.Meter(terminal)
    show = _progress.import_progress(meter, io.BytesIO(), 0)
    show("imported", 1, 4)
    show("imported", 2, 4)
    meter.end()
    last = terminal.getvalue().split("\r")[-1]
    assert last.startswith("importing:")
    assert "2 of 4 records" in last
    assert re.search(r"\[\d\d:\d\d<\d\d:\d\d left\]", last), last  # elapsed<left
    assert terminal.getvalue().endswith("\n")  # the next line starts on a line of its own


def test_progress_is_silent_off_a_terminal() -> None:
    stream = io.StringIO()
    meter = _progress.Meter(stream)
    meter.show("importing", 2, 4, " records")
    meter.end()
    assert stream.getvalue() == ""
