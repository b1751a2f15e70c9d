"""What the editor reads (docs/editor.md#the-editor): the whole story for its author and
editors, the version a page held, an address made an element without saving, and sources."""

from __future__ import annotations

import pytest

from storycore import InvalidParameter, NotFound, Service, Viewer
from storycore.errors import Forbidden

POST = "https://socialA.example/marrakesh_news/status/1"
PICTURE = "https://pictures.example/harbour.jpg"


def test_the_edited_story_holds_every_element_past_a_page(service: Service, alice: Viewer) -> None:
    many = [f"https://news.example/{n}" for n in range(120)]
    slug = service.stories.create("alice", {"elements": many}, viewer=alice).slug
    edited = service.stories.edited("alice", slug, viewer=alice)
    assert [element.permalink for element in edited.elements] == many


def test_a_working_story_has_no_editor_for_another_writer(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    slug = service.stories.create("alice", {"title": "Mine"}, viewer=alice).slug
    with pytest.raises(NotFound):
        service.stories.edited("alice", slug, viewer=bob)


def test_a_published_story_is_not_edited_by_another_writer(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    slug = service.stories.create("alice", {"title": "Mine"}, viewer=alice, publish=True).slug
    with pytest.raises(Forbidden):
        service.stories.edited("alice", slug, viewer=bob)


def test_an_editor_edits_anyones_story(service: Service, alice: Viewer, editor: Viewer) -> None:
    slug = service.stories.create("alice", {"title": "Mine"}, viewer=alice).slug
    assert service.stories.edited("alice", slug, viewer=editor).story.title == "Mine"


def test_the_version_held_is_the_story_as_it_was(service: Service, alice: Viewer) -> None:
    slug = service.stories.create(
        "alice", {"title": "Before", "elements": [POST]}, viewer=alice
    ).slug
    service.stories.save("alice", slug, {"title": "After", "elements": []}, viewer=alice)
    held = service.stories.held("alice", slug, 1, viewer=alice)
    assert (held.story.title, len(held.elements)) == ("Before", 1)


def test_an_address_previewed_is_typed_and_saved_nowhere(service: Service, alice: Viewer) -> None:
    slug = service.stories.create("alice", {"title": "Fog"}, viewer=alice).slug
    element = service.stories.preview_element(POST, viewer=alice)
    assert element.type == "quote"
    assert service.stories.edited("alice", slug, viewer=alice).story.version == 1


def test_a_previewed_address_obeys_the_address_rule(service: Service, alice: Viewer) -> None:
    with pytest.raises(InvalidParameter) as refused:
        service.stories.preview_element("javascript:alert(1)", viewer=alice)
    assert refused.value.field == "address.0"


def test_sources_find_a_quote_by_its_authors_name(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    service.stories.create(
        "bob", {"title": "Harbour", "elements": [POST]}, viewer=bob, publish=True
    )
    found = service.sources.find("marrakesh_news", viewer=alice)
    assert [source.element.permalink for source in found] == [POST]


def test_sources_hold_nothing_of_stories_the_writer_may_not_read(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    service.stories.create("bob", {"title": "Harbour", "elements": [POST]}, viewer=bob)
    assert service.sources.find("marrakesh_news", viewer=alice) == []


def test_sources_hold_the_writers_own_working_stories(service: Service, alice: Viewer) -> None:
    service.stories.create("alice", {"title": "Draft", "elements": [PICTURE]}, viewer=alice)
    assert [s.element.type for s in service.sources.find("pictures", viewer=alice)] == ["image"]


def test_sources_of_one_network_leave_out_the_others(service: Service, alice: Viewer) -> None:
    service.stories.create("alice", {"title": "Both", "elements": [POST, PICTURE]}, viewer=alice)
    found = service.sources.find("example", viewer=alice, network="socialA")
    assert [source.element.type for source in found] == ["quote"]


def test_a_blank_search_of_sources_is_refused(service: Service, alice: Viewer) -> None:
    with pytest.raises(InvalidParameter) as refused:
        service.sources.find("  ", viewer=alice)
    assert refused.value.field == "q"
