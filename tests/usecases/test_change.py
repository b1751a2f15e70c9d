"""Save, publish, unpublish, slug change, delete and feature (docs/api.md#who-may-do-what, decisions
6)."""

from __future__ import annotations

import pytest

from storycore import (
    ANONYMOUS,
    Forbidden,
    InvalidParameter,
    InvalidSlug,
    NotFound,
    Service,
    SlugTaken,
    StoryMoved,
    Unauthorized,
    VersionConflict,
    Viewer,
)
from storycore.model.shapes import SearchItem
from storycore.testing import ManualClock
from tests._clocks import later

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")


@pytest.fixture
def storycore_clock() -> ManualClock:
    """The service's time, moved by hand (``later``)."""
    return ManualClock()


def _create(service: Service, viewer: Viewer, slug: str = "tale", **members: object) -> str:
    story = {"title": "A tale", "slug": slug, **members}
    return service.stories.create("alice", story, viewer=viewer).slug


def _full(service: Service, viewer: Viewer, slug: str) -> SearchItem:
    """The full shape of alice's story, through a user list and a search-free lookup."""
    story = service.stories.read("alice", slug, viewer=viewer)
    items = service.catalog.search(story.title).items
    return next(item for item in items if item.sid == story.id)


def test_save_replaces_the_members_sent_and_keeps_the_others(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice, description="first")
    saved = service.stories.save("alice", "tale", {"title": "Renamed"}, viewer=alice)
    assert (saved.title, saved.description, saved.status) == ("Renamed", "first", "working")


def test_save_replaces_the_elements(service: Service, alice: Viewer) -> None:
    _create(service, alice, elements=["https://a.example/1"])
    saved = service.stories.save(
        "alice", "tale", {"elements": ["https://b.example/2", "https://c.example/3"]}, viewer=alice
    )
    assert [e.permalink for e in saved.elements] == ["https://b.example/2", "https://c.example/3"]


def test_an_element_sent_back_keeps_its_id_and_added_at(service: Service, alice: Viewer) -> None:
    _create(service, alice, elements=["https://a.example/1"])
    first = service.stories.read("alice", "tale", viewer=alice).elements[0]
    sent = {**first.model_dump(), "data": {"link": {"title": "now titled"}}}
    saved = service.stories.save("alice", "tale", {"elements": [sent]}, viewer=alice)
    assert (saved.elements[0].id, saved.elements[0].added_at) == (first.id, first.added_at)
    assert saved.elements[0].type == "link"
    assert saved.elements[0].data["link"]["title"] == "now titled"


