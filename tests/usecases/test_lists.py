"""Lists, filters and sorting (docs/api.md#lists-filters-sorting-and-search, docs/api.md#pagination,
docs/api.md#lists-filters-sorting-and-search)."""

from __future__ import annotations

import pytest

from storycore import InvalidParameter, Service, Viewer
from storycore.testing import ManualClock
from tests._clocks import later

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")


@pytest.fixture
def storycore_clock() -> ManualClock:
    """The service's time, moved by hand: each story is published a second after the last."""
    return ManualClock()


def _publish(service: Service, viewer: Viewer, title: str, **members: object) -> str:
    slug = service.stories.create(
        viewer.user.username if viewer.user else "",
        {"title": title, **members},
        viewer=viewer,
        publish=True,
    ).slug
    later(service)  # the next publication is a second later
    return slug


def test_public_lists_hold_published_stories_that_are_not_private(
    service: Service, alice: Viewer
) -> None:
    shown = _publish(service, alice, "shown")
    _publish(service, alice, "private", private=True)
    service.stories.create("alice", {"title": "draft"}, viewer=alice)
    for page in (service.catalog.stories(), service.catalog.latest(), service.catalog.popular()):
        assert [s.slug for s in page.items] == [shown]


def test_latest_is_newest_publication_first(service: Service, alice: Viewer) -> None:
    slugs = [_publish(service, alice, f"s{i}") for i in range(3)]
    assert [s.slug for s in service.catalog.latest().items] == slugs[::-1]


def test_sort_and_order_choose_the_order(service: Service, alice: Viewer) -> None:
    for title in ("banana", "Apple", "cherry"):
        _publish(service, alice, title)
    ascending = service.catalog.stories(sort="title", order="asc").items
    assert [s.title for s in ascending] == ["Apple", "banana", "cherry"]


@pytest.mark.parametrize(("sort", "order"), [("nope", None), (None, "sideways")])
def test_unknown_sort_or_order_is_invalid_parameter(
    service: Service, sort: str | None, order: str | None
) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.catalog.stories(sort=sort, order=order)
    assert caught.value.field in {"sort", "order"}


def test_popular_is_most_popular_first(service: Service, alice: Viewer, bob: Viewer) -> None:
    quiet = _publish(service, alice, "quiet")
    loud = _publish(service, alice, "loud")
    for _ in range(3):
        service.stories.read("alice", quiet, viewer=bob)
    service.flush_views()
    assert [s.slug for s in service.catalog.popular().items] == [quiet, loud]


def test_tag_filters_case_insensitively_with_or_without_hash(
    service: Service, alice: Viewer
) -> None:
    tagged = _publish(service, alice, "About #Python")
    _publish(service, alice, "Other", hashtags=["rust"])
    for tag in ("python", "#PYTHON"):
        assert [s.slug for s in service.catalog.stories(tag=tag).items] == [tagged]


def test_a_hash_word_in_any_script_is_the_tag_its_filter_and_search_find(
    service: Service, alice: Viewer
) -> None:
    tagged = _publish(service, alice, "Notes #हिन्दी")
    assert [s.slug for s in service.catalog.stories(tag="हिन्दी").items] == [tagged]
    assert [s.slug for s in service.catalog.search("हिन्दी").items] == [tagged]


def test_topic_lists_the_stories_of_a_topic(service: Service, alice: Viewer) -> None:
    science = _publish(service, alice, "Stars", topics=["Science"])
    _publish(service, alice, "Goals", topics=["Sport"])
    assert [s.slug for s in service.catalog.topic("science").items] == [science]


def test_containing_element_finds_stories_holding_an_element(
    service: Service, alice: Viewer
) -> None:
    holder = _publish(service, alice, "holder", elements=["https://x.example/post"])
    _publish(service, alice, "other", elements=["https://x.example/else"])
    page = service.catalog.stories(containing_element="https://x.example/post")
    assert [s.slug for s in page.items] == [holder]


def test_containing_element_reads_a_protocol_relative_address_as_https(
    service: Service, alice: Viewer
) -> None:
    holder = _publish(service, alice, "holder", elements=["//x.example/post"])
    page = service.catalog.stories(containing_element="//x.example/post")
    assert [s.slug for s in page.items] == [holder]


def test_permalink_selects_the_story_with_that_address(service: Service, alice: Viewer) -> None:
    wanted = _publish(service, alice, "wanted")
    _publish(service, alice, "unwanted")
    permalink = f"{service.web_url}/alice/{wanted}"
    assert [s.slug for s in service.catalog.latest(permalink=permalink).items] == [wanted]
    assert service.catalog.latest(permalink="https://elsewhere.example/alice/x").items == []


