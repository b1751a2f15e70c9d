"""What real v1 clients send, through the service (docs/api.md#calls-and-answers): protocol-relative
addresses wherever an address is read, and the ``username`` those clients send on every call,
with or without a ``_token``."""

from __future__ import annotations

import pytest

from storycore import Service, Unauthorized, Viewer

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")


def test_a_protocol_relative_website_and_avatar_are_taken_as_https(
    service: Service, alice: Viewer
) -> None:
    profile = service.accounts.update(
        "alice", {"website": "//alice.example", "avatar": "//img.example/a.png"}, viewer=alice
    )
    assert (profile.website, profile.avatar) == (
        "https://alice.example",
        "https://img.example/a.png",
    )


def test_a_protocol_relative_application_address_is_taken_as_https(service: Service) -> None:
    made = service.accounts.create_app("ruby", href="//ruby.example")
    assert made.app.href == "https://ruby.example"


def test_a_protocol_relative_story_thumbnail_is_stored_as_https(
    service: Service, alice: Viewer
) -> None:
    created = service.stories.create("alice", {"thumbnail": "//img.example/t.jpg"}, viewer=alice)
    assert service.stories.read("alice", created.slug, viewer=alice).thumbnail == (
        "https://img.example/t.jpg"
    )


def test_a_username_without_a_token_names_only_the_application(
    service: Service, alice: Viewer
) -> None:
    app = service.accounts.create_app("ruby")
    viewer = service.accounts.viewer(app.api_key, "alice", None)
    assert (viewer.user, viewer.app) == (None, app.app)


def test_a_username_without_a_token_still_needs_a_known_api_key(
    service: Service, alice: Viewer
) -> None:
    with pytest.raises(Unauthorized) as caught:
        service.accounts.viewer("not-a-key", "alice", None)
    assert caught.value.field == "api_key"


def test_a_username_without_a_token_may_not_write(service: Service, alice: Viewer) -> None:
    app = service.accounts.create_app("ruby")
    viewer = service.accounts.viewer(app.api_key, "alice", None)
    with pytest.raises(Unauthorized):
        service.stories.create("alice", {"title": "Hello"}, viewer=viewer)
