"""docs/testing.md cannot drift: every code block of it that names a file (its first line is
``# <file name>``) is written to a fresh directory, and the test modules among them run with
pytest in a fresh process, beside the page's ``pyproject.toml``, as a host application would
run its suite (the plugin loaded through its entry point; warnings are errors). One process runs
them all, as a host's suite runs; each module's outcome is read from its JUnit report."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

# the page's examples run once, in one process, on one worker, started first (a long run)
pytestmark = [pytest.mark.xdist_group("testing-docs"), pytest.mark.long]

PAGE = Path(__file__).resolve().parents[2] / "docs" / "testing.md"
BLOCK = re.compile(r"```(\w+)\n# (\S+)\n(.*?)```", flags=re.DOTALL)
EXAMPLES = (
    "test_visibility.py",
    "test_publishing.py",
    "test_mount.py",
    "test_front_page.py",
    "test_time.py",
)


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


def test_the_page_holds_its_examples_and_their_configuration() -> None:
    files = _files()
    assert set(EXAMPLES) <= set(files)
    assert "storycore_store_urls" in files["pyproject.toml"]
    assert "pip install 'storycore[testing]'" in PAGE.read_text()


@dataclass(frozen=True)
class Run:
    """The page's test modules run together: the process's output and each test's outcome."""

    output: str
    returncode: int
    outcomes: dict[str, list[str]]  # module file name -> one outcome per test case


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """The page's files written to a fresh folder, and its test modules run there by pytest in
    one fresh process (starting pytest is a good part of a run's time)."""
    folder = tmp_path_factory.mktemp("testing-docs")
    for name, text in _files().items():
        (folder / name).write_text(text)
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    pytest_args = ["-q", "-W", "error", "-p", "no:cacheprovider", "--junitxml=report.xml"]
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", *pytest_args, *_test_modules()],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    outcomes: dict[str, list[str]] = {}
    if (folder / "report.xml").exists():
        for case in ET.parse(folder / "report.xml").iter("testcase"):
            module = case.get("classname", "").split(".")[0] + ".py"
            ends = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
            outcomes.setdefault(module, []).append(ends[0] if ends else "passed")
    return Run(ran.stdout + ran.stderr, ran.returncode, outcomes)


@pytest.mark.parametrize("module", _test_modules())
def test_the_example_runs_as_written(run: Run, module: str) -> None:
    outcomes = run.outcomes.get(module, [])
    assert outcomes, run.output
    assert set(outcomes) == {"passed"}, run.output


def test_the_examples_run_together_without_an_error(run: Run) -> None:
    assert run.returncode == 0, run.output
    assert re.search(r"\d+ passed", run.output)
    assert not re.search(r"failed|error|skipped", run.output.strip().splitlines()[-1])
