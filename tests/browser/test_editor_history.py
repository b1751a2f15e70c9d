"""The preview and the history's pages (docs/editor.md#preview-and-history), measured in
Debian's Chromium: no violation of axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules, light and
dark, and no sideways scroll from 320 to 1440 pixels wide. The pages are answered by the apps
in process (signed in as a browser signs in) and shown in a tab as they were answered: each
once in each scheme, measured at each width by resizing the tab."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.browser._axe import axe, violations
from tests.http.editor._editor import signed_in, writers
from tests.http.editor.test_history import _save_elements, _text, _written

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-editor-history")]

WCAG22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
SCHEMES = ["light", "dark"]
WIDTHS = [320, 768, 1440]
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


@dataclass(frozen=True)
class Shown:
    """What one page showed in one colour scheme: axe's findings (at Playwright's default
    1280 pixels) and whether it scrolled sideways, by width."""

    axe: dict[str, Any]
    sideways: dict[int, bool]


@pytest.fixture(scope="module")
def shown(answered: dict[str, str], browser: Any) -> Iterator[Callable[[str, str], Shown]]:
    """Each page as shown in a scheme, in a tab that asks no host for anything: set once the
    first time a test asks, then measured at each width by resizing the tab. (The pages are
    answered before Chromium starts: the apps' client runs an event loop of its own.)"""
    contexts: dict[str, Any] = {}
    found: dict[tuple[str, str], Shown] = {}

    def show(name: str, scheme: str) -> Shown:
        if scheme not in contexts:
            contexts[scheme] = browser.new_context(color_scheme=scheme)
            contexts[scheme].route("**/*", lambda route: route.abort())
        if (name, scheme) not in found:
            tab = contexts[scheme].new_page()
            tab.set_content(answered[name])
            response = axe(tab, {"runOnly": {"type": "tag", "values": WCAG22_AA}})
            sideways = {}
            for width in WIDTHS:
                tab.set_viewport_size({"width": width, "height": 800})
                sideways[width] = tab.evaluate("document.scrollingElement.scrollWidth > innerWidth")
            tab.close()
            found[name, scheme] = Shown(response, sideways)
        return found[name, scheme]

    yield show
    for context in contexts.values():
        context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", PATHS)
def test_a_page_has_no_wcag_2_2_a_or_aa_violation_found_by_axe(
    shown: Callable[[str, str], Shown], name: str, scheme: str
) -> None:
    response = shown(name, scheme).axe
    assert violations(response) == []
    assert response["passes"], "axe found nothing to check"


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PATHS)
def test_a_page_never_scrolls_sideways(
    shown: Callable[[str, str], Shown], name: str, width: int, scheme: str
) -> None:
    assert shown(name, scheme).sideways[width] is False