def test_every_save_publish_unpublish_and_slug_change_adds_one_to_version(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    service.stories.save("alice", "tale", {"title": "2"}, viewer=alice)
    service.stories.publish("alice", "tale", viewer=alice)
    service.stories.unpublish("alice", "tale", viewer=alice)
    changed = service.stories.change_slug("alice", "tale", "tale-b", viewer=alice)
    assert changed.version == 5


def test_a_save_with_a_stale_version_conflicts_and_changes_nothing(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    service.stories.save("alice", "tale", {"title": "v2"}, viewer=alice, version=1)
    with pytest.raises(VersionConflict):
        service.stories.save("alice", "tale", {"title": "lost"}, viewer=alice, version=1)
    assert service.stories.read("alice", "tale", viewer=alice).title == "v2"


def test_a_failed_save_leaves_the_story_exactly_as_it_was(service: Service, alice: Viewer) -> None:
    _create(service, alice, elements=["https://a.example/1"], description="kept")
    before = service.stories.read("alice", "tale", viewer=alice)
    bad = {"title": "new", "elements": ["https://ok.example/", {"type": "image"}]}
    with pytest.raises(InvalidParameter):
        service.stories.save("alice", "tale", bad, viewer=alice)
    assert service.stories.read("alice", "tale", viewer=alice) == before


def test_saving_a_published_story_keeps_it_published_and_modified_until_republished(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    service.stories.publish("alice", "tale", viewer=alice)
    service.stories.save("alice", "tale", {"title": "A tale, edited"}, viewer=alice)
    assert _full(service, alice, "tale").modified is True
    service.stories.publish("alice", "tale", viewer=alice)
    item = _full(service, alice, "tale")
    assert (item.status, item.modified) == ("published", False)


def test_date_published_is_the_first_publication(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    service.stories.publish("alice", "tale", viewer=alice)
    first = _full(service, alice, "tale").date.published
    service.stories.unpublish("alice", "tale", viewer=alice)
    service.stories.publish("alice", "tale", viewer=alice)
    assert _full(service, alice, "tale").date.published == first


def test_publish_applies_the_members_sent(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    published = service.stories.publish("alice", "tale", {"title": "Final"}, viewer=alice)
    assert (published.title, published.status) == ("Final", "published")


def test_unpublish_takes_a_story_off_public_lists(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    service.stories.publish("alice", "tale", viewer=alice)
    service.stories.unpublish("alice", "tale", viewer=alice)
    assert service.catalog.latest().items == []


def test_a_slug_change_leaves_an_alias_that_redirects(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    service.stories.publish("alice", "tale", viewer=alice)
    service.stories.change_slug("alice", "tale", "new-tale", viewer=alice)
    with pytest.raises(StoryMoved) as caught:
        service.stories.read("alice", "tale")
    assert (caught.value.username, caught.value.slug, caught.value.status) == (
        "alice",
        "new-tale",
        301,
    )


def test_an_alias_redirects_only_callers_who_may_see_the_story(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    service.stories.change_slug("alice", "tale", "hidden-tale", viewer=alice)
    with pytest.raises(NotFound):
        service.stories.read("alice", "tale", viewer=ANONYMOUS)
    with pytest.raises(StoryMoved):
        service.stories.read("alice", "tale", viewer=alice)


def test_a_new_story_may_take_a_retired_slug_and_the_alias_stops(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    service.stories.change_slug("alice", "tale", "moved", viewer=alice)
    _create(service, alice, slug="tale")
    assert service.stories.read("alice", "tale", viewer=alice).slug == "tale"


def test_save_with_a_new_slug_also_leaves_an_alias(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    service.stories.save("alice", "tale", {"slug": "renamed"}, viewer=alice)
    with pytest.raises(StoryMoved):
        service.stories.read("alice", "tale", viewer=alice)


def test_a_slug_change_to_a_used_slug_is_slug_taken(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    _create(service, alice, slug="other")
    with pytest.raises(SlugTaken) as caught:
        service.stories.change_slug("alice", "tale", "other", viewer=alice)
    assert caught.value.field == "slug"
    assert service.stories.read("alice", "tale", viewer=alice).slug == "tale"


def test_a_slug_change_to_an_invalid_slug_is_invalid_slug(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    with pytest.raises(InvalidSlug):
        service.stories.change_slug("alice", "tale", "Bad Slug", viewer=alice)


def test_the_slug_change_result_is_the_full_shape_with_not_indexed(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    result = service.stories.change_slug("alice", "tale", "t2", viewer=alice).to_json_dict()
    assert "not_indexed" in result
    assert "author" not in result
    assert "canEdit" not in result
    assert result["permalink"].endswith("/alice/t2")


def test_delete_removes_the_story_and_its_aliases(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    service.stories.change_slug("alice", "tale", "gone", viewer=alice)
    result = service.stories.delete("alice", "gone", viewer=alice)
    assert result.deleted is True
    for slug in ("gone", "tale"):
        with pytest.raises(NotFound):
            service.stories.read("alice", slug, viewer=alice)


def test_a_write_by_a_stranger_on_a_hidden_story_is_not_found(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    _create(service, alice)
    with pytest.raises(NotFound):
        service.stories.save("alice", "tale", {"title": "x"}, viewer=bob)


def test_a_write_by_a_stranger_on_a_public_story_is_forbidden(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    _create(service, alice)
    service.stories.publish("alice", "tale", viewer=alice)
    with pytest.raises(Forbidden):
        service.stories.save("alice", "tale", {"title": "x"}, viewer=bob)


def test_an_anonymous_write_is_unauthorized(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    with pytest.raises(Unauthorized):
        service.stories.publish("alice", "tale", viewer=ANONYMOUS)


def test_an_editor_may_change_any_story(service: Service, alice: Viewer, editor: Viewer) -> None:
    _create(service, alice)
    assert service.stories.publish("alice", "tale", viewer=editor).status == "published"


def test_featuring_needs_can_feature_stories_even_for_editors(
    service: Service, alice: Viewer, editor: Viewer
) -> None:
    _create(service, alice)
    service.stories.publish("alice", "tale", viewer=alice)
    with pytest.raises(Forbidden):
        service.stories.feature("alice", "tale", viewer=editor)


def test_featured_stories_are_listed_newest_feature_first(
    service: Service, alice: Viewer, curator: Viewer
) -> None:
    for slug in ("one", "two"):
        _create(service, alice, slug=slug)
        service.stories.publish("alice", slug, viewer=alice)
    service.stories.feature("alice", "two", viewer=curator)
    later(service)
    service.stories.feature("alice", "one", viewer=curator)
    assert [s.slug for s in service.catalog.featured().items] == ["one", "two"]
    service.stories.unfeature("alice", "one", viewer=curator)
    assert [s.slug for s in service.catalog.featured().items] == ["two"]


@pytest.mark.parametrize("version", [0, 2**63, -(2**63) - 1])
def test_a_version_outside_the_stores_range_is_invalid_parameter(
    service: Service, alice: Viewer, version: int
) -> None:
    slug = service.stories.create("alice", {"title": "Versioned"}, viewer=alice).slug
    with pytest.raises(InvalidParameter) as caught:
        service.stories.save("alice", slug, {"title": "x"}, viewer=alice, version=version)
    assert caught.value.field == "version"
    assert service.stories.open("alice", slug, viewer=alice).detail.title == "Versioned"
