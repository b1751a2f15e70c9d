"""Reading one story (docs/api.md#who-may-do-what and 4.2, docs/api.md#pagination,
docs/api.md#credentials, docs/api.md#stories)."""

from __future__ import annotations

import pytest

from storycore import ANONYMOUS, InvalidParameter, NotFound, Service, Viewer

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")


def _story(service: Service, viewer: Viewer, *, publish: bool = True, private: bool = False) -> str:
    story = {
        "title": "Read me",
        "private": private,
        "elements": [f"https://e.example/{i}" for i in range(5)],
    }
    return service.stories.create("alice", story, viewer=viewer, publish=publish).slug


def _views(service: Service, slug: str) -> int:
    service.flush_views()
    return next(i for i in service.catalog.search("read me").items if i.slug == slug).stats.views


def test_anyone_reads_a_published_public_story(service: Service, alice: Viewer) -> None:
    slug = _story(service, alice)
    assert service.stories.read("alice", slug).title == "Read me"


@pytest.mark.parametrize(("publish", "private"), [(False, False), (True, True), (False, True)])
def test_a_hidden_story_does_not_exist_for_strangers(
    service: Service, alice: Viewer, bob: Viewer, publish: bool, private: bool
) -> None:
    slug = _story(service, alice, publish=publish, private=private)
    for viewer in (ANONYMOUS, bob):
        with pytest.raises(NotFound):
            service.stories.read("alice", slug, viewer=viewer)


def test_the_author_and_editors_read_hidden_stories(
    service: Service, alice: Viewer, editor: Viewer
) -> None:
    slug = _story(service, alice, publish=False, private=True)
    assert service.stories.read("alice", slug, viewer=alice).private is True
    assert service.stories.read("alice", slug, viewer=editor).private is True


def test_usernames_in_paths_match_regardless_of_case(service: Service, alice: Viewer) -> None:
    slug = _story(service, alice)
    assert service.stories.read("ALICE", slug).author.username == "alice"


def test_elements_are_paginated_in_story_order(service: Service, alice: Viewer) -> None:
    slug = _story(service, alice)
    second = service.stories.open("alice", slug, page=2, per_page=2)
    assert [e.permalink for e in second.detail.elements] == [
        "https://e.example/2",
        "https://e.example/3",
    ]
    assert (second.detail.page, second.detail.per_page, second.has_next) == (2, 2, True)


def test_an_element_page_past_the_end_is_empty(service: Service, alice: Viewer) -> None:
    slug = _story(service, alice)
    past = service.stories.read("alice", slug, page=9)
    assert (past.elements, past.page) == ([], 9)


@pytest.mark.parametrize(("page", "per_page"), [(0, 20), (1, 0), (1, 101), ("x", 1), (-1, 5)])
def test_out_of_range_pagination_is_invalid_parameter(
    service: Service, alice: Viewer, page: object, per_page: object
) -> None:
    slug = _story(service, alice)
    with pytest.raises(InvalidParameter) as caught:
        service.stories.read("alice", slug, page=page, per_page=per_page)  # type: ignore[arg-type]
    assert caught.value.field in {"page", "per_page"}


def test_a_read_by_anyone_but_the_author_counts_as_a_view(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    slug = _story(service, alice)
    service.stories.read("alice", slug, viewer=bob)
    service.stories.read("alice", slug)
    service.stories.read("alice", slug, viewer=alice)
    assert _views(service, slug) == 2


def test_popularity_is_views_plus_five_likes_plus_ten_comments(
    service: Service, alice: Viewer
) -> None:
    slug = _story(service, alice)
    service.stories.read("alice", slug)
    service.flush_views()
    stats = next(i for i in service.catalog.search("read me").items if i.slug == slug).stats
    assert stats.popularity == stats.views + 5 * stats.likes + 10 * stats.comments == 1


def test_reading_an_unknown_story_is_not_found(service: Service, alice: Viewer) -> None:
    with pytest.raises(NotFound):
        service.stories.read("alice", "nothing-here")
    with pytest.raises(NotFound):
        service.stories.read("nobody", "nothing-here")
