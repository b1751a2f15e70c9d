"""The table of a story's transitions (``storycore.usecases.transitions``): each row's
statuses, changes, events and revision, read from the row and seen through the service.

The rows are the documented rules (docs/api.md#stories, docs/api.md#revisions,
docs/api.md#scheduled-publishing, docs/webhooks.md): what each write leaves from, what it
changes, what it reports, and whether it keeps what the story was as a revision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from storycore import InvalidParameter, Service, Viewer
from storycore.model.records import Status, StoryRecord
from storycore.testing import ManualClock
from storycore.usecases.events import MAX_EVENTS
from storycore.usecases.transitions import (
    ANY,
    CHANGE_SLUG,
    CREATE,
    CREATE_PUBLISHED,
    DELETE,
    FEATURE,
    PUBLISH,
    RESTORE,
    SAVE,
    TRANSITIONS,
    UNFEATURE,
    UNPUBLISH,
    Transition,
)

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

AT = "2026-01-01T00:00:10.000Z"
FIRST = "2025-06-01T00:00:00.000Z"
LATER = "2026-01-02T00:00:00.000Z"
STATUSES: tuple[Status, ...] = ("working", "published")
STEPPING = [t for t in TRANSITIONS if t.leaves != ANY and "new" not in t.leaves]


def _story(status: Status, **members: Any) -> StoryRecord:
    published = FIRST if status == "published" else None
    return StoryRecord(
        id="s1",
        author_id="u1",
        slug="tale",
        title="Tale",
        status=status,
        version=3,
        created=FIRST,
        updated=FIRST,
        published=published,
        **members,
    )


# -- the table, read -------------------------------------------------------------------------


def test_each_transition_changes_the_status_only_from_the_statuses_it_leaves() -> None:
    for transition in TRANSITIONS:
        for status in STATUSES:
            changes = transition.changes(_story(status), AT)
            if status not in transition.leaves:
                assert changes is None, (transition.name, status)
                continue
            assert changes is not None
            leads_to = transition.to if transition.to in STATUSES else status  # else it stays
            assert changes.get("status", status) == leads_to


def test_an_unpublish_of_a_working_story_changes_nothing() -> None:
    assert UNPUBLISH.changes(_story("working"), AT) is None


def test_a_story_that_becomes_published_keeps_its_first_publication_time() -> None:
    assert PUBLISH.changes(_story("published"), AT) == {
        "status": "published",
        "modified": False,
        "published": FIRST,
        "publish_at": None,
    }
    assert (PUBLISH.changes(_story("working"), AT) or {})["published"] == AT


@pytest.mark.parametrize("transition", [SAVE, RESTORE], ids=lambda t: t.name)
def test_a_save_and_a_restore_mark_a_published_story_modified(transition: Transition) -> None:
    assert (transition.changes(_story("published"), AT) or {})["modified"] is True
    assert (transition.changes(_story("working"), AT) or {})["modified"] is False


def test_a_slug_change_leaves_the_modified_mark_as_it_is() -> None:
    assert CHANGE_SLUG.changes(_story("published", modified=True), AT) == {}


def test_a_save_sets_or_cancels_the_schedule_as_sent_and_a_publish_cancels_it() -> None:
    scheduled = _story("working", publish_at=LATER)
    assert (SAVE.changes(_story("working"), AT, LATER) or {})["publish_at"] == LATER
    assert (SAVE.changes(scheduled, AT, None) or {})["publish_at"] is None
    assert "publish_at" not in (SAVE.changes(scheduled, AT) or {})  # not sent: it stays
    assert (PUBLISH.changes(scheduled, AT) or {})["publish_at"] is None


def test_a_published_story_cannot_be_scheduled() -> None:
    with pytest.raises(InvalidParameter) as refused:
        SAVE.changes(_story("published"), AT, LATER)
    assert refused.value.field == "publish_at"


def test_each_transition_reports_its_events_from_a_status_it_leaves() -> None:
    for transition in TRANSITIONS:
        if "new" in transition.leaves:
            created = _story("published" if transition.to == "published" else "working")
            assert transition.reported(None, created) == list(transition.reports)
        for status in STATUSES:
            if status in transition.leaves:
                story = _story(status)
                assert transition.reported(story, story) == list(transition.reports)


@pytest.mark.parametrize("transition", STEPPING, ids=lambda t: t.name)
def test_from_a_status_it_does_not_leave_a_transition_reports_nothing(
    transition: Transition,
) -> None:
    for status in set(STATUSES) - transition.leaves:
        assert transition.reported(_story(status), _story(status)) == []


def test_a_change_of_a_working_storys_schedule_also_reports_story_scheduled() -> None:
    working, scheduled = _story("working"), _story("working", publish_at=LATER)
    assert SAVE.reported(working, scheduled) == ["story.saved", "story.scheduled"]
    assert SAVE.reported(scheduled, working) == ["story.saved", "story.scheduled"]
    assert CREATE.reported(None, scheduled) == ["story.created", "story.scheduled"]
    assert PUBLISH.reported(scheduled, _story("published")) == ["story.published"]


def test_the_transitions_that_keep_a_revision_are_the_documented_ones() -> None:
    keeping = {t.name for t in TRANSITIONS if t.keeps_revision}
    assert keeping == {"save", "publish", "unpublish", "restore", "change slug"}


# -- each row, through the service ------------------------------------------------------------


@pytest.fixture
def storycore_clock() -> ManualClock:
    return ManualClock()


def _create(service: Service, alice: Viewer, *, publish: bool = False) -> None:
    """Alice's story "tale", created working or published."""
    service.stories.create(
        "alice", {"title": "Tale", "slug": "tale"}, viewer=alice, publish=publish
    )


