"""The preview and the history's pages (docs/editor.md#preview-and-history), measured in
Debian's Chromium: no violation of axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules, light and
dark, and no sideways scroll from 320 to 1440 pixels wide. The pages are answered by the apps
in process (signed in as a browser signs in) and shown in a tab as they were answered."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.http.editor._editor import signed_in, writers
from tests.http.editor.test_history import _save_elements, _text, _written

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-editor-history")]

WCAG22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
PATHS = {
    "history": "/alice/fog/history",
    "comparison": "/alice/fog/history?from=1&to=current",
    "refused comparison": "/alice/fog/history?from=x&to=1",
    "restore": "/alice/fog/history?restore=1",
    "preview": "/alice/fog/preview",
}


@pytest.fixture(scope="module")
def answered() -> dict[str, str]:
    """Each page's HTML: a story saved three times, its elements then moved, changed, added
    and removed."""
    service = writers()
    wait, _gulls, pier = _written(service)
    image = {"src": "https://pics.example/a.jpg", "caption": "A red boat"}
    _save_elements(
        service,
        [
            {"id": pier, **_text("<p>Old stone pier</p>")},
            {"id": wait, **_text("<p>The boats wait</p>")},
            {"type": "image", "data": {"image": image}},
        ],
        description="A calm morning",
    )
    with signed_in(service, "alice") as client:
        return {name: client.get(path).text for name, path in PATHS.items()}


@pytest.fixture(params=["light", "dark"])
def tab(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A tab in the light or the dark scheme that asks no host for anything."""
    context = browser.new_context(color_scheme=request.param)
    context.route("**/*", lambda route: route.abort())
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("name", PATHS)
def test_a_page_has_no_wcag_2_2_a_or_aa_violation_found_by_axe(
    tab: Any, answered: dict[str, str], name: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    tab.set_content(answered[name])
    options = {"runOnly": {"type": "tag", "values": WCAG22_AA}}
    response: dict[str, Any] = Axe().run(tab, options=options).response
    violations = [
        f"{found['id']}: {node['target']}"
        for found in response["violations"]
        for node in found["nodes"]
    ]
    assert violations == []
    assert response["passes"], "axe found nothing to check"


@pytest.mark.parametrize("width", [320, 768, 1440])
@pytest.mark.parametrize("name", PATHS)
def test_a_page_never_scrolls_sideways(
    tab: Any, answered: dict[str, str], name: str, width: int
) -> None:
    tab.set_viewport_size({"width": width, "height": 800})
    tab.set_content(answered[name])
    assert tab.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
