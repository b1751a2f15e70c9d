"""The pages of ``stats.embeds`` (docs/api.md#stories, docs/api.md#limits): a page is its
``Referer``'s
origin and path, only http(s) referers count, and a story keeps at most ``limits.embed_pages``
of them, the most viewed.
"""

from __future__ import annotations

import pytest

from storycore import Limits, Service, Settings, Viewer
from storycore.model.records import EmbedCount
from tests.conftest import TEST_SETTINGS

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

EMBED_PAGES = 3


@pytest.fixture
def storycore_settings() -> Settings:
    return TEST_SETTINGS.model_copy(update={"limits": Limits(embed_pages=EMBED_PAGES)})


@pytest.fixture
def story(service: Service, alice: Viewer) -> str:
    return service.stories.create("alice", {"title": "Embedded"}, viewer=alice, publish=True).slug


def _load(service: Service, slug: str, *referers: str | None) -> None:
    for referer in referers:
        service.embeds.script("alice", slug, referer=referer)


def _stats(service: Service) -> tuple[int, list[EmbedCount]]:
    service.flush_views()
    item = next(i for i in service.catalog.search("embedded").items if i.slug == "embedded")
    return item.stats.views, list(item.stats.embeds)


def test_a_page_is_the_referers_address_without_query_or_fragment(
    service: Service, story: str
) -> None:
    _load(
        service,
        story,
        "https://blog.example/post?utm_source=feed#comments",
        "https://blog.example/post?session=secret",
        "https://blog.example/post#top",
    )
    assert _stats(service)[1] == [EmbedCount(href="https://blog.example/post", views=3)]


def test_a_page_is_named_by_its_origin_without_credentials_case_or_default_port(
    service: Service, story: str
) -> None:
    _load(
        service,
        story,
        "https://user:secret@blog.example/post",
        "HTTPS://Blog.EXAMPLE:443/post",
        "http://blog.example:80/post",
        "http://blog.example:8080",
    )
    assert _stats(service)[1] == [
        EmbedCount(href="https://blog.example/post", views=2),
        EmbedCount(href="http://blog.example/post", views=1),
        EmbedCount(href="http://blog.example:8080/", views=1),
    ]


@pytest.mark.parametrize(
    "referer",
    [
        None,
        "",
        "ftp://files.example/page",
        "javascript:alert(1)",
        "data:text/html,hi",
        "about:blank",
        "/relative/page",
        "https://",
        "https://blog.example/a b",
    ],
)
def test_a_load_without_an_http_referer_is_a_view_of_no_page(
    service: Service, story: str, referer: str | None
) -> None:
    _load(service, story, referer)
    assert _stats(service) == (1, [])


def test_a_story_keeps_only_its_most_viewed_pages(service: Service, story: str) -> None:
    popular = [f"https://popular.example/{n}" for n in range(EMBED_PAGES - 1)]
    _load(service, story, *popular, *popular)
    _load(service, story, *(f"https://once.example/{n}" for n in range(10)))
    views, embeds = _stats(service)
    assert views == 2 * len(popular) + 10
    assert embeds == [
        *(EmbedCount(href=href, views=2) for href in popular),
        EmbedCount(href="https://once.example/9", views=1),
    ]
