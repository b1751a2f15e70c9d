"""The pages under their security policy in a real browser (docs/api.md#the-web-host): Chromium
enforces each page's ``Content-Security-Policy`` (an inline script a page tried to run would be
refused), yet no page breaks it: a video poster still becomes its player on a click, the story
page's JSON-LD is data the policy lets be, the API reference shows its operations, and no page
logs anything or reports a violation.

The player is a fake served on 127.0.0.1 on an origin of its own, as a provider's is
(``Settings.video_players`` pointed at it), so the test asks no other host.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.listen import listening_socket
from storycore.rules.video_players import VideoPlayer
from tests._serve import in_thread

# Chromium and the servers start once, on one worker
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-page-policy")]

VIDEO_ID = "abcdefgh"
#: What the page reports of each violation of its policy, recorded from before its first script.
RECORD_VIOLATIONS = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.violations.push(`${event.effectiveDirective} ${event.blockedURI}`);
});
"""
#: The summary of ``GET /v1/stories/search`` in the document: an operation the viewer lists.
OPERATION = "Search public stories"
LOAD_TIMEOUT_MS = 20_000
NOT_FOUND_LOGGED = "Failed to load resource: the server responded with a status of 404 (Not Found)"
PAGES = {
    "front": "/",
    "author": "/alice",
    "topic": "/topics/harbour",
    "tag": "/tags/harbour",
    "search": "/search?q=video",
    "not found": "/alice/no-such-story",
}


@pytest.fixture(scope="module")
def site(player: str) -> Iterator[str]:
    """storycore served in a thread, holding a published story of a video that ``player``
    plays (``/alice/a-video``, topic and hashtag ``harbour``): its address."""
    from storycore.contrib.asgi import StorycoreASGI

    fake = VideoPlayer(
        name="Fake", patterns=(r"https://videos\.example/watch/([a-z]+)",), player=player
    )
    sock = listening_socket("127.0.0.1", 0)
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    settings = Settings(web_url=base, password_cost=2**4, video_players=(fake,))
    with Service(open_store("memory://"), settings) as service:
        service.accounts.create_user("alice")
        address = f"https://videos.example/watch/{VIDEO_ID}"
        video = {"type": "video", "permalink": address, "data": {"video": {"src": address}}}
        draft = {
            "title": "A video of the #harbour",
            "slug": "a-video",
            "description": "A video",
            "elements": [video],
            "topics": ["harbour"],
        }
        viewer = service.accounts.as_user("alice")
        service.stories.create("alice", draft, viewer=viewer, publish=True)
        with in_thread(StorycoreASGI(service), sock):
            yield base


def _open(page: Any, address: str) -> str:
    """Open ``address`` in ``page``, recording violations: the policy it was sent with."""
    page.add_init_script(RECORD_VIOLATIONS)
    response = page.goto(address, wait_until="load")
    policy: str = response.headers["content-security-policy"]
    return policy


def _said(page: Any) -> list[str]:
    """Everything the page logged, threw or reported as a violation of its policy."""
    return [
        *(f"{message.type}: {message.text}" for message in page.console_messages_seen),
        *(f"uncaught: {error}" for error in page.page_errors_seen),
        *(f"violation: {seen}" for seen in page.evaluate("window.violations")),
    ]


def test_the_browser_enforces_the_policy_of_a_page(page: Any, site: str) -> None:
    _open(page, f"{site}/alice/a-video")
    page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.ran = true";
          document.body.append(script);
        }"""
    )
    page.wait_for_function("window.violations.length > 0")
    assert page.evaluate("window.ran === undefined")
    assert page.evaluate("window.violations") == ["script-src-elem inline"]


def test_a_video_poster_becomes_its_player_under_the_policy(
    page: Any, site: str, player: str
) -> None:
    policy = _open(page, f"{site}/alice/a-video")
    assert "'unsafe-inline'" not in policy
    poster = page.locator("a.video-poster")
    assert poster.get_attribute("data-player") == player.format(id=VIDEO_ID)
    poster.click()
    page.frame_locator("iframe.video-frame").locator("text=playing").wait_for()
    page.wait_for_load_state("networkidle")
    assert _said(page) == []


def test_the_story_page_json_ld_is_data_the_policy_lets_be(page: Any, site: str) -> None:
    _open(page, f"{site}/alice/a-video")
    page.wait_for_load_state("networkidle")
    data = page.locator('script[type="application/ld+json"]').text_content()
    assert '"@type":"Article"' in data.replace(" ", "")
    assert _said(page) == []


@pytest.mark.parametrize("path", PAGES.values(), ids=PAGES.keys())
def test_every_page_is_whole_under_the_policy(page: Any, site: str, path: str) -> None:
    policy = _open(page, site + path)
    assert policy.startswith("default-src 'self'; script-src 'self'")
    page.wait_for_load_state("networkidle")
    # the inlined stylesheet applies (allowed by its hash): the page's column has its width
    # (the reading column's 720 px, or the front page's 1,200 on a wide screen), not none
    width = page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth")
    assert width in {"720px", "1200px"}
    said = _said(page)
    if path == PAGES["not found"]:  # the browser logs the page's own status
        said.remove(f"error: {NOT_FOUND_LOGGED}")
    assert said == []


def test_the_api_reference_renders_under_the_policy(page: Any, site: str) -> None:
    pytest.importorskip("swagger_ui", reason="the apidocs extra is not installed")
    policy = _open(page, f"{site}/docs/api")
    assert "'unsafe-eval'" not in policy
    page.get_by_text(OPERATION, exact=True).wait_for(timeout=LOAD_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    assert len(page.locator(".opblock-summary-description").all_inner_texts()) > 20
    assert _said(page) == []
