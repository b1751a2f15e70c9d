"""The README's shell commands run as written (issue 17: a newcomer follows them on a fresh
machine), against ``storycore serve --demo`` on a free loopback port instead of port 8000.

Each ``curl`` fails the run on an HTTP error (``--fail-with-body``); a command that needs a
placeholder filled in would fail it too, which is the point.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests._markdown import code_blocks
from tests._serve import serving

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
DOCUMENTED = "http://127.0.0.1:8000"
# every curl stops the run on an HTTP error, and ends its output with a line of its own
_PRELUDE = """set -euo pipefail
curl() { command curl -sS --max-time 10 --fail-with-body "$@"; echo; }
"""

pytestmark = pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")


def _section(heading: str) -> str:
    return README.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]


def _run(script: str, base: str, db: str, folder: Path) -> subprocess.CompletedProcess[str]:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return subprocess.run(
        ["bash", "-c", _PRELUDE + script.replace(DOCUMENTED, base)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=folder,
        env={**os.environ, "PATH": path, "STORYCORE_DB": db},
    )


def test_the_first_requests_of_run_it_answer(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'storycore.db'}"
    commands = [c for c in code_blocks(_section("Run it"), "sh")[1:] if "curl" in c]
    with serving(db, tmp_path, "--demo") as base:
        done = _run("\n".join(commands), base, db, tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"code":200' in done.stdout


def test_the_http_api_section_runs_top_to_bottom(tmp_path: Path) -> None:
    section = _section("HTTP API")
    blocks = code_blocks(section, "sh")
    table = re.findall(r"`(curl [^`]+)`", section.split("| what | call |", 1)[1])
    script = "\n".join([*blocks, *table])
    db = f"sqlite:///{tmp_path / 'storycore.db'}"
    with serving(db, tmp_path, "--demo") as base:
        done = _run(script, base, db, tmp_path)
    assert done.returncode == 0, f"{done.stderr}\n{done.stdout[-2000:]}"
    assert '{"content":{"revoked":true},"code":200}' in done.stdout
    assert "301 Moved Permanently" in done.stdout
