"""The ``Referer`` of an embed load names the page counted in ``stats.embeds`` (docs/api.md#stories,
docs/api.md#limits), through ``HttpApp``.
"""

from __future__ import annotations

from storycore.model.records import EmbedCount
from tests.http._clients import Client
from tests.http.conftest import World


def test_the_referer_header_names_the_page_an_embed_was_loaded_from(
    client: Client, world: World
) -> None:
    for referer in ("https://blog.example/post?session=1#c", "javascript:alert(1)"):
        assert client.get("/alice/open.js", headers={"Referer": referer}).status == 200
    client.get("/alice/open.js")
    world.service.flush_views()
    story = world.service.catalog.search("harbour").items[0]
    assert (story.slug, story.stats.embeds) == (
        "open",
        [EmbedCount(href="https://blog.example/post", views=1)],
    )
