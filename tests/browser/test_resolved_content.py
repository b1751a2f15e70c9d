"""What the online resolver fetched is text in a real browser too (docs/resolver.md:
provider text is text; an oEmbed ``html`` is never stored or shown): a story whose permalinks
point to hostile pages renders their titles and captions as written, and nothing of them runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from html import escape
from typing import Any

import pytest

from storycore import Service
from tests.browser.conftest import HostPages, StoryServer
from tests.browser.test_embed import HOSTILE, _host, _open
from tests.resolving.conftest import FakeSite, online_resolver, online_settings

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def hostile_site() -> Iterator[FakeSite]:
    """Pages whose metadata and oEmbed answer try to run code wherever they are shown."""
    site = FakeSite()
    # escaped twice: the page's own markup is taken out of provider text, but its entities
    # decode to text, so what is stored is HOSTILE itself, as characters to show
    meta = escape(escape(HOSTILE), quote=True)
    site.page(
        "/article",
        f'<meta property="og:title" content="{meta}">'
        f'<meta property="og:description" content="{meta}">',
    )
    site.page("/photo", '<link rel="alternate" type="application/json+oembed" href="/photo.json">')
    site.json(
        "/photo.json",
        {"type": "photo", "title": escape(HOSTILE), "url": site.url("/a.png"), "width": 10,
         "height": 10,
         "html": "<script>window.__pwned = 4</script>"},
    )  # fmt: skip
    yield site
    site.stop()


@pytest.fixture(scope="module")
def resolved_script(story_server: StoryServer, hostile_site: FakeSite) -> str:
    """The script address of a published story made through the online resolver, in the
    store the browser's server reads (reads never fetch)."""
    settings = online_settings(web_url=story_server.base, password_cost=2**4)
    online = Service(story_server.service.store, settings, resolver=online_resolver(settings))
    online.accounts.create_user("fetcher")
    story = {
        "title": "Resolved",
        "slug": "resolved",
        "elements": [hostile_site.url("/article"), hostile_site.url("/photo")],
    }
    created = online.stories.create(
        "fetcher", story, viewer=online.accounts.as_user("fetcher"), publish=True
    )
    assert created.slug == "resolved"
    return f"{story_server.base}/fetcher/resolved.js"


def test_resolved_hostile_content_shows_as_text_and_never_runs(
    page: Any, host_pages: HostPages, resolved_script: str
) -> None:
    _open(page, _host(host_pages, "resolved", [resolved_script]))
    page.wait_for_selector(".s-story .s-element-image", state="attached")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    shown = page.evaluate(
        "() => ({scripts: document.querySelectorAll('.s-story script').length,"
        " handlers: document.querySelectorAll('.s-story [onerror]').length,"
        " text: document.querySelector('.s-story').textContent})"
    )
    assert (shown["scripts"], shown["handlers"]) == (0, 0)
    # on one line, as provider text is stored: the link's title and description, the caption
    assert shown["text"].count(" ".join(HOSTILE.split())) == 3