@pytest.mark.parametrize("suffix", ["#elements", "?utm_source=x", "/"])
def test_the_permalink_filter_and_oembed_read_a_permalink_alike(
    service: Service, alice: Viewer, suffix: str
) -> None:
    wanted = _publish(service, alice, "wanted")
    permalink = f"{service.web_url}/alice/{wanted}{suffix}"
    assert [s.slug for s in service.catalog.latest(permalink=permalink).items] == [wanted]
    assert service.embeds.oembed(permalink)["title"] == "wanted"


def test_pages_walk_every_item_exactly_once(service: Service, alice: Viewer) -> None:
    slugs = {_publish(service, alice, f"story {i}") for i in range(7)}
    seen: list[str] = []
    page = 1
    while True:
        result = service.catalog.stories(page=page, per_page=3)
        seen += [s.slug for s in result.items]
        if not result.has_next:
            break
        page += 1
    assert sorted(seen) == sorted(slugs)
    assert page == 3


def test_a_page_past_the_end_is_empty_and_echoed(service: Service, alice: Viewer) -> None:
    _publish(service, alice, "only")
    result = service.catalog.stories(page=5)
    assert (result.items, result.page, result.has_next) == ([], 5, False)


def test_a_users_list_includes_hidden_stories_for_that_user_only(
    service: Service, alice: Viewer, bob: Viewer, editor: Viewer
) -> None:
    public = _publish(service, alice, "public")
    service.stories.create("alice", {"title": "draft"}, viewer=alice)
    _publish(service, alice, "secret", private=True)
    assert len(service.catalog.user("alice", viewer=alice).items) == 3
    assert len(service.catalog.user("alice", viewer=editor).items) == 3
    assert [s.slug for s in service.catalog.user("alice", viewer=bob).items] == [public]


def test_filter_chooses_statuses_and_draft_means_working(service: Service, alice: Viewer) -> None:
    _publish(service, alice, "public")
    draft = service.stories.create("alice", {"title": "draft"}, viewer=alice).slug
    page = service.catalog.user("alice", viewer=alice, filter="draft")
    assert [s.slug for s in page.items] == [draft]


def test_filter_statuses_the_caller_may_not_see_are_left_out(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    service.stories.create("alice", {"title": "draft"}, viewer=alice)
    assert service.catalog.user("alice", viewer=bob, filter="working").items == []


def test_an_unknown_filter_is_invalid_parameter(service: Service, alice: Viewer) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.catalog.user("alice", filter="archived")
    assert caught.value.field == "filter"


@pytest.mark.parametrize("page", [2**62, 2**63 - 1, 2**64])
def test_a_page_beyond_the_stores_range_is_invalid_parameter_naming_page(
    service: Service, page: int
) -> None:
    lists = (service.catalog.latest, service.catalog.stories, service.accounts.list)
    for listing in lists:
        with pytest.raises(InvalidParameter) as caught:
            listing(page=page)
        assert caught.value.field == "page"


@pytest.mark.parametrize("size", [0, -5, 2**63])
def test_an_oembed_size_bound_is_a_whole_number_of_1_or_more(
    service: Service, alice: Viewer, size: int
) -> None:
    permalink = f"{service.web_url}/alice/{_publish(service, alice, 'sized')}"
    for bound in ("maxwidth", "maxheight"):
        with pytest.raises(InvalidParameter) as caught:
            service.embeds.oembed(permalink, **{bound: size})
        assert caught.value.field == bound


def test_a_feed_lists_public_stories_newest_first_with_their_publication_time(
    service: Service, alice: Viewer
) -> None:
    first, second = _publish(service, alice, "First"), _publish(service, alice, "Second")
    _publish(service, alice, "Hidden", private=True)
    feed = service.catalog.feed(username="alice")
    assert [entry.story.slug for entry in feed] == [second, first]
    record = service.store.stories.get(feed[0].story.id)
    assert record is not None
    assert feed[0].published == record.published


def test_a_feed_reads_no_story_record_for_its_times(
    service: Service, alice: Viewer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _publish(service, alice, "First")
    monkeypatch.setattr(service.store.stories, "get", _no_read)
    assert [entry.story.title for entry in service.catalog.feed()] == ["First"]


def _no_read(story_id: str) -> None:
    raise AssertionError(f"the feed read the record of {story_id}")
