"""Lighthouse 12.2.3 on the editor (docs/editor.md#quality): the desk of a writer with stories
and the editor of a 20-element story, signed in (the session cookie sent with every request
Lighthouse makes), score 100 in accessibility and best practices and at least 95 in
performance, in Debian's Chromium. Editor pages are never indexed, so SEO is not measured.

One run each, one after the other (a run takes some 15 seconds); a page short of the
performance bar is run twice more and its median run kept, as ``tests/browser/test_lighthouse.py``
does and for its reason (a run that meets the busiest moment of the machine's other work loses
blocking time to it, not to the page: measured, the editor scored 91 beside other tests and
100 alone). Lighthouse is installed and skipped or failed as that module says.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from storycore.rules import paths
from tests.browser._editor_states import WRITER, World
from tests.browser._lighthouse import (
    PERFORMANCE_AT_LEAST,
    VERSION,
    lighthouse,
    measured,
    score,
    short_of_full,
)
from tests.browser.conftest import StoryServer

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser-editor-lighthouse"),
    pytest.mark.long,
]

ELEMENTS = 20
MEASURED = ["desk", "editor"]
PERFECT = ["accessibility", "best-practices"]


@pytest.fixture(scope="module")
def reports(
    story_server: StoryServer, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[str, Any]]:
    """Lighthouse's report on the desk and on the editor of a 20-element story."""
    lighthouse()  # a skip (a failure in CI) before any story is made, when it is missing
    world = World.made_on(story_server.service, story_server.base)
    kinds = world.every_kind()
    slug = world.story("Twenty", [kinds[n % len(kinds)] for n in range(ELEMENTS)])
    for title in ("Fog in the harbour", "Night market", "Tides of March"):
        world.story(title, kinds[:2])
    cookie = world.session(WRITER)
    headers = json.dumps({"Cookie": f"{cookie['name']}={cookie['value']}"})
    addresses = {
        "desk": world.base + paths.DESK,
        "editor": world.base + world.path(paths.EDITOR, slug),
    }
    return measured(
        addresses,
        tmp_path_factory.mktemp("editor-lighthouse"),
        ["performance", *PERFECT],
        options=lambda name: [f"--extra-headers={headers}"],
    )


@pytest.mark.parametrize("name", MEASURED)
def test_lighthouse_measures_the_signed_in_page(
    reports: dict[str, dict[str, Any]], name: str
) -> None:
    """The page measured is the writer's, not the sign-in page it would send a stranger to."""
    report = reports[name]
    assert report["lighthouseVersion"] == VERSION
    assert report["finalDisplayedUrl"] == report["requestedUrl"]


@pytest.mark.parametrize("category", PERFECT)
@pytest.mark.parametrize("name", MEASURED)
def test_lighthouse_scores_an_editor_page_100(
    reports: dict[str, dict[str, Any]], name: str, category: str
) -> None:
    report = reports[name]
    assert (score(report, category), short_of_full(report, category)) == (100, [])


@pytest.mark.parametrize("name", MEASURED)
def test_lighthouse_scores_an_editor_pages_performance_at_least_95(
    reports: dict[str, dict[str, Any]], name: str
) -> None:
    report = reports[name]
    assert score(report, "performance") >= PERFORMANCE_AT_LEAST, short_of_full(
        report, "performance"
    )
