"""Revisions (docs/api.md#revisions): every change of a story's content or status keeps the story
as it was; its author and editors list, read and restore them; for anyone else there are none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from storycore import (
    ANONYMOUS,
    InvalidParameter,
    NotFound,
    Service,
    VersionConflict,
    Viewer,
)
from storycore.adapters import open_store
from storycore.model.shapes import StoryDetail
from storycore.testing import ManualClock
from tests._clocks import later
from tests.conftest import TEST_SETTINGS

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

FIRST = {
    "title": "First light",
    "slug": "tale",
    "description": "Before dawn",
    "thumbnail": "https://img.example/first.jpg",
    "elements": ["https://a.example/1", {"type": "text", "data": {"text": "<p>one</p>"}}],
}
SECOND = {
    "title": "Second thoughts",
    "description": "After noon",
    "thumbnail": "https://img.example/second.jpg",
    "elements": ["https://b.example/2"],
}


@pytest.fixture
def storycore_clock() -> ManualClock:
    """The service's time, moved by hand (``later``)."""
    return ManualClock()


@pytest.fixture
def keeping() -> Iterator[Callable[[int], Service]]:
    """Services on fresh stores, each keeping at most the given number of revisions a story,
    with alice as their only user."""
    opened: list[Service] = []

    def make(revisions: int) -> Service:
        limits = TEST_SETTINGS.limits.model_copy(update={"revisions": revisions})
        settings = TEST_SETTINGS.model_copy(update={"limits": limits})
        service = Service(open_store("memory://"), settings, clock=ManualClock())
        service.accounts.create_user("alice", "alice-password")
        opened.append(service)
        return service

    yield make
    for service in opened:
        service.close()


def _create(service: Service, viewer: Viewer, **members: object) -> None:
    service.stories.create("alice", {**FIRST, **members}, viewer=viewer)
    later(service)


def _versions(service: Service, viewer: Viewer, slug: str = "tale") -> list[int]:
    page = service.revisions.list("alice", slug, viewer=viewer, per_page=100)
    return [item.version for item in page.items]


def _content(detail: StoryDetail) -> tuple[object, ...]:
    """What a restore takes from a revision: title, description, thumbnail and elements."""
    return (detail.title, detail.description, detail.thumbnail, detail.elements)


def _as_it_was(detail: StoryDetail) -> dict[str, object]:
    """A detail but its permalink (a revision's is where the story lives now)."""
    return detail.model_dump(exclude={"permalink"})


# -- what each change keeps ------------------------------------------------------------------

Change = Callable[[Service, Viewer], object]
CHANGES: dict[str, tuple[bool, Change]] = {
    # name: (publish the story first, the change)
    "save": (False, lambda s, v: s.stories.save("alice", "tale", SECOND, viewer=v)),
    "publish": (False, lambda s, v: s.stories.publish("alice", "tale", viewer=v)),
    "unpublish": (True, lambda s, v: s.stories.unpublish("alice", "tale", viewer=v)),
    "slug change": (False, lambda s, v: s.stories.change_slug("alice", "tale", "moved", viewer=v)),
    "restore": (
        False,
        lambda s, v: s.revisions.restore("alice", _slug(s, v), 1, viewer=v, version=2),
    ),
}


def _slug(service: Service, viewer: Viewer) -> str:
    """The slug alice's one story lives at."""
    return service.catalog.user("alice", viewer=viewer).items[0].slug


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_each_change_keeps_one_revision_holding_what_the_story_was(
    service: Service, alice: Viewer, change: str
) -> None:
    _create(service, alice)
    publish_first, make = CHANGES[change]
    if publish_first or change == "restore":  # a restore needs a revision to restore
        service.stories.publish("alice", "tale", viewer=alice)
        later(service)
    before = service.stories.read("alice", "tale", viewer=alice, per_page=100)
    kept = len(_versions(service, alice))
    make(service, alice)
    slug = _slug(service, alice)
    assert _versions(service, alice, slug)[0] == before.version
    assert len(_versions(service, alice, slug)) == kept + 1
    revision = service.revisions.read("alice", slug, before.version, viewer=alice, per_page=100)
    assert _as_it_was(revision) == _as_it_was(before)


