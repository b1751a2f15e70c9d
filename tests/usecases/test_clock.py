"""The service's clock (``Service(store, settings, clock=...)``, ``storycore.clocks``) says what
time it is for every time the service writes and every rule about time: a story's, a user's and
an application's times, a token's issue and expiry, and whether a token has expired."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storycore import Service, Unauthorized, Viewer
from storycore.model.records import StoryRecord
from storycore.rules.credentials import digest
from storycore.testing import ManualClock

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

START = datetime(2026, 3, 1, 9, tzinfo=UTC)
AT_START = "2026-03-01T09:00:00.000Z"
MILLISECOND = timedelta(milliseconds=1)


@pytest.fixture
def storycore_clock() -> ManualClock:
    """The service's time: ``START`` until a test moves it."""
    return ManualClock(start=START)


def _stored(service: Service, slug: str) -> StoryRecord:
    author = service.store.users.get_by_username("alice")
    assert author is not None
    story = service.store.stories.get_by_slug(author.id, slug)
    assert story is not None
    return story


def test_a_story_is_created_saved_and_published_at_the_clocks_time(
    service: Service, alice: Viewer, storycore_clock: ManualClock
) -> None:
    slug = service.stories.create("alice", {"title": "Tide"}, viewer=alice).slug
    storycore_clock.advance(1.5)
    service.stories.save("alice", slug, {"description": "Low"}, viewer=alice)
    storycore_clock.advance(minutes=1)
    service.stories.publish("alice", slug, viewer=alice)
    story = _stored(service, slug)
    assert (story.created, story.updated, story.published) == (
        AT_START,
        "2026-03-01T09:01:01.500Z",
        "2026-03-01T09:01:01.500Z",
    )


def test_a_slug_change_and_a_feature_are_dated_by_the_clock(
    service: Service, alice: Viewer, curator: Viewer, storycore_clock: ManualClock
) -> None:
    slug = service.stories.create("alice", {"title": "Tide"}, viewer=alice, publish=True).slug
    storycore_clock.advance(hours=2)
    service.stories.feature("alice", slug, viewer=curator)
    storycore_clock.advance(hours=1)
    service.stories.change_slug("alice", slug, "tides", viewer=alice)
    story = _stored(service, "tides")
    assert (story.featured_at, story.updated) == (
        "2026-03-01T11:00:00.000Z",
        "2026-03-01T12:00:00.000Z",
    )


def test_users_and_applications_are_made_and_changed_at_the_clocks_time(
    service: Service, storycore_clock: ManualClock
) -> None:
    service.accounts.create_user("carol", "carol-password")
    app = service.accounts.create_app("reader").app
    storycore_clock.advance(days=1)
    carol = service.accounts.as_user("carol")
    service.accounts.update("carol", {"bio": "Tides"}, viewer=carol)
    user = service.store.users.get_by_username("carol")
    assert user is not None
    assert (user.created, user.updated, app.created) == (
        AT_START,
        "2026-03-02T09:00:00.000Z",
        AT_START,
    )


def test_a_token_is_issued_at_the_clocks_time_and_expires_a_lifetime_later(
    service: Service, storycore_clock: ManualClock
) -> None:
    service.accounts.create_user("carol", "carol-password")
    key = service.accounts.create_app("reader").api_key
    storycore_clock.advance(10)
    token = service.accounts.authenticate(key, "carol", "carol-password").token
    record = service.store.tokens.get(digest(token))
    user = service.store.users.get_by_username("carol")
    assert record is not None
    assert user is not None
    assert (record.created, record.expires, user.last_seen) == (
        "2026-03-01T09:00:10.000Z",
        "2026-03-31T09:00:10.000Z",  # the default lifetime, 30 days
        "2026-03-01T09:00:10.000Z",
    )


def test_a_token_is_accepted_until_its_lifetime_has_passed_on_the_clock(
    service: Service, storycore_clock: ManualClock
) -> None:
    service.accounts.create_user("carol", "carol-password")
    key = service.accounts.create_app("reader").api_key
    token = service.accounts.authenticate(key, "carol", "carol-password").token
    storycore_clock.advance(service.settings.token_lifetime - MILLISECOND)
    assert service.accounts.viewer(key, "carol", token).user is not None
    assert service.accounts.bearer(token).user is not None
    storycore_clock.advance(MILLISECOND)
    with pytest.raises(Unauthorized, match="expired"):
        service.accounts.viewer(key, "carol", token)
    with pytest.raises(Unauthorized, match="expired"):
        service.accounts.bearer(token)


def test_authenticating_removes_the_tokens_the_clock_says_have_expired(
    service: Service, storycore_clock: ManualClock
) -> None:
    service.accounts.create_user("carol", "carol-password")
    key = service.accounts.create_app("reader").api_key
    old = service.accounts.authenticate(key, "carol", "carol-password").token
    storycore_clock.advance(1)
    kept = service.accounts.authenticate(key, "carol", "carol-password").token
    storycore_clock.advance(service.settings.token_lifetime - timedelta(seconds=1))
    service.accounts.authenticate(key, "carol", "carol-password")
    assert service.store.tokens.get(digest(old)) is None  # expired exactly now
    assert service.store.tokens.get(digest(kept)) is not None  # one second to go


def test_a_service_at_another_address_reads_the_same_clock(service: Service) -> None:
    assert service.at("https://elsewhere.example").clock is service.clock
