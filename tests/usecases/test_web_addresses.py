"""A service's answers at another web host (``Service.at``, docs/api.md#credentials), and the
site's name (``Settings.site_name``, docs/decisions.md): configured, or the web address's host."""

from __future__ import annotations

import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.errors import NotFound
from storycore.presentation import pages
from storycore.settings import DEFAULT_WEB_URL, Settings


def _published(service: Service) -> str:
    """alice's public story ``hi``; its id."""
    service.accounts.create_user("alice", "a-password")
    alice = service.accounts.as_user("alice")
    return service.stories.create("alice", {"title": "Hi"}, viewer=alice, publish=True).id


def test_without_a_configured_web_url_python_calls_answer_the_default(service: Service) -> None:
    assert service.embeds.shortlink(_published(service)) == f"{DEFAULT_WEB_URL}/alice/hi"


def test_a_service_at_another_address_answers_addresses_under_it(service: Service) -> None:
    story_id = _published(service)
    there = service.at("https://example.org/stories/")
    assert there.embeds.shortlink(story_id) == "https://example.org/stories/alice/hi"


def test_a_service_at_another_address_reads_permalinks_under_it(service: Service) -> None:
    _published(service)
    permalink = "https://example.org/stories/alice/hi"
    assert service.at("https://example.org/stories").embeds.oembed(permalink)["type"] == "rich"
    with pytest.raises(NotFound):
        service.embeds.oembed(permalink)


def test_a_service_at_another_address_shares_the_store(service: Service) -> None:
    _published(service)
    there = service.at("https://example.org")
    assert [story.slug for story in there.catalog.latest().items] == ["hi"]


def test_a_service_at_its_own_address_is_itself(service: Service) -> None:
    assert service.at(service.web_url + "/") is service


def _named(**settings: str) -> Service:
    return Service(open_store("memory://"), Settings(password_cost=2**4, **settings))


def test_the_site_is_named_by_the_web_url_s_host_by_default() -> None:
    assert _named(web_url="https://news.example:8443/stories").site_name == "news.example:8443"


def test_a_configured_site_name_names_the_site() -> None:
    named = _named(web_url="https://news.example", site_name="Harbour News")
    assert named.site_name == "Harbour News"


def test_a_service_at_another_address_is_named_by_its_host() -> None:
    assert _named().at("https://example.org/stories").site_name == "example.org"


def test_a_configured_site_name_names_the_site_at_any_address() -> None:
    assert _named(site_name="Harbour News").at("https://example.org").site_name == "Harbour News"


def test_the_story_page_names_the_site_in_og_site_name() -> None:
    named = _named(web_url="https://news.example", site_name="Harbour <News>")
    _published(named)
    shown = named.embeds.page("alice", "hi")
    page = pages.story_page(
        pages.Site(named.web_url, named.site_name),
        author=shown.author,
        story=shown.story,
        elements=shown.elements,
        page=shown.page,
        has_next=shown.has_next,
    )
    assert '<meta property="og:site_name" content="Harbour &lt;News&gt;">' in page


def test_the_embed_names_the_site() -> None:
    named = _named(web_url="https://news.example", site_name="Harbour News")
    _published(named)
    assert "Read on Harbour News" in named.embeds.script("alice", "hi")


def test_oembed_names_the_site_as_its_provider() -> None:
    named = _named(web_url="https://news.example", site_name="Harbour News")
    _published(named)
    answer = named.embeds.oembed("https://news.example/alice/hi")
    assert (answer["provider_name"], answer["provider_url"]) == (
        "Harbour News",
        "https://news.example",
    )
