"""The editor's pages measured in Debian's Chromium (docs/editor.md#quality): in every state of
``tests.browser._editor_states.STATES`` (signed out and in, empty and full, refused, in
conflict), light and dark, each page shows what its state names, answers its status, logs
nothing to the console but Chromium's line for an error status, shows no violation of
axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules at 320 and 1440 pixels wide (and 768 for the
fullest), and never scrolls sideways at 320.

The pages are measured as the server answers them, the editor's script left out (its own
additions are measured in ``test_editor_script``). Each state is reached once, in one tab, and
measured in each colour scheme (switched by emulating the reader's preference: the pages'
colours are their stylesheet's) at each width (by resizing the tab), axe-core put into the page
once. With ``EDITOR_SHOTS`` set to a folder, each page is also saved there as a PNG at 390 and
1280 pixels wide, to look at.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.browser._axe import axe, violations
from tests.browser._editor_states import STATES, Opened, World
from tests.browser.conftest import StoryServer

# Chromium and the server start once, on one worker
pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser-editor-quality"),
    pytest.mark.long,
]

#: axe-core's tags for the rules of WCAG 2.0, 2.1 and 2.2, levels A and AA.
WCAG22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
SCHEMES = ["light", "dark"]
NARROW, WIDE = 320, 1440
WIDTHS = [NARROW, WIDE]
#: The fullest states are measured at a tablet's width too.
TABLET = {"desk": 768, "every-element-kind": 768, "conflict": 768}
HEIGHT = 900
SHOT_WIDTHS = [390, 1280]


@dataclass(frozen=True)
class Measured:
    """What one state's page showed in one colour scheme."""

    opened: Opened
    status: int
    shows: bool
    logged: list[str]
    violations: dict[int, list[str]]
    passed: int
    scroll: tuple[int, int]
    address: str


@pytest.fixture(scope="module")
def world(story_server: StoryServer) -> World:
    return World.made_on(story_server.service, story_server.base)


@pytest.fixture(scope="module")
def tab(browser: Any) -> Iterator[Any]:
    """A tab recording what it logs, keeping every request on this machine."""
    context = browser.new_context()
    context.route("**/*", _loopback_only)
    opened = context.new_page()
    opened.logged = []
    opened.on("console", lambda message: _log(opened, message))
    opened.on("pageerror", lambda error: opened.logged.append(f"uncaught: {error}"))
    yield opened
    context.close()


def _loopback_only(route: Any) -> None:
    url = route.request.url
    if not url.startswith("http://127.0.0.1:"):
        route.abort()
    elif "/static/editor." in url:
        # the pages as the server answers them, every state reached by its form: what the
        # editor's script adds is measured with it (tests/browser/test_editor_script.py)
        route.fulfill(status=200, content_type="application/javascript", body="")
    else:
        route.continue_()


def _log(tab: Any, message: Any) -> None:
    if message.type in ("error", "warning"):
        tab.logged.append(f"{message.type}: {message.text} at {message.location['url']}")


@pytest.fixture(scope="module")
def measured(world: World, tab: Any) -> Callable[[str, str], Measured]:
    """Each state's page as measured in a scheme, reached the first time a test asks."""
    found: dict[str, dict[str, Measured]] = {}

    def measure(name: str, scheme: str) -> Measured:
        if name not in found:
            found[name] = _measure(world, tab, STATES[name](world), name)
        return found[name][scheme]

    return measure


def _measure(world: World, tab: Any, opened: Opened, name: str) -> dict[str, Measured]:
    """Loads the page ``opened`` names in ``tab`` and measures it in each scheme at each
    width."""
    context = tab.context
    context.clear_cookies()
    if opened.user is not None:
        context.add_cookies([world.session(opened.user)])
    tab.set_viewport_size({"width": WIDE, "height": HEIGHT})
    tab.emulate_media(color_scheme=SCHEMES[0])
    statuses: list[int] = []

    def document(response: Any) -> None:
        if response.request.resource_type == "document" and response.frame == tab.main_frame:
            statuses.append(response.status)

    tab.on("response", document)
    tab.logged.clear()
    try:
        tab.goto(world.base + opened.path, wait_until="load")
        if opened.then is not None:
            opened.then(tab)
        tab.wait_for_load_state("load")
    finally:
        tab.remove_listener("response", document)
    shows = tab.locator(opened.shows).count() > 0
    widths = sorted({*WIDTHS, *([TABLET[name]] if name in TABLET else [])})
    seen = {}
    for scheme in SCHEMES:
        tab.emulate_media(color_scheme=scheme)
        found: dict[int, list[str]] = {}
        passed = 0
        scroll: tuple[int, int] = (0, 0)
        for width in widths:
            tab.set_viewport_size({"width": width, "height": HEIGHT})
            response = axe(tab, {"runOnly": {"type": "tag", "values": WCAG22_AA}})
            found[width] = violations(response)
            passed = min(passed or len(response["passes"]), len(response["passes"]))
            if width == NARROW:
                scroll_width, client_width = tab.evaluate(
                    "[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"
                )
                scroll = (scroll_width, client_width)
        _shoot(tab, name, scheme)
        seen[scheme] = (found, passed, scroll)
    return {
        scheme: Measured(
            opened, statuses[-1], shows, list(tab.logged), found, passed, scroll, tab.url
        )
        for scheme, (found, passed, scroll) in seen.items()
    }


def _shoot(tab: Any, name: str, scheme: str) -> None:
    folder = os.environ.get("EDITOR_SHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    for width in SHOT_WIDTHS:
        tab.set_viewport_size({"width": width, "height": HEIGHT})
        tab.screenshot(path=f"{folder}/{name}-{scheme}-{width}.png", full_page=True)


def _status_line(measured: Measured) -> list[str]:
    """What Chromium logs of a page answering an error status: that status, and nothing."""
    if measured.status < 400:
        return []
    from http import HTTPStatus

    reason = HTTPStatus(measured.status).phrase
    return [
        f"error: Failed to load resource: the server responded with a status of "
        f"{measured.status} ({reason}) at {measured.address}"
    ]


CASES = [(name, scheme) for name in STATES for scheme in SCHEMES]


@pytest.mark.parametrize(("name", "scheme"), CASES)
def test_an_editor_page_shows_the_state_it_is_in(
    measured: Callable[[str, str], Measured], name: str, scheme: str
) -> None:
    found = measured(name, scheme)
    assert (found.status, found.shows) == (found.opened.status, True)


@pytest.mark.parametrize(("name", "scheme"), CASES)
def test_an_editor_page_has_no_wcag_2_2_a_or_aa_violation_found_by_axe(
    measured: Callable[[str, str], Measured], name: str, scheme: str
) -> None:
    found = measured(name, scheme)
    assert {width: lines for width, lines in found.violations.items() if lines} == {}
    assert found.passed, "axe found nothing to check"


@pytest.mark.parametrize(("name", "scheme"), CASES)
def test_an_editor_page_never_scrolls_sideways(
    measured: Callable[[str, str], Measured], name: str, scheme: str
) -> None:
    scroll_width, client_width = measured(name, scheme).scroll
    assert client_width == NARROW
    assert scroll_width <= client_width


@pytest.mark.parametrize(("name", "scheme"), CASES)
def test_an_editor_page_logs_nothing_but_its_status(
    measured: Callable[[str, str], Measured], name: str, scheme: str
) -> None:
    found = measured(name, scheme)
    assert found.logged == _status_line(found)
