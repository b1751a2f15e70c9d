"""A story whose pictures are all kept asks no other host for anything
(docs/media.md#where-kept-pictures-show): its pictures come from a source server on 127.0.0.1,
the keeper keeps them, the source server stops; then the story page, the embed on a host page,
the feed and oEmbed show every picture, and the browser asks only the web host (and the host
page's own origin) for anything."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree

import orjson
import pytest

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.fetch import HttpFetcher
from storycore.contrib.listen import listening_socket
from tests._kept_pictures import png
from tests._serve import in_thread
from tests.browser.conftest import HostPages
from tests.resolving.conftest import FakeSite, Reply

# Chromium and the servers start once, on one worker
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-kept")]

#: each picture the story shows, by its path on the source server, and its colour
SOURCES = {"/thumbnail.png": "teal", "/avatar.png": "navy", "/image.png": "olive",
           "/quoted.png": "maroon", "/video.png": "purple", "/link.png": "gray"}  # fmt: skip


@dataclass
class KeptStory:
    """The web host's address and the story's path, every picture of it kept."""

    base: str
    path: str
    sources: list[str]


@pytest.fixture(scope="module")
def kept_story(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KeptStory]:
    from storycore.contrib.asgi import StorycoreASGI

    source = FakeSite()
    for path, colour in SOURCES.items():
        source.replies[path] = Reply(png(800, 500, colour), content_type="image/png")
    url = {path: source.url(path) for path in SOURCES}
    sock = listening_socket("127.0.0.1", 0)
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    db = tmp_path_factory.mktemp("kept") / "stories.db"
    settings = Settings(
        web_url=base, password_cost=2**4, keep_media=True, resolver_allowed_hosts=("127.0.0.1",)
    )
    fetcher = HttpFetcher(allowed_hosts=settings.resolver_allowed_hosts)
    service = Service(open_store(f"sqlite:///{db}"), settings, picture_fetcher=fetcher)
    service.accounts.create_user("bob", name="Bob", avatar=url["/avatar.png"])
    elements: list[Any] = [
        {"type": "text", "data": {"text": "<p>Every picture kept</p>"}},
        {"type": "image", "data": {"image": {"src": url["/image.png"], "caption": "Olive"}}},
        {
            "type": "quote",
            "permalink": "https://social.example/q/1",
            "attribution": {"name": "Quoted", "thumbnail": url["/quoted.png"]},
            "data": {"quote": {"text": "Said so"}},
        },
        {
            "type": "video",
            "permalink": "https://video.example/v/1",
            "data": {"video": {"src": "https://video.example/v/1", "thumbnail": url["/video.png"]}},
        },
        {
            "type": "link",
            "permalink": "https://news.example/a",
            "data": {"link": {"title": "A page", "thumbnail": url["/link.png"]}},
        },
    ]
    story = {"title": "Kept", "thumbnail": url["/thumbnail.png"], "elements": elements}
    bob = service.accounts.as_user("bob")
    slug = service.stories.create("bob", story, viewer=bob, publish=True).slug
    assert service.keep_media() == len(SOURCES)
    source.stop()
    kept = service.store.kept_sources.get_many(url.values())
    assert {record.state for record in kept.values()} == {"kept"}
    with in_thread(StorycoreASGI(service, deliver=False, schedule=False), sock):
        yield KeptStory(base, f"/bob/{slug}", list(url.values()))
    service.close()


def _asked(page: Any) -> list[str]:
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    return asked


def _every_picture_shown(page: Any, count: int) -> None:
    """Each ``<img>`` (in a shadow root too, as a quote's) scrolled into view, for a lazy one
    loads then, until each of them, at least ``count``, is drawn."""
    pictures = page.locator("img").all()
    assert len(pictures) >= count
    for img in pictures:
        img.scroll_into_view_if_needed()
        drawn = "img => img.complete && img.naturalWidth > 0"
        page.wait_for_function(drawn, arg=img.element_handle())


def test_a_story_page_of_kept_pictures_asks_only_the_web_host(
    page: Any, kept_story: KeptStory
) -> None:
    asked = _asked(page)
    page.goto(kept_story.base + kept_story.path)
    _every_picture_shown(page, len(SOURCES))  # the lead, the avatar (twice), four elements'
    assert [url for url in asked if not url.startswith(kept_story.base + "/")] == []
    assert len([url for url in asked if "/media/" in url]) >= len(SOURCES)


def test_the_embed_of_kept_pictures_asks_only_its_host_and_the_web_host(
    page: Any, kept_story: KeptStory, host_pages: HostPages
) -> None:
    script = f"{kept_story.base}{kept_story.path}.js"
    host = host_pages.put(
        "/kept.html",
        "text/html; charset=utf-8",
        '<!doctype html><html lang="en"><title>Host</title><p>Host</p>'
        f'<script src="{script}"></script>',
    )
    asked = _asked(page)
    page.goto(host)
    page.wait_for_selector(".s-story img", state="attached")
    _every_picture_shown(page, len(SOURCES) - 1)  # no lead picture in the embed
    origins = (kept_story.base + "/", host_pages.base + "/")
    assert [url for url in asked if not url.startswith(origins)] == []


def _fetched(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.headers["Content-Type"], answer.read()


def test_the_feed_and_oembed_show_the_kept_thumbnail(kept_story: KeptStory) -> None:
    _, feed = _fetched(f"{kept_story.base}/feed.atom")
    (thumbnail,) = ElementTree.fromstring(feed).iter("{http://search.yahoo.com/mrss/}thumbnail")
    permalink = kept_story.base + kept_story.path
    _, answer = _fetched(f"{kept_story.base}/v1/oembed?url={permalink}")
    oembed = orjson.loads(answer)
    for shown in (thumbnail.attrib["url"], oembed["thumbnail_url"]):
        assert shown.startswith(f"{kept_story.base}/media/")
        assert _fetched(shown)[0] == "image/webp"
    assert (oembed["thumbnail_width"], oembed["thumbnail_height"]) == (800, 500)
    assert (thumbnail.attrib["width"], thumbnail.attrib["height"]) == ("800", "500")
