"""Lighthouse 12.2.3 on the pages people read (docs/api.md#the-web-host): on the demo data (a real
``storycore serve --demo``), the front page, a story page, an author page, a search page, the API
reference, the web host's HTML 404, the search page refusing a query and a plain host page
carrying the embed score 100 in accessibility, best practices and SEO, and all but the API
reference at least 95 in performance, in Debian's Chromium. On every page measured, and on a
topic's page too, Lighthouse finds no picture larger than it is drawn (``uses-responsive-images``,
"Properly size images": docs/api.md#pictures-in-widths).

A page that answers an error status (the 404, the refused search) fails three audits by design,
and only those: SEO's ``http-status-code`` (its status) and ``is-crawlable`` (it is ``noindex``:
there is nothing there to index), and best practices' ``errors-in-console``, whose one line must
be Chromium's report of the page's own status. Lighthouse measures such a page only with
``--ignore-status-code``. The API reference's performance is Swagger UI's (1.4 MB of script that
draws the whole OpenAPI document in the browser), which docs/api.md#the-web-host does not measure.

Lighthouse runs as ``tests.browser._lighthouse`` says, which skips (fails in CI) without it.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser._demo_pages import ERROR_STATUS, HOST_PAGE_PATH, PAGES, host_page
from tests.browser._lighthouse import (
    PERFORMANCE_AT_LEAST,
    VERSION,
    measured,
    score,
    short_of_full,
)
from tests.browser.conftest import HostPages

# one Lighthouse run per page, one after the other, on one worker, started first (long)
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-lighthouse"), pytest.mark.long]

MEASURED = [
    "front",
    "story",
    "author",
    "topic",
    "search",
    "host",
    "docs",
    "not_found",
    "search_refused",
]
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


@pytest.fixture(scope="module")
def reports(
    demo_server: str, host_pages: HostPages, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[str, Any]]:
    """Lighthouse's report on each measured page, one run after the other (``measured``)."""
    addresses = {name: demo_server + path for name, path in PAGES.items()}
    addresses["host"] = host_pages.put(
        HOST_PAGE_PATH, "text/html; charset=utf-8", host_page(demo_server)
    )
    return measured(
        {name: addresses[name] for name in MEASURED},
        tmp_path_factory.mktemp("lighthouse"),
        ["performance", "accessibility", "best-practices", "seo"],
        options=lambda name: ["--ignore-status-code"] if name in ERROR_STATUS else [],
        rerun=lambda name: name in FAST,
    )


@pytest.mark.parametrize(("name", "category"), FULL)
def test_lighthouse_scores_a_page_100(
    reports: dict[str, dict[str, Any]], name: str, category: str
) -> None:
    report = reports[name]
    assert report["lighthouseVersion"] == VERSION
    assert (score(report, category), short_of_full(report, category)) == (100, [])


@pytest.mark.parametrize(("name", "category"), SHORT_BY_DESIGN)
def test_lighthouse_finds_on_an_error_page_only_its_status_and_noindex(
    reports: dict[str, dict[str, Any]], name: str, category: str
) -> None:
    short = short_of_full(reports[name], category)
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
    assert score(report, "performance") >= PERFORMANCE_AT_LEAST, short_of_full(
        report, "performance"
    )


@pytest.mark.parametrize("name", MEASURED)
def test_lighthouse_finds_no_picture_larger_than_it_is_drawn(
    reports: dict[str, dict[str, Any]], name: str
) -> None:
    audit = reports[name]["audits"]["uses-responsive-images"]
    oversized = [
        (item["url"], item["wastedBytes"]) for item in audit.get("details", {}).get("items", [])
    ]
    assert (audit["score"], oversized) == (1, [])
