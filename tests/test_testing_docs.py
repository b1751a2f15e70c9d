"""docs/testing.md cannot drift: every code block of it that names a file (its first line is
``# <file name>``) is written to a fresh directory, and every test module among them runs with
pytest in a fresh process, beside the page's ``pyproject.toml``, as a host application would
run it (the plugin loaded through its entry point; warnings are errors)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "testing.md"
BLOCK = re.compile(r"```(\w+)\n# (\S+)\n(.*?)```", flags=re.DOTALL)
EXAMPLES = ("test_visibility.py", "test_mount.py", "test_front_page.py")


def _files() -> dict[str, str]:
    """The page's named code blocks, by file name, each as written (its name line included)."""
    text = PAGE.read_text()
    return {name: f"# {name}\n{body}" for _, name, body in BLOCK.findall(text)}


def _test_modules() -> list[str]:
    return [name for name in _files() if name.startswith("test_") and name.endswith(".py")]


def test_every_python_block_of_the_page_names_its_file() -> None:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.DOTALL)
    assert blocks
    assert all(re.match(r"# \S+\.py\n", block) for block in blocks)
    assert len(blocks) == len({name for name in _files() if name.endswith(".py")})


def test_the_page_holds_the_three_examples_and_their_configuration() -> None:
    files = _files()
    assert set(EXAMPLES) <= set(files)
    assert "storycore_store_urls" in files["pyproject.toml"]
    assert "pip install 'storycore[testing]'" in PAGE.read_text()


@pytest.mark.parametrize("module", _test_modules())
def test_the_example_runs_as_written(module: str, tmp_path: Path) -> None:
    for name, text in _files().items():
        if name == module or not name.startswith("test_"):
            (tmp_path / name).write_text(text)
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-W", "error", "-p", "no:cacheprovider", module],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert re.search(r"\d+ passed", ran.stdout)
    assert not re.search(r"failed|error|skipped", ran.stdout.splitlines()[-1])
