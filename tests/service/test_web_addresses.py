"""A service's answers at another web host (``Service.at``, decisions section 15)."""

from __future__ import annotations

import pytest

from storycore import Service
from storycore.errors import NotFound
from storycore.settings import DEFAULT_WEB_URL


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
