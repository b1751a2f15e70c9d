"""The README cannot drift: its example is the example file, and it runs as written."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def test_the_readme_example_is_the_quickstart_file() -> None:
    readme = (ROOT / "README.md").read_text()
    assert (ROOT / "examples" / "quickstart.py").read_text() in _python_blocks(readme)


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
    assert "pip install -e . && storycore serve --demo" in readme
