"""The README's shell commands run as written (a newcomer follows them on a fresh
machine), against ``storycore serve --demo`` on a free loopback port instead of port 8000.

Each ``curl`` fails the run on an HTTP error (``--fail-with-body``); a command that needs a
placeholder filled in would fail it too, which is the point. The HTTP API table is run row by
row, top to bottom, and each row must answer what its text says (docs/decisions.md).
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus

import orjson
import pytest

from storycore import Service
from storycore.adapters import open_store
from tests._markdown import code_blocks
from tests._serve import serving

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
DOCUMENTED = "http://127.0.0.1:8000"
# every curl stops the run on an HTTP error, and ends its output with a line of its own
_PRELUDE = """set -euo pipefail
curl() { command curl -sS --max-time 10 --fail-with-body "$@"; echo; }
"""
# the same, each request also writing its HTTP status on standard error
_STATUSES = _PRELUDE.replace('"$@"', "-w '%{stderr}@@status %{http_code}\\n' \"$@\"")

pytestmark = [
    pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed"),
    pytest.mark.long,  # servers and many requests: started first
]


def _section(heading: str) -> str:
    return README.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]


def _run(
    script: str, base: str, db: str, folder: Path, *, statuses: bool = False
) -> subprocess.CompletedProcess[str]:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    prelude = _STATUSES if statuses else _PRELUDE
    return subprocess.run(
        ["bash", "-c", prelude + script.replace(DOCUMENTED, base)],
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


@dataclass(frozen=True)
class Row:
    """A row of the README's API table: what it says, and the calls it makes."""

    what: str
    calls: list[str]


@dataclass(frozen=True)
class Ran:
    """What a row's calls printed (each curl's output ends with a line of its own) and the HTTP
    status of every request it made."""

    out: str
    statuses: list[int]

    def answers(self) -> list[dict[str, Any]]:
        return [orjson.loads(line) for line in self.out.splitlines() if line.startswith("{")]

    def content(self) -> Any:
        (answer,) = self.answers()
        return answer["content"]


def _table(section: str) -> list[Row]:
    """The rows of the table headed ``| what | call |``; a call cell holds whole curl commands
    and nothing else, so that running them is doing what the row says."""
    lines = section.split("| what | call |\n", 1)[1].splitlines()[1:]
    rows = []
    for line in itertools.takewhile(lambda text: text.startswith("|"), lines):
        what, cell = line.strip().strip("|").split("|", 1)
        calls = re.findall(r"`(curl [^`]+)`", cell)
        rest = re.sub(r"`curl [^`]+`", "", cell).strip()
        assert rest.strip(", ") == "", f"row {what.strip()!r} says more than its calls: {rest}"
        rows.append(Row(what.strip(), calls))
    return rows


def _run_rows(
    setup: list[str], rows: list[Row], base: str, db: str, folder: Path
) -> dict[str, Ran]:
    """Run the setup, then every row in order, in one shell; each row's output and statuses."""
    marked = [f"echo '@@row {i}'; echo '@@row {i}' >&2\n" + "\n".join(row.calls)
              for i, row in enumerate(rows)]  # fmt: skip
    done = _run("\n".join([*setup, *marked]), base, db, folder, statuses=True)
    outs = re.split(r"^@@row \d+\n", done.stdout, flags=re.MULTILINE)[1:]
    errs = re.split(r"^@@row \d+\n", done.stderr, flags=re.MULTILINE)[1:]
    assert done.returncode == 0, f"row {rows[len(outs) - 1].what!r} failed: {done.stderr[-2000:]}"
    return {
        row.what: Ran(out, [int(code) for code in re.findall(r"^@@status (\d+)$", err, re.M)])
        for row, out, err in zip(rows, outs, errs, strict=True)
    }


def _public_stories(db: str) -> dict[str, tuple[set[str], set[str | None]]]:
    """Every public story of the store: its id, with its hashtags and its elements' permalinks
    (None for an element without one)."""
    found: dict[str, tuple[set[str], set[str | None]]] = {}
    with Service(open_store(db)) as service:
        page = 1
        while items := service.catalog.latest(page=page, per_page=100).items:
            for item in items:
                record = service.store.stories.get(item.id)
                assert record is not None
                detail = service.stories.read(item.author.username, item.slug, per_page=100)
                found[item.id] = (set(record.tags), {e.permalink for e in detail.elements})
            page += 1
    return found


def _parameter(call: str, name: str) -> str:
    (value,) = re.findall(rf"[?&]{name}=([^&\"]+)", call)
    return unquote_plus(value)


#: the row that publishes the story the table made, and a later one that needs it published
WHATS = ("publish", "feature")


def test_every_row_of_the_api_table_answers_what_it_says(tmp_path: Path) -> None:
    """Run top to bottom on ``serve --demo``, every request of the table answers 200 (the row
    of a redirect 301), the search finds stories, the filters find exactly the stories they
    name, and the story published stays published for the rows after."""
    section = _section("HTTP API")
    rows = _table(section)
    db = f"sqlite:///{tmp_path / 'storycore.db'}"
    with serving(db, tmp_path, "--demo") as base:
        ran = _run_rows(code_blocks(section, "sh"), rows, base, db, tmp_path)
    for row in rows:
        expected = 301 if "redirect" in row.what else 200
        assert ran[row.what].statuses, row.what
        assert set(ran[row.what].statuses) == {expected}, (row.what, ran[row.what].statuses)
        assert all(a["code"] == expected for a in ran[row.what].answers()), row.what
    public = _public_stories(db)
    calls = {row.what: row.calls[0] for row in rows}
    assert ran["search"].content()["stories"], "the search finds no story"
    tag = _parameter(calls["public stories"], "tag")
    tagged = {sid for sid, (tags, _) in public.items() if tag in tags}
    assert tagged
    assert {item["id"] for item in ran["public stories"].content()["stories"]} == tagged
    element = _parameter(calls["stories holding an element"], "containingElement")
    holding = {sid for sid, (_, permalinks) in public.items() if element in permalinks}
    assert holding
    found = ran["stories holding an element"].content()["stories"]
    assert {item["id"] for item in found} == holding
    published, featured = (next(r.what for r in rows if r.what.startswith(w)) for w in WHATS)
    assert ran[published].content()["status"] == "published"
    assert ran[featured].content()["status"] == "published"  # still, rows later
    assert '{"content":{"revoked":true},"code":200}' in ran["end the token"].out
