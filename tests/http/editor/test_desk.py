"""The writer's desk (docs/editor.md#the-writers-desk): their own stories, latest change first,
each with its state and links; starting a new story; what every editor page answers with; and
the words the editor's paths take from usernames and slugs."""

from __future__ import annotations

import re

import pytest

from storycore import Service
from storycore.errors import InvalidParameter
from storycore.model.visibility import Viewer
from storycore.testing import ManualClock
from tests.http.editor._editor import SESSION, WEB_URL, browser, post_form, signed_in

_ITEM = re.compile(r'<li class="desk-item">(.*?)</li>', re.S)


@pytest.fixture
def storycore_clock() -> ManualClock:
    return ManualClock()


def _items(page: str) -> list[str]:
    """The stories a desk page lists, in order: each item's HTML."""
    return _ITEM.findall(page)


def _title(item: str) -> str:
    found = re.search(r'<h3 class="desk-title"><a href="[^"]+">([^<]*)</a>', item)
    assert found is not None, item
    return found.group(1)


def test_the_desk_lists_working_scheduled_and_published_stories_latest_change_first(
    service: Service, storycore_clock: ManualClock, alice: Viewer
) -> None:
    stories = service.stories
    stories.create("alice", {"title": "Out now", "slug": "out"}, viewer=alice, publish=True)
    storycore_clock.advance(60)
    stories.create("alice", {"title": "Still writing", "slug": "writing"}, viewer=alice)
    storycore_clock.advance(60)
    stories.create("alice", {"title": "Coming soon", "slug": "soon"}, viewer=alice)
    stories.save("alice", "soon", {}, viewer=alice, publish_at="2026-12-01T09:30:00Z")
    storycore_clock.advance(60)
    stories.save("alice", "writing", {"description": "Changed last"}, viewer=alice)

    with signed_in(service, "alice") as client:
        items = _items(client.get("/me").text)

    assert [_title(item) for item in items] == ["Still writing", "Coming soon", "Out now"]
    writing, soon, out = items
    assert "Scheduled for 1 December 2026 at 09:30 UTC" in soon
    assert "Not published" in writing
    assert "Published" in out
    for item, slug in ((soon, "soon"), (writing, "writing"), (out, "out")):
        assert f'href="{WEB_URL}/alice/{slug}/edit"' in item
        assert f'href="{WEB_URL}/alice/{slug}/preview"' in item
    assert f'href="{WEB_URL}/alice/out"' in out
    assert f'href="{WEB_URL}/alice/writing"' not in writing  # no page before it is published


def test_the_desk_is_paginated(
    service: Service, storycore_clock: ManualClock, alice: Viewer
) -> None:
    for number in range(21):
        storycore_clock.advance(1)
        service.stories.create("alice", {"title": f"Story {number}"}, viewer=alice)

    with signed_in(service, "alice") as client:
        first = client.get("/me")
        second = client.get("/me", params={"page": "2"})
        beyond = client.get("/me", params={"page": "3"})

    assert len(_items(first.text)) == 20
    assert _title(_items(first.text)[0]) == "Story 20"
    assert f'href="{WEB_URL}/me?page=2" rel="next"' in first.text
    assert [_title(item) for item in _items(second.text)] == ["Story 0"]
    assert beyond.status_code == 404


def test_the_desk_shows_nobody_elses_stories(service: Service, alice: Viewer, bob: Viewer) -> None:
    service.stories.create("bob", {"title": "Bob's public story"}, viewer=bob, publish=True)
    service.stories.create("bob", {"title": "Bob's draft"}, viewer=bob)
    service.stories.create("alice", {"title": "Alice's draft"}, viewer=alice)

    with signed_in(service, "alice") as client:
        items = _items(client.get("/me").text)

    assert [_title(item) for item in items] == ["Alice&#39;s draft"]


def test_a_new_story_is_a_working_story_opened_in_its_editor(
    service: Service, alice: Viewer
) -> None:
    with signed_in(service, "alice") as client:
        started = post_form(client, "/me/new", {"title": "Fog in the harbour"})

    [story] = service.catalog.user("alice", viewer=alice).items
    assert story.title == "Fog in the harbour"
    assert story.status == "working"
    assert started.status_code == 303
    assert started.headers["location"] == f"{WEB_URL}/alice/{story.slug}/edit?done=created"


def test_where_the_host_application_signs_writers_in_the_desk_is_its_users(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    service.stories.create("bob", {"title": "Bob's draft"}, viewer=bob)

    with browser(service, editor_user=lambda request: request.header("x-user")) as client:
        desk = client.get("/me", headers={"X-User": "bob"})
        nobody = client.get("/me")

    assert [_title(item) for item in _items(desk.text)] == ["Bob&#39;s draft"]
    assert SESSION not in desk.text
    assert nobody.status_code == 404  # no sign-in of storycore to send them to


@pytest.mark.parametrize("path", ["/me", "/signin", "/me/profile"])
def test_an_editor_page_is_never_stored_indexed_or_framed(
    service: Service, alice: Viewer, path: str
) -> None:
    with signed_in(service, "alice") as client:
        page = client.get(path)

    assert page.headers["cache-control"] == "no-store"
    assert page.headers["x-robots-tag"] == "noindex"
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]


@pytest.mark.parametrize("word", ["me", "signin", "signout"])
def test_the_editors_words_are_no_usernames(service: Service, word: str) -> None:
    with pytest.raises(InvalidParameter):
        service.accounts.create_user(word, "a-password")


@pytest.mark.parametrize("word", ["edit", "preview", "history"])
def test_the_words_after_a_slug_are_no_slugs(service: Service, alice: Viewer, word: str) -> None:
    api_key = service.accounts.create_app("tests").api_key
    token = service.accounts.authenticate(api_key, "alice", "alice-password").token

    with browser(service) as client:
        created = client.post(
            "/v1/stories/alice/create",
            headers={"Authorization": f"Bearer {token}"},
            json={"story": {"title": "A story", "slug": word}},
        )

    assert created.status_code == 400
    assert created.json()["error"]["type"] == "invalid_slug"
