"""A video's player in a real browser (docs/api.md#the-web-host): a click on the poster, on the
story page and in the embed, puts the player in its place, and the browser logs nothing.

The player is a fake served on 127.0.0.1 on an origin of its own, as a provider's is
(``Settings.video_players`` pointed at it), so the test asks no other host and what the console
says is the page's, not a provider's.
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
from tests.browser.conftest import HostPages

# Chromium and the servers start once, on one worker
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-video-player")]

VIDEO_ID = "abcdefgh"


@pytest.fixture(scope="module")
def story(player: str) -> Iterator[str]:
    """The address of a published story whose one element is a video that ``player`` plays;
    served by storycore in a thread."""
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
        draft = {"title": "A video", "slug": "a-video", "elements": [video]}
        viewer = service.accounts.as_user("alice")
        service.stories.create("alice", draft, viewer=viewer, publish=True)
        with in_thread(StorycoreASGI(service), sock):
            yield f"{base}/alice/a-video"


def _embedding(host_pages: HostPages, story: str) -> str:
    html = (
        "<!doctype html><html lang=en><title>host</title>"
        f'<body><script src="{story}.js"></script></body></html>'
    )
    return host_pages.put("/video-host.html", "text/html; charset=utf-8", html)


@pytest.mark.parametrize("where", ["page", "embed"])
def test_starting_a_video_logs_nothing_to_the_console(
    page: Any, host_pages: HostPages, story: str, player: str, where: str
) -> None:
    page.goto(story if where == "page" else _embedding(host_pages, story), wait_until="load")
    poster = page.locator("a.video-poster")
    assert poster.get_attribute("data-player") == player.format(id=VIDEO_ID)
    poster.click()
    frame = page.frame_locator("iframe.video-frame")
    frame.locator("text=playing").wait_for()
    page.wait_for_load_state("networkidle")
    assert [f"{m.type}: {m.text}" for m in page.console_messages_seen] == []
    assert page.page_errors_seen == []
