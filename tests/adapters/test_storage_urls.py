"""SQLite storage URLs that cannot be opened: a clear ``ConfigurationError``, never a traceback.

docs/decisions.md#command-line lists the URL forms, docs/decisions.md#command-line says that a file
that is not a database or
a path that cannot be opened gives one line and a non-zero exit, not a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from storycore.adapters import open_store
from storycore.errors import ConfigurationError

pytestmark = pytest.mark.sqlite

NOT_A_DATABASE = b"root:x:0:0:root:/root:/bin/bash\n" * 40


@pytest.fixture
def not_a_database(tmp_path: Path) -> Path:
    """A file of text, as ``/etc/passwd`` is."""
    path = tmp_path / "passwd"
    path.write_bytes(NOT_A_DATABASE)
    return path


def _unopenable(tmp_path: Path, case: str) -> str:
    """The storage URL of each kind of path that is no database file."""
    if case == "not a database":
        path = tmp_path / "passwd"
        path.write_bytes(NOT_A_DATABASE)
        return f"sqlite:///{path}"
    if case == "missing directory":
        return f"sqlite:///{tmp_path / 'no' / 'such' / 'dir' / 'x.db'}"
    return f"sqlite:///{tmp_path}"  # a directory


UNOPENABLE = ["not a database", "missing directory", "directory"]


@pytest.mark.parametrize("case", UNOPENABLE)
def test_a_path_that_is_no_database_file_is_a_configuration_error_naming_it(
    tmp_path: Path, case: str
) -> None:
    url = _unopenable(tmp_path, case)
    with pytest.raises(ConfigurationError) as raised:
        open_store(url)
    message = str(raised.value)
    assert url[len("sqlite:///") :] in message
    assert "\n" not in message


def test_a_file_that_is_not_a_database_is_left_as_it_was(not_a_database: Path) -> None:
    with pytest.raises(ConfigurationError, match="not a database"):
        open_store(f"sqlite:///{not_a_database}")
    assert not_a_database.read_bytes() == NOT_A_DATABASE
    assert sorted(p.name for p in not_a_database.parent.iterdir()) == ["passwd"]


def test_a_missing_directory_is_named_as_missing(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="does not exist"):
        open_store(f"sqlite:///{tmp_path / 'no' / 'x.db'}")


def test_a_directory_is_named_as_a_directory(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="is a directory"):
        open_store(f"sqlite:///{tmp_path}")


def test_a_pipe_is_named_as_no_regular_file(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(ConfigurationError, match="not a regular file"):
        open_store(f"sqlite:///{pipe}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


@pytest.mark.parametrize("url", ["sqlite:/rel.db", "sqlite:rel.db", "sqlite:", "sqlite:/"])
def test_a_sqlite_url_with_too_few_slashes_says_how_to_write_one(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigurationError, match=r"sqlite:///relative\.db") as raised:
        open_store(url)
    assert repr(url) in str(raised.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("url", ["sqlite:///x.db?mode=ro", "sqlite:///x.db#part", "sqlite://?x=1"])
def test_a_sqlite_url_with_a_query_or_fragment_is_refused_and_creates_no_file(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigurationError, match="no query string"):
        open_store(url)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("case", UNOPENABLE)
def test_the_command_line_says_one_line_without_a_traceback(tmp_path: Path, case: str) -> None:
    url = _unopenable(tmp_path, case)
    done = subprocess.run(
        [sys.executable, "-m", "storycore.contrib.cli", "--db", url, "export"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert url[len("sqlite:///") :] in done.stderr
    assert done.stdout == ""