# Each row's command from a story it starts from (alice's "tale"): made ready, then run.
Ready = Callable[[], object]


def _create_row(service: Service, alice: Viewer, curator: Viewer) -> Ready:
    return lambda: _create(service, alice)


def _create_published_row(service: Service, alice: Viewer, curator: Viewer) -> Ready:
    return lambda: _create(service, alice, publish=True)


def _save_row(service: Service, alice: Viewer, curator: Viewer) -> Ready:
    _create(service, alice)
    return lambda: service.stories.save("alice", "tale", {"title": "T"}, viewer=alice)


def _publish_row(service: Service, alice: Viewer, curator: Viewer) -> Ready:
    _create(service, alice)
    return lambda: service.stories.publish("alice", "tale", viewer=alice)


def _unpublish_row(service: Service, alice: Viewer, curator: Viewer) -> Ready:
    _create(service, alice, publish=True)
    return lambda: service.stories.unpublish("alice", "tale", viewer=alice)


def _restore_row(service: Service, alice: Viewer, curator: Viewer) -> Ready:
    _create(service, alice)
    saved = service.stories.save("alice", "tale", {"title": "T"}, viewer=alice)
    return lambda: service.revisions.restore(
        "alice", "tale", 1, viewer=alice, version=saved.version
    )


def _change_slug_row(service: Service, alice: Viewer, curator: Viewer) -> Ready:
    _create(service, alice)
    return lambda: service.stories.change_slug("alice", "tale", "t", viewer=alice)


def _delete_row(service: Service, alice: Viewer, curator: Viewer) -> Ready:
    _create(service, alice)
    return lambda: service.stories.delete("alice", "tale", viewer=alice)


def _feature_row(service: Service, alice: Viewer, curator: Viewer) -> Ready:
    _create(service, alice, publish=True)
    return lambda: service.stories.feature("alice", "tale", viewer=curator)


def _unfeature_row(service: Service, alice: Viewer, curator: Viewer) -> Ready:
    _create(service, alice, publish=True)
    service.stories.feature("alice", "tale", viewer=curator)
    return lambda: service.stories.unfeature("alice", "tale", viewer=curator)


COMMANDS: dict[Transition, Callable[[Service, Viewer, Viewer], Ready]] = {
    CREATE: _create_row,
    CREATE_PUBLISHED: _create_published_row,
    SAVE: _save_row,
    PUBLISH: _publish_row,
    UNPUBLISH: _unpublish_row,
    RESTORE: _restore_row,
    CHANGE_SLUG: _change_slug_row,
    DELETE: _delete_row,
    FEATURE: _feature_row,
    UNFEATURE: _unfeature_row,
}


def test_every_row_has_a_command() -> None:
    assert list(COMMANDS) == list(TRANSITIONS)


@pytest.mark.parametrize("row", TRANSITIONS, ids=lambda t: t.name)
def test_each_command_reports_its_rows_events_and_keeps_a_revision_as_its_row_says(
    service: Service, alice: Viewer, curator: Viewer, row: Transition
) -> None:
    command = COMMANDS[row](service, alice, curator)
    version, revisions = _state(service)
    cursor = service.events.end()
    command()
    logged = [item.event.type for item in service.events.after(cursor, MAX_EVENTS)]
    assert logged == list(row.reports)
    version_after, revisions_after = _state(service)
    assert revisions_after - revisions == (1 if row.keeps_revision else 0)
    if version and version_after:  # the story is there before and after
        assert version_after - version == revisions_after - revisions


def _state(service: Service) -> tuple[int, int]:
    """The version of alice's one story (0 when there is none) and how many revisions it has."""
    stories = service.store.stories
    user = service.store.users.get_by_username("alice")
    assert user is not None
    for slug in ("tale", "t"):
        story = stories.get_by_slug(user.id, slug)
        if story is not None and story.slug == slug:
            return story.version, service.store.revisions.count(story.id)
    return 0, 0
