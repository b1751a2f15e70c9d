"""Writes resolve what their permalinks point to, and stories keep it (docs/resolver.md):
through the service, with the real fetcher, against fake sites on 127.0.0.1.

A write resolves its permalinks concurrently (at most 8 at once, 3 s each, 5 s in all) and never
fails because of resolving; reads never fetch, so a story outlives what it quotes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from storycore import ConfigurationError, InvalidParameter, Service
from storycore.adapters import open_store
from storycore.resolving.online_resolver import OnlineResolver
from tests.resolving.conftest import FakeSite, online_resolver, online_settings

ServiceWith = Callable[[OnlineResolver], Service]


def _article(site: FakeSite, path: str, title: str, **reply: Any) -> str:
    return site.page(path, f'<meta property="og:title" content="{title}">', **reply)


def _create(service: Service, elements: list[Any]) -> str:
    alice = service.accounts.as_user("alice")
    story = {"title": "Quoted", "elements": elements}
    return service.stories.create("alice", story, viewer=alice, publish=True).slug


def _elements(service: Service, slug: str) -> list[dict[str, Any]]:
    read = service.stories.read("alice", slug).to_json_dict()
    return list(read["elements"])


def test_a_create_stores_what_its_permalinks_point_to(
    site: FakeSite, service_with: ServiceWith
) -> None:
    service = service_with(online_resolver(online_settings()))
    slug = _create(service, [_article(site, "/a", "First"), _article(site, "/b", "Second")])
    titles = [e["data"]["link"]["title"] for e in _elements(service, slug)]
    assert titles == ["First", "Second"]


def test_a_story_keeps_what_it_quotes_after_the_site_is_gone(
    site: FakeSite, service_with: ServiceWith
) -> None:
    service = service_with(online_resolver(online_settings()))
    slug = _create(service, [_article(site, "/a", "Kept")])
    site.stop()
    assert _elements(service, slug)[0]["data"]["link"]["title"] == "Kept"


def test_a_read_never_fetches(site: FakeSite, service_with: ServiceWith) -> None:
    service = service_with(online_resolver(online_settings()))
    slug = _create(service, [_article(site, "/a", "Once")])
    for _ in range(3):
        _elements(service, slug)
    assert site.requests == ["/a"]


def test_a_save_resolves_the_permalinks_it_adds(site: FakeSite, service_with: ServiceWith) -> None:
    service = service_with(online_resolver(online_settings()))
    slug = _create(service, [])
    alice = service.accounts.as_user("alice")
    service.stories.save("alice", slug, {"elements": [_article(site, "/a", "Added")]}, viewer=alice)
    assert _elements(service, slug)[0]["data"]["link"]["title"] == "Added"


def test_an_element_sent_with_only_its_permalink_is_resolved(
    site: FakeSite, service_with: ServiceWith
) -> None:
    service = service_with(online_resolver(online_settings()))
    slug = _create(service, [{"type": "link", "permalink": _article(site, "/a", "Object")}])
    assert _elements(service, slug)[0]["data"]["link"]["title"] == "Object"


def test_an_element_that_says_what_it_is_is_not_fetched(
    site: FakeSite, service_with: ServiceWith
) -> None:
    service = service_with(online_resolver(online_settings()))
    url = _article(site, "/a", "Fetched")
    element = {"type": "link", "permalink": url, "data": {"link": {"title": "Mine"}}}
    slug = _create(service, [element])
    assert _elements(service, slug)[0]["data"]["link"]["title"] == "Mine"
    assert site.requests == []


def test_a_write_that_is_refused_fetches_nothing(site: FakeSite, service_with: ServiceWith) -> None:
    service = service_with(online_resolver(online_settings()))
    with pytest.raises(InvalidParameter):
        _create(service, [_article(site, "/a", "Never"), "javascript:alert(1)"])
    assert site.requests == []


def test_a_create_with_twenty_permalinks_that_never_answer_answers_within_the_budget(
    site: FakeSite, service_with: ServiceWith
) -> None:
    service = service_with(online_resolver(online_settings()))
    permalinks = [site.page(f"/hang/{n}", "", hang=True) for n in range(20)]
    slug = _create(service, permalinks)
    assert site.in_flight == len(site.requests)  # answered while every fetch still hangs
    elements = _elements(service, slug)
    assert [e["permalink"] for e in elements] == permalinks
    assert all(e["data"]["link"] == {"title": "", "description": "", "thumbnail": ""}
               for e in elements)  # fmt: skip


def test_twenty_permalinks_are_fetched_side_by_side(
    site: FakeSite, service_with: ServiceWith
) -> None:
    """The site holds every answer until eight fetches are in flight at once: the titles come
    only when the fetches go side by side."""
    generous = online_settings(resolver_timeout=30, resolver_budget=60)
    service = service_with(online_resolver(generous))
    permalinks = [_article(site, f"/held/{n}", f"Held {n}", gather=8) for n in range(20)]
    slug = _create(service, permalinks)
    titles = [e["data"]["link"]["title"] for e in _elements(service, slug)]
    assert titles == [f"Held {n}" for n in range(20)]
    assert site.most_at_once == 8


def test_at_most_eight_permalinks_are_fetched_at_once(
    site: FakeSite, service_with: ServiceWith
) -> None:
    service = service_with(online_resolver(online_settings()))
    permalinks = [_article(site, f"/slow/{n}", f"Slow {n}", delay=0.2) for n in range(16)]
    _create(service, permalinks)
    assert site.most_at_once <= 8


def test_an_online_service_without_a_fetcher_is_a_configuration_error() -> None:
    store = open_store("memory://")
    try:
        with pytest.raises(ConfigurationError, match="OnlineResolver"):
            Service(store, online_settings())
    finally:
        store.close()
