"""The sitemap's addresses (docs/api.md#crawlers): the front page, the authors of public,
indexed stories, then those stories, any slice of them read in pages of any size."""

from __future__ import annotations

import pytest

from storycore import Service, Viewer
from storycore.usecases.sitemap import SitemapEntry

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")


@pytest.fixture
def written(service: Service, alice: Viewer, bob: Viewer) -> Service:
    for viewer, titles in ((alice, ("One", "Two", "Three")), (bob, ("Four", "Five"))):
        for title in titles:
            service.stories.create(
                viewer.user.username if viewer.user else "",
                {"title": title},
                viewer=viewer,
                publish=True,
            )
    service.stories.create("alice", {"title": "Draft"}, viewer=alice)
    return service


def test_the_sitemap_is_the_front_page_the_authors_then_their_stories(written: Service) -> None:
    entries = list(written.sitemap.entries(0, 100))
    assert entries[0] == SitemapEntry()
    assert {(e.username, e.slug) for e in entries[1:3]} == {("alice", None), ("bob", None)}
    assert sorted(e.slug for e in entries[3:] if e.slug) == ["five", "four", "one", "three", "two"]
    assert written.sitemap.size() == len(entries) == 8


@pytest.mark.parametrize("read_size", [1, 2, 3, 100])
def test_every_slice_of_the_sitemap_is_that_slice_of_the_whole(
    written: Service, read_size: int
) -> None:
    whole = list(written.sitemap.entries(0, 100))
    for offset in range(len(whole) + 1):
        for limit in range(len(whole) + 2 - offset):
            part = list(written.sitemap.entries(offset, limit, read_size=read_size))
            assert part == whole[offset : offset + limit], (offset, limit)
