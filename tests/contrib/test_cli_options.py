"""The command's options (docs/decisions.md): the global ones (``--db``) are taken before the
command or after it, the one after it winning; every option and argument of every command
says what it is in ``--help``."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib._commands import parser as command_parser
from storycore.contrib.cli import main


def _parsers(
    parser: argparse.ArgumentParser, name: str = "storycore"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """``parser`` and every command's parser under it, each with its command line."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                yield from _parsers(sub, f"{name} {command}")


def _usernames(db: str) -> list[str]:
    with Service(open_store(db)) as service:
        return [user.username for user in service.accounts.list(page=1, per_page=10).items]


def test_db_is_taken_after_a_command(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'after.db'}"
    assert main(["users", "create", "bob", "--db", db, "--password", "bob-password"]) == 0
    assert _usernames(db) == ["bob"]


def test_db_is_taken_between_a_command_and_its_action(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'between.db'}"
    assert main(["users", "--db", db, "create", "bob", "--password", "bob-password"]) == 0
    assert _usernames(db) == ["bob"]


def test_db_after_the_command_wins_over_db_before_it(tmp_path: Path) -> None:
    before, after = (f"sqlite:///{tmp_path / name}" for name in ("before.db", "after.db"))
    assert main(["--db", before, "demo", "--db", after]) == 0
    assert not (tmp_path / "before.db").exists()
    assert _usernames(after) != []


@pytest.mark.parametrize(
    "argv", [["--db", "sqlite:///given.db", "reindex"], ["reindex"]], ids=["before", "none"]
)
def test_db_before_the_command_or_the_default_holds_when_none_follows_it(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STORYCORE_DB", "sqlite:///from-environment.db")
    expected = "sqlite:///given.db" if "--db" in argv else "sqlite:///from-environment.db"
    assert command_parser().parse_args(argv).db == expected


def test_serve_takes_db_after_the_command(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'served.db'}"
    command = [sys.executable, "-m", "storycore.contrib.cli", "serve", "--db", db, "--port", "0"]
    with subprocess.Popen(
        [*command, "--workers", "1", "--demo"], stdout=subprocess.PIPE, text=True
    ) as process:
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert line.startswith("listening on "), line
            base = line.removeprefix("listening on ").strip()
            answer = httpx.get(f"{base}/v1/stories/browse/latest", timeout=10)
        finally:
            process.terminate()
    assert answer.json()["content"]["stories"] != []  # the demo, loaded into the file --db names
    assert _usernames(db) != []


def _helpless(parser: argparse.ArgumentParser) -> Iterator[str]:
    """The options, arguments and commands of ``parser`` that have no help text."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if not (choice.help or "").strip():
                    yield choice.dest
        if not isinstance(action, argparse._HelpAction) and not (action.help or "").strip():
            yield "/".join(action.option_strings) or action.dest


def test_every_option_argument_and_command_of_every_command_has_help() -> None:
    missing = [
        f"{name}: {what}"
        for name, parser in _parsers(command_parser())
        for what in _helpless(parser)
    ]
    assert missing == []
