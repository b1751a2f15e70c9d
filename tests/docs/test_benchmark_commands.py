"""The benchmark commands the READMEs give run to their end, on a tiny data set: each
``python -m benchmarks ...`` of ``README.md`` and of the opening block of
``benchmarks/README.md``, with its sizes cut down (``--stories 60``, ``--scaling 30,60``,
``--repeat 1``, ``--http-seconds 1``). What they measure is not checked (speed is theirs to
report, never a test's); that they run is: a floor that answers differently from storycore
stops a run (``python -m benchmarks`` compares their answers before it times them).

The other modules' commands (``python -m benchmarks.writes`` and the rest) are left out: each
starts servers and loads of its own, minutes of a busy machine even on a tiny data set.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import _postgresql

# the commands run one after another, on one worker: each is a benchmark of its own (long,
# started first)
pytestmark = [pytest.mark.xdist_group("benchmark-commands"), pytest.mark.long]

ROOT = Path(__file__).resolve().parents[2]
#: ``python -m benchmarks`` and its arguments, up to the end of the line or a comment.
COMMAND = re.compile(r"python -m benchmarks( [^`#\n]*)?(?=[`#\n])")
#: Each size argument, and what it becomes.
TINY = {"--stories": "60", "--scaling": "30,60", "--repeat": "1", "--http-seconds": "1"}


def _documented() -> list[str]:
    """The arguments of each ``python -m benchmarks`` command of the two READMEs."""
    readme = (ROOT / "README.md").read_text()
    block = (ROOT / "benchmarks" / "README.md").read_text().split("```sh\n", 1)[1]
    block = block.split("```", 1)[0]
    found = [match.group(1) or "" for match in COMMAND.finditer(readme + "\n" + block)]
    return list(dict.fromkeys(args.strip() for args in found))


def tiny(args: str) -> list[str]:
    """``args`` with every size cut down, and the time of each HTTP run."""
    given = shlex.split(args)
    made: list[str] = []
    for position, word in enumerate(given):
        if position and given[position - 1] in TINY:
            made.append(TINY[given[position - 1]])
        else:
            made.append(word)
    for flag in ("--repeat", "--http-seconds"):
        if flag not in made and (flag != "--http-seconds" or "--http" in made):
            made += [flag, TINY[flag]]
    return made


def test_the_readmes_give_benchmark_commands() -> None:
    assert "--stories 100000 --http --memory" in _documented()


def test_a_command_is_cut_down_to_a_tiny_data_set() -> None:
    assert tiny("--scaling 10000,100000 --elements 2 --repeat 100") == [
        "--scaling", "30,60", "--elements", "2", "--repeat", "1",
    ]  # fmt: skip
    assert tiny("--stories 100000 --http") == [
        "--stories", "60", "--http", "--repeat", "1", "--http-seconds", "1",
    ]  # fmt: skip


@pytest.mark.parametrize("args", _documented())
def test_a_documented_benchmark_command_runs_on_a_tiny_data_set(args: str) -> None:
    command = tiny(args)
    if "--http" in command and shutil.which("wrk") is None:
        pytest.skip("wrk is not installed (apt-get install wrk): the HTTP runs need it")
    if "postgresql" in command and (reason := _postgresql.unavailable()):
        pytest.skip(reason)
    ran = subprocess.run(
        [sys.executable, "-m", "benchmarks", *command],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=ROOT,
    )
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
