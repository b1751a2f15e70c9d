"""The pages people read, measured in Debian's Chromium (docs/api.md#the-web-host): on the demo data
(a real ``storycore serve --demo``), each page of docs/api.md#the-web-host (the API reference in
Swagger UI
too), the web host's HTML 404, the search page refusing a query, and a plain host page carrying
the embed log nothing to the console (but, on a page answering an error status, Chromium's line
for that status), ask no host but their own before a click, show no violation of axe-core's
WCAG 2.1 A and AA rules (axe-core as ``axe-playwright-python`` bundles it, run offline), keep
their colour contrast in the dark scheme, and never scroll sideways from 320 to 1440 pixels wide.

Each page is loaded once in each view (a width and a colour scheme) a test needs, and what it
shows there (its console, its requests, axe's findings, its widths) is observed once, for the
tests that read it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser._axe import axe, violations
from tests.browser._demo_pages import DRAWN, HOST_PAGE_PATH, PAGES, host_page, status_line
from tests.browser.conftest import HostPages

# Chromium and the servers start once, on one worker
pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser-page-quality"),
    pytest.mark.long,
]

#: axe-core's tags for the rules of WCAG 2.0 and 2.1, levels A and AA.
WCAG21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
WIDTHS = [320, 768, 1440]
DRAW_TIMEOUT_MS = 20_000
NAMES = [*PAGES, "host"]

#: Where the story's first video puts its play button and its title, top to bottom.
VIDEO_BOXES = """() => [
  document.querySelector('.video-play'), document.querySelector('.video-title'),
].map((shown) => { const box = shown.getBoundingClientRect();
                   return {top: box.top, bottom: box.bottom}; })"""

#: Scrolls through the page a screen at a time, so that every lazy image is asked for, then
#: waits until every image (in shadow roots too) has loaded or failed and every font the page
#: uses has loaded: all that sets the page's layout, and all it asks for before a click.
SCROLL_THROUGH = """async () => {
  const frame = () => new Promise(requestAnimationFrame);
  for (let y = 0; y < document.scrollingElement.scrollHeight; y += innerHeight) {
    scrollTo(0, y);
    await frame(); await frame();
  }
  const images = [];
  const walk = (root) => root.querySelectorAll('*').forEach((node) => {
    if (node.tagName === 'IMG') images.push(node);
    if (node.shadowRoot) walk(node.shadowRoot);
  });
  walk(document);
  await Promise.all(images.map((image) => image.decode().catch(() => null)));
  await document.fonts.ready;
  scrollTo(0, 0);
  return images.length;
}"""


@dataclass(frozen=True)
class View:
    """How a page is looked at: the tab's width (None: Playwright's default, 1280 by 720) and
    its colour scheme."""

    width: int | None
    scheme: str = "light"


#: Where the console, the requests and axe's WCAG rules are observed: a wide screen.
WIDE = View(1440)
#: Where the tap targets are measured: a phone.
PHONE = View(320)
#: Where the colour contrast is measured in the dark scheme.
DARK = View(None, "dark")
#: The rules axe runs in each view (one run a view), by the tests that read them.
AXE_OPTIONS = {
    WIDE: {"runOnly": {"type": "tag", "values": WCAG21_AA}},
    DARK: {"runOnly": {"type": "rule", "values": ["color-contrast"]}},
    PHONE: {"runOnly": {"type": "rule", "values": ["target-size"]}},
}
HEIGHT = 800


@dataclass(frozen=True)
class Seen:
    """What one page showed in one view, observed once for every test that reads it."""

    address: str
    logged: list[str]
    asked: list[str]
    scroll: tuple[int, int]
    dark: bool
    axe: dict[str, Any] | None
    video: tuple[dict[str, float], dict[str, float]] | None


#: Each page as seen in a view, by the page's name (the ``seen`` fixture).
Look = Callable[[str, View], Seen]


@pytest.fixture(scope="module")
def addresses(demo_server: str, host_pages: HostPages) -> dict[str, str]:
    """Each page's full address: the demo server's pages and the host page on its own origin."""
    found = {name: demo_server + path for name, path in PAGES.items()}
    found["host"] = host_pages.put(
        HOST_PAGE_PATH, "text/html; charset=utf-8", host_page(demo_server)
    )
    return found


@pytest.fixture(scope="module")
def seen(browser: Any, addresses: dict[str, str]) -> Look:
    """Each page as seen in a view, loaded the first time a test asks and kept for the others."""
    found: dict[tuple[str, View], Seen] = {}

    def look(name: str, view: View) -> Seen:
        if (name, view) not in found:
            found[name, view] = _look(browser, addresses[name], name, view)
        return found[name, view]

    return look


def _look(browser: Any, address: str, name: str, view: View) -> Seen:
    """Opens ``address`` (the page ``name``) in a fresh tab of ``view``, recording what it logs
    and every address it asks for, and observes it."""
    viewport = {} if view.width is None else {"viewport": {"width": view.width, "height": HEIGHT}}
    context = browser.new_context(color_scheme=view.scheme, **viewport)
    try:
        tab = context.new_page()
        logged: list[str] = []
        asked: list[str] = []
        tab.on(
            "console",
            lambda message: logged.append(
                f"{message.type}: {message.text} at {message.location['url']}"
            ),
        )
        tab.on("pageerror", lambda error: logged.append(f"uncaught: {error}"))
        tab.on("request", lambda sent: asked.append(sent.url))
        _load(tab, address, name)
        logged_then, asked_then = list(logged), list(asked)
        scroll_width, inner_width = tab.evaluate(
            "[document.scrollingElement.scrollWidth, innerWidth]"
        )
        dark = tab.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        video = tab.evaluate(VIDEO_BOXES) if name == "story" else None
        options = AXE_OPTIONS.get(view)
        found = None if options is None else axe(tab, options)
        return Seen(
            address, logged_then, asked_then, (scroll_width, inner_width), dark, found, video
        )
    finally:
        context.close()


def _load(tab: Any, address: str, name: str = "") -> None:
    """Opens ``address`` (the page ``name``), waits until its script has drawn it, then loads
    every image and font (not waiting out half a second of quiet on the network, which has
    nothing more to bring)."""
    tab.goto(address, wait_until="load")
    if name in DRAWN:
        tab.wait_for_selector(DRAWN[name], timeout=DRAW_TIMEOUT_MS)
    assert tab.evaluate(SCROLL_THROUGH) >= 0


def _ran(found: Seen) -> dict[str, Any]:
    """What axe found in the view ``found`` was seen in."""
    assert found.axe is not None, "axe was not run in this view (AXE_OPTIONS)"
    return found.axe


@pytest.mark.parametrize("name", NAMES)
def test_a_page_logs_nothing_to_the_console(seen: Look, name: str) -> None:
    found = seen(name, WIDE)
    assert found.logged == status_line(name, found.address)


@pytest.mark.parametrize("name", NAMES)
def test_a_page_asks_no_host_but_its_own_before_a_click(
    seen: Look, demo_server: str, name: str
) -> None:
    """The host page asks its own origin for itself and the story server for the story."""
    found = seen(name, WIDE)
    own = {urlsplit(found.address).netloc, urlsplit(demo_server).netloc}
    assert found.asked, "the page asked for nothing: nothing was measured"
    assert [url for url in found.asked if urlsplit(url).netloc not in own] == []


@pytest.mark.parametrize("name", NAMES)
def test_a_page_has_no_wcag_2_1_a_or_aa_violation_found_by_axe(seen: Look, name: str) -> None:
    response = _ran(seen(name, WIDE))
    assert violations(response) == []
    assert response["passes"], "axe found nothing to check"


@pytest.mark.parametrize("name", NAMES)
def test_a_page_keeps_its_colour_contrast_in_the_dark_scheme(seen: Look, name: str) -> None:
    found = seen(name, DARK)
    assert found.dark is True
    response = _ran(found)
    assert violations(response) == []
    assert [rule["id"] for rule in response["passes"]] == ["color-contrast"]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", NAMES)
def test_a_page_never_scrolls_sideways(seen: Look, name: str, width: int) -> None:
    scroll_width, inner_width = seen(name, View(width)).scroll
    assert inner_width == width
    assert scroll_width <= inner_width


@pytest.mark.parametrize("name", NAMES)
def test_a_pages_targets_are_big_enough_to_tap_on_a_phone(seen: Look, name: str) -> None:
    """axe-core's target-size rule (WCAG 2.2, 2.5.8: 24 by 24 pixels, or spaced apart) at 320."""
    response = _ran(seen(name, PHONE))
    assert violations(response) == []
    assert [rule["id"] for rule in response["passes"]] == ["target-size"]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_videos_title_leaves_its_play_button_clear(seen: Look, width: int) -> None:
    """The title laid over the poster never hides the play button, however narrow the page."""
    video = seen("story", View(width)).video
    assert video is not None
    button, title = video
    assert button["bottom"] <= title["top"]
