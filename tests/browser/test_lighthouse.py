"""Lighthouse 12.2.3 on the pages people read (docs/api.md#the-web-host): on the demo data (a real
``storycore serve --demo``), the front page, a story page, an author page, a search page, the API
reference, the web host's HTML 404, the search page refusing a query and a plain host page
carrying the embed score 100 in accessibility, best practices and SEO, and all but the API
reference at least 95 in performance, in Debian's Chromium.

A page that answers an error status (the 404, the refused search) fails three audits by design,
and only those: SEO's ``http-status-code`` (its status) and ``is-crawlable`` (it is ``noindex``:
there is nothing there to index), and best practices' ``errors-in-console``, whose one line must
be Chromium's report of the page's own status. Lighthouse measures such a page only with
``--ignore-status-code``. The API reference's performance is Swagger UI's (1.4 MB of script that
draws the whole OpenAPI document in the browser), which docs/api.md#the-web-host does not measure.

``.ci/run`` installs Lighthouse from the npm registry into ``.lighthouse/`` (which git ignores).
Elsewhere, without it, the module skips saying how to install it; in CI (``CI`` set) a missing
Lighthouse fails instead, so that CI can never pass without measuring.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.browser._demo_pages import ERROR_STATUS, HOST_PAGE_PATH, PAGES, host_page
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, HostPages

# one Lighthouse run per page, one after the other, on one worker, started first (long)
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-lighthouse"), pytest.mark.long]

VERSION = "12.2.3"
CLI = Path(__file__).parents[2] / ".lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"
INSTALL = f"npm i -E --prefix .lighthouse lighthouse@{VERSION}"
MEASURED = ["front", "story", "author", "search", "host", "docs", "not_found", "search_refused"]
PERFECT = ["accessibility", "best-practices", "seo"]
#: The audits a page answering an error status fails by design, by category.
BY_DESIGN = {"best-practices": ["errors-in-console"], "seo": ["http-status-code", "is-crawlable"]}
#: Each measured page and category that must score 100, and those that fail ``BY_DESIGN``.
FULL = [
    (name, category)
    for name in MEASURED
    for category in PERFECT
    if name not in ERROR_STATUS or category not in BY_DESIGN
]
SHORT_BY_DESIGN = [(name, category) for name in ERROR_STATUS for category in BY_DESIGN]
FAST = [name for name in MEASURED if name != "docs"]
PERFORMANCE_AT_LEAST = 95
RUN_SECONDS = 120


def _lighthouse() -> list[str]:
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


@pytest.fixture(scope="module")
def reports(
    demo_server: str, host_pages: HostPages, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[str, Any]]:
    """Lighthouse's report on each measured page, one run after the other.

    One at a time: five runs side by side on the machine's two cores (measured) cost the story
    and search pages 4 points of performance, for blocking time that Chromium's own work takes
    from the page, not the page's.
    """
    command = _lighthouse()
    addresses = {name: demo_server + path for name, path in PAGES.items()}
    addresses["host"] = host_pages.put(
        HOST_PAGE_PATH, "text/html; charset=utf-8", host_page(demo_server)
    )
    folder = tmp_path_factory.mktemp("lighthouse")
    flags = " ".join(["--headless=new", *CHROMIUM_ARGS])
    environment = {**os.environ, "CHROME_PATH": CHROMIUM}

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
                "--only-categories=performance,accessibility,best-practices,seo",
                *(["--ignore-status-code"] if name in ERROR_STATUS else []),
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
    for name in MEASURED:
        found[name] = measure(name, 1)
        if name in FAST and _score(found[name], "performance") < PERFORMANCE_AT_LEAST:
            # Lighthouse's own advice for a score that varies from run to run: the median of
            # several runs. Only a page short of the bar is run again (three runs in all): the
            # suite's other workers share the cores, and a run that meets their busiest moment
            # loses blocking time to them, not to the page.
            runs = [found[name], measure(name, 2), measure(name, 3)]
            found[name] = sorted(runs, key=lambda report: _score(report, "performance"))[1]
    return found


def _score(report: dict[str, Any], category: str) -> int:
    score: float = report["categories"][category]["score"]
    return round(score * 100)


def _short_of_full(report: dict[str, Any], category: str) -> list[str]:
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


@pytest.mark.parametrize(("name", "category"), FULL)
def test_lighthouse_scores_a_page_100(
    reports: dict[str, dict[str, Any]], name: str, category: str
) -> None:
    report = reports[name]
    assert report["lighthouseVersion"] == VERSION
    assert (_score(report, category), _short_of_full(report, category)) == (100, [])


@pytest.mark.parametrize(("name", "category"), SHORT_BY_DESIGN)
def test_lighthouse_finds_on_an_error_page_only_its_status_and_noindex(
    reports: dict[str, dict[str, Any]], name: str, category: str
) -> None:
    short = _short_of_full(reports[name], category)
    assert sorted(line.split(":")[0] for line in short) == BY_DESIGN[category], short


@pytest.mark.parametrize("name", sorted(ERROR_STATUS))
def test_the_one_console_error_of_an_error_page_is_its_own_status(
    reports: dict[str, dict[str, Any]], name: str
) -> None:
    report = reports[name]
    logged = report["audits"]["errors-in-console"]["details"]["items"]
    status, reason = ERROR_STATUS[name]
    assert [
        (item["source"], item["description"], item["sourceLocation"]["url"]) for item in logged
    ] == [
        (
            "network",
            f"Failed to load resource: the server responded with a status of {status} ({reason})",
            report["measured"],
        )
    ]


@pytest.mark.parametrize("name", FAST)
def test_lighthouse_scores_a_pages_performance_at_least_95(
    reports: dict[str, dict[str, Any]], name: str
) -> None:
    report = reports[name]
    assert _score(report, "performance") >= PERFORMANCE_AT_LEAST, _short_of_full(
        report, "performance"
    )
