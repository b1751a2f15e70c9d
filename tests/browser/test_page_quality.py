"""The pages people read, measured in Debian's Chromium (docs/api.md#the-web-host): on the demo data
(a real ``storycore serve --demo``), each page of docs/api.md#the-web-host (the API reference in
Swagger UI
too), the web host's HTML 404, the search page refusing a query, and a plain host page carrying
the embed log nothing to the console (but, on a page answering an error status, Chromium's line
for that status), ask no host but their own before a click, show no violation of axe-core's
WCAG 2.1 A and AA rules (axe-core as ``axe-playwright-python`` bundles it, run offline), keep
their colour contrast in the dark scheme, and never scroll sideways from 320 to 1440 pixels wide.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

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

#: Scrolls through the page a screen at a time, so that every lazy image is asked for, then
#: waits until every image (in shadow roots too) has loaded or failed.
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
  scrollTo(0, 0);
  return images.length;
}"""


@pytest.fixture(scope="module")
def addresses(demo_server: str, host_pages: HostPages) -> dict[str, str]:
    """Each page's full address: the demo server's pages and the host page on its own origin."""
    found = {name: demo_server + path for name, path in PAGES.items()}
    found["host"] = host_pages.put(
        HOST_PAGE_PATH, "text/html; charset=utf-8", host_page(demo_server)
    )
    return found


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:
    """A fresh tab recording what it logs and every address it asks for."""
    context = browser.new_context()
    opened = context.new_page()
    opened.logged = []
    opened.asked = []
    opened.on(
        "console",
        lambda message: opened.logged.append(
            f"{message.type}: {message.text} at {message.location['url']}"
        ),
    )
    opened.on("pageerror", lambda error: opened.logged.append(f"uncaught: {error}"))
    opened.on("request", lambda sent: opened.asked.append(sent.url))
    yield opened
    context.close()


def _load(tab: Any, address: str, name: str = "") -> None:
    """Opens ``address`` (the page ``name``), waits until its script has drawn it, then loads
    every image."""
    tab.goto(address, wait_until="load")
    if name in DRAWN:
        tab.wait_for_selector(DRAWN[name], timeout=DRAW_TIMEOUT_MS)
    assert tab.evaluate(SCROLL_THROUGH) >= 0
    tab.wait_for_load_state("networkidle")


def _axe(tab: Any, options: dict[str, Any]) -> dict[str, Any]:
    from axe_playwright_python.sync_playwright import Axe

    response: dict[str, Any] = Axe().run(tab, options=options).response
    return response


def _violations(response: dict[str, Any]) -> list[str]:
    """Each violation as one readable line: the rule, then where and why."""
    return [
        f"{found['id']}: {node['target']} {node['failureSummary']}"
        for found in response["violations"]
        for node in found["nodes"]
    ]


@pytest.mark.parametrize("name", NAMES)
def test_a_page_logs_nothing_to_the_console(tab: Any, addresses: dict[str, str], name: str) -> None:
    _load(tab, addresses[name], name)
    assert tab.logged == status_line(name, addresses[name])


@pytest.mark.parametrize("name", NAMES)
def test_a_page_asks_no_host_but_its_own_before_a_click(
    tab: Any, addresses: dict[str, str], demo_server: str, name: str
) -> None:
    """The host page asks its own origin for itself and the story server for the story."""
    _load(tab, addresses[name], name)
    own = {urlsplit(addresses[name]).netloc, urlsplit(demo_server).netloc}
    assert tab.asked, "the page asked for nothing: nothing was measured"
    assert [url for url in tab.asked if urlsplit(url).netloc not in own] == []


@pytest.mark.parametrize("name", NAMES)
def test_a_page_has_no_wcag_2_1_a_or_aa_violation_found_by_axe(
    tab: Any, addresses: dict[str, str], name: str
) -> None:
    _load(tab, addresses[name], name)
    response = _axe(tab, {"runOnly": {"type": "tag", "values": WCAG21_AA}})
    assert _violations(response) == []
    assert response["passes"], "axe found nothing to check"


@pytest.mark.parametrize("name", NAMES)
def test_a_page_keeps_its_colour_contrast_in_the_dark_scheme(
    tab: Any, addresses: dict[str, str], name: str
) -> None:
    tab.emulate_media(color_scheme="dark")
    _load(tab, addresses[name], name)
    assert tab.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is True
    response = _axe(tab, {"runOnly": {"type": "rule", "values": ["color-contrast"]}})
    assert _violations(response) == []
    assert [rule["id"] for rule in response["passes"]] == ["color-contrast"]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", NAMES)
def test_a_page_never_scrolls_sideways(
    tab: Any, addresses: dict[str, str], name: str, width: int
) -> None:
    tab.set_viewport_size({"width": width, "height": 800})
    _load(tab, addresses[name], name)
    scroll_width, inner_width = tab.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert inner_width == width
    assert scroll_width <= inner_width


@pytest.mark.parametrize("name", NAMES)
def test_a_pages_targets_are_big_enough_to_tap_on_a_phone(
    tab: Any, addresses: dict[str, str], name: str
) -> None:
    """axe-core's target-size rule (WCAG 2.2, 2.5.8: 24 by 24 pixels, or spaced apart) at 320."""
    tab.set_viewport_size({"width": 320, "height": 800})
    _load(tab, addresses[name], name)
    response = _axe(tab, {"runOnly": {"type": "rule", "values": ["target-size"]}})
    assert _violations(response) == []
    assert [rule["id"] for rule in response["passes"]] == ["target-size"]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_videos_title_leaves_its_play_button_clear(
    tab: Any, addresses: dict[str, str], width: int
) -> None:
    """The title laid over the poster never hides the play button, however narrow the page."""
    tab.set_viewport_size({"width": width, "height": 800})
    _load(tab, addresses["story"])
    button, title = tab.evaluate(
        """() => [document.querySelector('.video-play'), document.querySelector('.video-title')]
        .map((shown) => { const box = shown.getBoundingClientRect();
                          return {top: box.top, bottom: box.bottom}; })"""
    )
    assert button["bottom"] <= title["top"]
