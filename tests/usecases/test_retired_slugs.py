"""A retired slug (an alias) leads a read to the story's new slug (docs/api.md#stories), and
names no story to change: a write at it is not found, and the story stays as it is."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from storycore import NotFound, Service, StoryMoved, Viewer

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

Write = Callable[[Service, Viewer], object]
_WRITES: dict[str, Write] = {
    "save": lambda s, v: s.stories.save("alice", "tale", {"title": "Lost"}, viewer=v),
    "publish": lambda s, v: s.stories.publish("alice", "tale", viewer=v),
    "unpublish": lambda s, v: s.stories.unpublish("alice", "tale", viewer=v),
    "change_slug": lambda s, v: s.stories.change_slug("alice", "tale", "other", viewer=v),
    "delete": lambda s, v: s.stories.delete("alice", "tale", viewer=v),
}


@pytest.fixture
def moved(service: Service, alice: Viewer) -> str:
    """The id of alice's story, made at ``tale`` and moved to ``moved``."""
    story = service.stories.create("alice", {"title": "A tale", "slug": "tale"}, viewer=alice)
    service.stories.change_slug("alice", "tale", "moved", viewer=alice)
    return story.id


@pytest.mark.parametrize("write", sorted(_WRITES))
def test_a_write_at_a_retired_slug_is_not_found_and_changes_nothing(
    service: Service, alice: Viewer, moved: str, write: str
) -> None:
    before = service.store.stories.get(moved)
    with pytest.raises(NotFound):
        _WRITES[write](service, alice)
    assert service.store.stories.get(moved) == before


def test_a_read_at_a_retired_slug_is_moved_to_the_live_slug(
    service: Service, alice: Viewer, moved: str
) -> None:
    with pytest.raises(StoryMoved) as caught:
        service.stories.read("alice", "tale", viewer=alice)
    assert caught.value.slug == "moved"


def test_featuring_at_a_retired_slug_is_not_found(
    service: Service, alice: Viewer, curator: Viewer, moved: str
) -> None:
    service.stories.publish("alice", "moved", viewer=alice)
    with pytest.raises(NotFound):
        service.stories.feature("alice", "tale", viewer=curator)
    stored = service.store.stories.get(moved)
    assert stored is not None
    assert stored.featured_at is None
