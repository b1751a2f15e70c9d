"""The README cannot drift: its example is the example file, and it runs as written."""

from __future__ import annotations

import re
import runpy
import tomllib
from pathlib import Path

import pytest

from tests._markdown import code_blocks

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_example_is_the_quickstart_file() -> None:
    readme = (ROOT / "README.md").read_text()
    assert (ROOT / "examples" / "quickstart.py").read_text() in code_blocks(readme, "python")


def test_the_quickstart_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(ROOT / "examples" / "quickstart.py"), run_name="__main__")
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "a-walk-by-the-harbour working",
        "['A walk by the harbour']",
        "['a-walk-by-the-harbour']",
        "published ['quote', 'image']",
    ]


def test_the_readme_names_the_run_and_test_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "pip install -e '.[test]' && pytest" in readme
    assert "pip install -e '.[serve]' && storycore serve --demo" in readme


def test_every_extra_the_docs_name_is_one_the_package_declares() -> None:
    declared = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    )
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    named = {
        (page.name, extra)
        for page in pages
        for extra in re.findall(r"(?:storycore|\.)\[([a-z]+)\]", page.read_text())
    }
    assert {pair for pair in named if pair[1] not in declared} == set()
    assert {extra for _, extra in named} >= {
        "serve",
        "online",
        "apidocs",
        "mongodb",
        "mongomock",
        "postgresql",
        "testing",
    }