def test_an_unpublish_of_a_working_story_changes_nothing_and_keeps_no_revision(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    unchanged = service.stories.unpublish("alice", "tale", viewer=alice)
    assert (unchanged.version, _versions(service, alice)) == (1, [])


def test_a_story_keeps_its_newest_revisions_up_to_the_limit(
    keeping: Callable[[int], Service],
) -> None:
    service = keeping(3)
    alice = service.accounts.as_user("alice")
    _create(service, alice)
    for number in range(2, 7):
        service.stories.save("alice", "tale", {"title": f"Take {number}"}, viewer=alice)
    assert _versions(service, alice) == [5, 4, 3]
    assert service.revisions.read("alice", "tale", 3, viewer=alice).title == "Take 3"


def test_a_limit_of_0_keeps_no_revision(keeping: Callable[[int], Service]) -> None:
    service = keeping(0)
    alice = service.accounts.as_user("alice")
    _create(service, alice)
    service.stories.save("alice", "tale", SECOND, viewer=alice)
    service.stories.publish("alice", "tale", viewer=alice)
    assert _versions(service, alice) == []
    with pytest.raises(NotFound):
        service.revisions.read("alice", "tale", 1, viewer=alice)


# -- the list --------------------------------------------------------------------------------


def test_the_list_is_newest_first_with_version_replaced_by_title_status_and_element_count(
    service: Service, alice: Viewer, editor: Viewer
) -> None:
    _create(service, alice)
    saved = service.stories.save("alice", "tale", SECOND, viewer=alice)
    later(service)
    published = service.stories.publish("alice", "tale", viewer=editor)
    items = service.revisions.list("alice", "tale", viewer=alice).items
    shown = [item.model_dump() for item in items]
    assert shown == [
        {
            "version": 2,
            "replaced": published.updated,
            "by": "ed",
            "title": "Second thoughts",
            "status": "working",
            "elements": 1,
        },
        {
            "version": 1,
            "replaced": saved.updated,
            "by": "alice",
            "title": "First light",
            "status": "working",
            "elements": 2,
        },
    ]


def test_the_list_is_paginated_and_counts_on_request(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    for number in range(2, 7):
        service.stories.save("alice", "tale", {"title": f"Take {number}"}, viewer=alice)
    first = service.revisions.list("alice", "tale", viewer=alice, per_page=2)
    last = service.revisions.list("alice", "tale", viewer=alice, page=3, per_page="2", total=True)
    assert ([i.version for i in first.items], first.has_next, first.total) == ([5, 4], True, None)
    assert ([i.version for i in last.items], last.has_next, last.total) == ([1], False, 5)


def test_a_story_never_changed_has_an_empty_list(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    assert service.revisions.list("alice", "tale", viewer=alice, total=True).total == 0


# -- reading one -----------------------------------------------------------------------------


def test_a_revision_reads_as_the_story_detail_it_was_with_a_page_of_its_elements(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    service.stories.save("alice", "tale", SECOND, viewer=alice)
    first = service.revisions.read("alice", "tale", "1", viewer=alice, per_page=1)
    second = service.revisions.read("alice", "tale", 1, viewer=alice, page=2, per_page=1)
    assert (first.version, first.title, first.status) == (1, "First light", "working")
    assert (first.page, first.per_page, second.page) == (1, 1, 2)
    assert [e.permalink for e in first.elements + second.elements] == [
        "https://a.example/1",
        None,
    ]
    assert second.elements[0].type == "text"


def test_a_revision_shows_the_slug_it_had_and_links_where_the_story_lives_now(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    service.stories.change_slug("alice", "tale", "moved", viewer=alice)
    revision = service.revisions.read("alice", "moved", 1, viewer=alice)
    now = service.stories.read("alice", "moved", viewer=alice)
    assert (revision.slug, revision.permalink) == ("tale", now.permalink)


@pytest.mark.parametrize("revision", [2, 3, 99])
def test_a_version_that_is_no_revision_is_not_found(
    service: Service, alice: Viewer, revision: int
) -> None:
    _create(service, alice)
    service.stories.save("alice", "tale", SECOND, viewer=alice)  # revision 1; version 2 is now
    with pytest.raises(NotFound):
        service.revisions.read("alice", "tale", revision, viewer=alice)
    with pytest.raises(NotFound):
        service.revisions.restore("alice", "tale", revision, viewer=alice, version=2)


@pytest.mark.parametrize("revision", [0, -1, "one", "1.5", True])
def test_a_revision_that_is_no_version_number_is_invalid(
    service: Service, alice: Viewer, revision: object
) -> None:
    _create(service, alice)
    with pytest.raises(InvalidParameter) as raised:
        service.revisions.read("alice", "tale", revision, viewer=alice)  # type: ignore[arg-type]
    assert raised.value.field == "revision"


# -- restoring -------------------------------------------------------------------------------


def test_a_restore_takes_the_revisions_title_description_thumbnail_and_elements(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    service.stories.save("alice", "tale", SECOND, viewer=alice)
    revision = service.revisions.read("alice", "tale", 1, viewer=alice)
    restored = service.revisions.restore("alice", "tale", 1, viewer=alice, version=2)
    assert _content(restored) == _content(revision)
    assert _content(service.stories.read("alice", "tale", viewer=alice)) == _content(revision)


def test_a_restore_keeps_the_slug_status_and_schedule_and_adds_one_to_version(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    service.stories.change_slug("alice", "tale", "moved", viewer=alice)
    service.stories.save("alice", "moved", SECOND, viewer=alice, publish_at="2026-02-01T00:00:00Z")
    restored = service.revisions.restore("alice", "moved", 1, viewer=alice, version=3)
    assert (restored.slug, restored.status, restored.publish_at, restored.version) == (
        "moved",
        "working",
        "2026-02-01T00:00:00.000Z",
        4,
    )
    assert restored.title == "First light"


def test_what_a_restore_replaced_becomes_a_revision(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    saved = service.stories.save("alice", "tale", SECOND, viewer=alice)
    later(service)
    restored = service.revisions.restore("alice", "tale", 1, viewer=alice, version=2)
    assert _versions(service, alice) == [2, 1]
    replaced = service.revisions.read("alice", "tale", 2, viewer=alice)
    assert _as_it_was(replaced) == _as_it_was(saved)
    head = service.revisions.list("alice", "tale", viewer=alice).items[0]
    assert (head.replaced, head.by) == (restored.updated, "alice")


def test_a_restore_of_a_published_story_leaves_it_published_and_modified(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    service.stories.publish("alice", "tale", SECOND, viewer=alice)
    restored = service.revisions.restore("alice", "tale", 1, viewer=alice, version=2)
    record = service.store.stories.get(restored.id)
    assert record is not None
    assert (restored.status, record.modified) == ("published", True)


def test_a_restore_with_a_stale_version_conflicts_and_changes_nothing(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    service.stories.save("alice", "tale", SECOND, viewer=alice)
    before = service.stories.read("alice", "tale", viewer=alice)
    with pytest.raises(VersionConflict) as raised:
        service.revisions.restore("alice", "tale", 1, viewer=alice, version=1)
    assert raised.value.field == "version"
    assert service.stories.read("alice", "tale", viewer=alice) == before
    assert _versions(service, alice) == [1]


@pytest.mark.parametrize("version", [None, 0, 2.5, True])
def test_a_restore_without_a_version_number_is_invalid(
    service: Service, alice: Viewer, version: object
) -> None:
    _create(service, alice)
    service.stories.save("alice", "tale", SECOND, viewer=alice)
    with pytest.raises(InvalidParameter) as raised:
        service.revisions.restore("alice", "tale", 1, viewer=alice, version=version)  # type: ignore[arg-type]
    assert raised.value.field == "version"
    assert service.stories.read("alice", "tale", viewer=alice).version == 2


# -- who sees them ---------------------------------------------------------------------------

OPERATIONS: dict[str, Callable[[Service, Viewer], object]] = {
    "list": lambda s, v: s.revisions.list("alice", "tale", viewer=v),
    "read": lambda s, v: s.revisions.read("alice", "tale", 1, viewer=v),
    "restore": lambda s, v: s.revisions.restore("alice", "tale", 1, viewer=v, version=2),
}


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
@pytest.mark.parametrize("who", ["anonymous", "another user"])
def test_for_anyone_but_the_author_and_editors_a_public_storys_revisions_do_not_exist(
    service: Service, alice: Viewer, bob: Viewer, operation: str, who: str
) -> None:
    _create(service, alice)
    service.stories.publish("alice", "tale", viewer=alice)
    with pytest.raises(NotFound):
        OPERATIONS[operation](service, ANONYMOUS if who == "anonymous" else bob)
    assert service.stories.read("alice", "tale", viewer=alice).version == 2


def test_an_editor_may_list_read_and_restore_revisions(
    service: Service, alice: Viewer, editor: Viewer
) -> None:
    _create(service, alice)
    service.stories.publish("alice", "tale", viewer=alice)
    assert _versions(service, editor) == [1]
    assert service.revisions.read("alice", "tale", 1, viewer=editor).status == "working"
    assert service.revisions.restore("alice", "tale", 1, viewer=editor, version=2).version == 3


def test_deleting_a_story_deletes_its_revisions(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    story_id = service.stories.save("alice", "tale", SECOND, viewer=alice).id
    service.stories.delete("alice", "tale", viewer=alice)
    assert service.store.revisions.count(story_id) == 0
    _create(service, alice)  # a new story at the same slug starts without revisions
    assert _versions(service, alice) == []
