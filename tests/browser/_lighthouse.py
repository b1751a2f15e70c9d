"""Running Lighthouse 12.2.3 as the browser tests do (``test_lighthouse``, the pages people
read; ``test_editor_lighthouse``, the editor's): the command, one run after the other in Debian's
Chromium, and the reports' scores.

``.ci/run`` installs Lighthouse from the npm registry into ``.lighthouse/`` (which git ignores).
Elsewhere, without it, a module skips saying how to install it; in CI (``CI`` set) a missing
Lighthouse fails instead, so that CI can never pass without measuring.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

VERSION = "12.2.3"
CLI = Path(__file__).parents[2] / ".lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"
INSTALL = f"npm i -E --prefix .lighthouse lighthouse@{VERSION}"
PERFORMANCE_AT_LEAST = 95
RUN_SECONDS = 120


def lighthouse() -> list[str]:
    """The command that runs Lighthouse, or a skip (a failure in CI) saying what is missing."""
    node = shutil.which("node")
    problem = ""
    if node is None:
        problem = "Node.js is not installed (apt-get install nodejs npm)"
    elif not CLI.exists():
        problem = f"Lighthouse is not installed ({INSTALL})"
    elif json.loads((CLI.parents[1] / "package.json").read_text())["version"] != VERSION:
        problem = f"Lighthouse is not version {VERSION} ({INSTALL})"
    elif not Path(CHROMIUM).exists():
        problem = f"Debian's Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    if problem and os.environ.get("CI"):
        pytest.fail(f"CI must run Lighthouse: {problem}")
    if problem:
        pytest.skip(problem)
    assert node is not None
    return [node, str(CLI)]


def measured(
    addresses: Mapping[str, str],
    folder: Path,
    categories: Iterable[str],
    *,
    options: Callable[[str], list[str]] = lambda name: [],
    rerun: Callable[[str], bool] = lambda name: True,
) -> dict[str, dict[str, Any]]:
    """Lighthouse's report on each page of ``addresses`` (by name), one run after the other,
    in ``categories``, each run with the ``options`` of its page.

    One at a time: five runs side by side on the machine's two cores (measured) cost the story
    and search pages 4 points of performance, for blocking time that Chromium's own work takes
    from the page, not the page's. A page short of ``PERFORMANCE_AT_LEAST`` whose name
    ``rerun`` takes is run twice more and its median kept: Lighthouse's own advice for a score
    that varies from run to run, for a run that met the busiest moment of the suite's other
    workers loses blocking time to them, not to the page.
    """
    command = lighthouse()
    flags = " ".join(["--headless=new", *CHROMIUM_ARGS])
    environment = {**os.environ, "CHROME_PATH": CHROMIUM}
    only = ",".join(categories)

    def measure(name: str, run: int) -> dict[str, Any]:
        report = folder / f"{name}-{run}.json"
        ran = subprocess.run(
            [
                *command,
                addresses[name],
                "--quiet",
                "--output=json",
                f"--output-path={report}",
                f"--chrome-flags={flags}",
                f"--only-categories={only}",
                *options(name),
            ],
            env=environment,
            capture_output=True,
            text=True,
            timeout=RUN_SECONDS,
            check=False,
        )
        assert ran.returncode == 0, f"Lighthouse on {name} failed: {ran.stderr}"
        return {**json.loads(report.read_text()), "measured": addresses[name]}

    found = {}
    for name in addresses:
        found[name] = measure(name, 1)
        if rerun(name) and score(found[name], "performance") < PERFORMANCE_AT_LEAST:
            runs = [found[name], measure(name, 2), measure(name, 3)]
            found[name] = sorted(runs, key=lambda report: score(report, "performance"))[1]
    return found


def score(report: dict[str, Any], category: str) -> int:
    """A report's score in ``category``, out of 100."""
    value: float = report["categories"][category]["score"]
    return round(value * 100)


def short_of_full(report: dict[str, Any], category: str) -> list[str]:
    """The audits of a category that cost it points, each with what Lighthouse says of it."""
    audits = report["audits"]
    weighed = [
        audits[ref["id"]]
        for ref in report["categories"][category]["auditRefs"]
        if ref["weight"] > 0 and audits[ref["id"]]["score"] is not None
    ]
    return [
        f"{audit['id']}: {audit['score']} {audit.get('displayValue', '')}"
        for audit in weighed
        if audit["score"] < 1
    ]
