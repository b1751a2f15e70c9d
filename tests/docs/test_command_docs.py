"""The README cannot drift from the command line: every command is in its list of commands."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from storycore.contrib._commands import parser as command_parser

ROOT = Path(__file__).resolve().parents[2]


def _commands() -> list[str]:
    """The names of the ``storycore`` commands, as its parser knows them."""
    parser = command_parser()
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sorted(found[0].choices)


def _documented() -> set[str]:
    """The commands the README's command-line section lists."""
    section = (ROOT / "README.md").read_text().split("## The command line", 1)[1]
    block = section.split("```", 2)[1]
    return set(re.findall(r"^storycore \[--db URL\] ([\w-]+)", block, flags=re.MULTILINE))


def test_every_command_is_listed_in_the_readme() -> None:
    assert [c for c in _commands() if c not in _documented()] == []
