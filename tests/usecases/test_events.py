"""Events (docs/webhooks.md): each change reports exactly its events, in one write with it,
and a host application reads them in order from a cursor it keeps (``service.events.after``).

Which operation reports what: create -> ``story.created`` (then ``story.published`` when
created published, ``story.scheduled`` when created with ``publish_at``); save ->
``story.saved`` (then ``story.scheduled`` when the schedule of a story that is not published
changed, a cancellation included); publish -> ``story.published`` (with a time:
``story.saved`` then ``story.scheduled``); unpublish of a published story ->
``story.unpublished``; slug change -> ``story.slug_changed``; restore -> ``story.restored``;
a due publication -> ``story.published``; delete -> ``story.deleted``; ``user.created`` and
``user.updated`` (when the public profile changed). A refused operation, or one that changes
nothing, reports nothing; so do featuring, passwords, sign-ins, imports and reindexing.

Every event's ``timestamp`` is the change's time (a ``ManualClock`` moved before each change),
its ``subject`` the story's or user's id, and its data what the service answers after the
change: the story's full shape as its author sees it (``story.deleted``: sid, username and
slug), or the user's public profile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest

from storycore import (
    Forbidden,
    InvalidParameter,
    InvalidSlug,
    NotFound,
    Service,
    SlugTaken,
    StorycoreError,
    Unauthorized,
    VersionConflict,
    Viewer,
)
from storycore.adapters import open_store
from storycore.contrib.transfer import export_lines
from storycore.model.events import EVENT_TYPES, Event
from storycore.rules.timestamps import format_timestamp
from storycore.testing import ManualClock
from storycore.usecases.events import MAX_EVENTS
from storycore.usecases.reindex import reindex
from tests.conftest import TEST_SETTINGS

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

AN_HOUR = "2026-01-01T01:00:00Z"  # an hour after the clock's start
AN_HOUR_STORED = "2026-01-01T01:00:00.000Z"
TWO_HOURS = "2026-01-01T02:00:00Z"


@pytest.fixture
def storycore_clock() -> ManualClock:
    """The service's time, moved by hand (it starts at 2026-01-01T00:00:00Z)."""
    return ManualClock()


class Log:
    """A reader of the service's events that keeps its cursor, as a host application does."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.cursor = service.events.end()

    def new(self) -> list[Event]:
        """The events logged since the last call (or since the reader was made)."""
        found = self.service.events.after(self.cursor, MAX_EVENTS)
        if found:
            self.cursor = found[-1].cursor
        return [item.event for item in found]


@pytest.fixture
def log(service: Service, alice: Viewer, bob: Viewer, editor: Viewer) -> Log:
    """A reader that starts once alice, bob and ed exist."""
    return Log(service)


def _clock(service: Service) -> ManualClock:
    clock = service.clock
    assert isinstance(clock, ManualClock)
    return clock


def _later(service: Service) -> str:
    """Move the clock on a second: the next change's time, as the service writes it."""
    return format_timestamp(_clock(service).advance(1))


def _create(service: Service, viewer: Viewer, slug: str = "tale", **options: Any) -> str:
    """A story of alice's; its id."""
    created = service.stories.create(
        "alice", {"title": f"The {slug}", "slug": slug}, viewer=viewer, **options
    )
    return created.id


def _full(service: Service, viewer: Viewer, slug: str = "tale", username: str = "alice") -> Any:
    """The story's full shape as the service answers it to ``viewer``: the answer to a slug
    change to its own slug (which changes nothing), without ``not_indexed``, the one member
    only that answer carries."""
    answer = service.stories.change_slug(username, slug, slug, viewer=viewer)
    shape = orjson.loads(answer.model_dump_json(by_alias=True))
    del shape["not_indexed"]
    return shape


def _check_story_events(
    events: list[Event],
    types: list[str],
    story_id: str,
    at: str,
    shown: Any,
) -> None:
    """``events`` are exactly ``types`` of the story ``story_id``, at ``at``, each with the
    story's full shape ``shown`` as data."""
    assert [e.type for e in events] == types
    for event in events:
        assert (event.subject, event.timestamp) == (story_id, at)
        assert orjson.loads(event.data) == shown


def _reported(log: Log, service: Service, viewer: Viewer, story_id: str, at: str) -> list[str]:
    """The types of the new events, once each is checked to report the story ``story_id`` at
    ``at`` as the service now shows it."""
    events = log.new()
    _check_story_events(events, [e.type for e in events], story_id, at, _full(service, viewer))
    return [e.type for e in events]


# -- stories ---------------------------------------------------------------------------------


def test_a_create_reports_story_created_with_the_story_as_created(
    service: Service, alice: Viewer, log: Log
) -> None:
    at = _later(service)
    story_id = _create(service, alice)
    shown = _full(service, alice)
    events = log.new()
    _check_story_events(events, ["story.created"], story_id, at, shown)
    assert (shown["version"], shown["status"], shown["slug"]) == (1, "working", "tale")
    assert shown["publish_at"] is None


def test_a_create_published_reports_story_created_then_story_published(
    service: Service, alice: Viewer, log: Log
) -> None:
    at = _later(service)
    story_id = _create(service, alice, publish=True)
    assert _reported(log, service, alice, story_id, at) == ["story.created", "story.published"]
    assert _full(service, alice)["status"] == "published"


def test_a_create_with_publish_at_reports_story_created_then_story_scheduled(
    service: Service, alice: Viewer, log: Log
) -> None:
    at = _later(service)
    story_id = _create(service, alice, publish=True, publish_at=AN_HOUR)
    assert _reported(log, service, alice, story_id, at) == ["story.created", "story.scheduled"]
    shown = _full(service, alice)
    assert (shown["status"], shown["publish_at"]) == ("working", AN_HOUR_STORED)


def test_a_created_story_without_a_slug_reports_the_slug_it_was_given(
    service: Service, alice: Viewer, log: Log
) -> None:
    _create(service, alice, slug="harbour")
    log.new()
    at = _later(service)
    created = service.stories.create("alice", {"title": "Harbour"}, viewer=alice)
    (event,) = log.new()
    assert (event.type, event.timestamp, event.subject) == ("story.created", at, created.id)
    assert orjson.loads(event.data) == _full(service, alice, "harbour-2")


def test_an_editor_s_create_reports_the_story_as_its_author_sees_it(
    service: Service, alice: Viewer, editor: Viewer, log: Log
) -> None:
    at = _later(service)
    story_id = _create(service, editor)
    assert _reported(log, service, alice, story_id, at) == ["story.created"]


def test_a_save_reports_story_saved_with_the_story_as_saved(
    service: Service, alice: Viewer, log: Log
) -> None:
    story_id = _create(service, alice)
    log.new()
    at = _later(service)
    service.stories.save("alice", "tale", {"title": "Retold"}, viewer=alice, version=1)
    assert _reported(log, service, alice, story_id, at) == ["story.saved"]
    shown = _full(service, alice)
    assert (shown["version"], shown["title"], shown["date"]["modified"]) == (2, "Retold", at)


def test_a_save_of_a_published_story_reports_it_published_and_modified(
    service: Service, alice: Viewer, log: Log
) -> None:
    story_id = _create(service, alice, publish=True)
    log.new()
    at = _later(service)
    service.stories.save("alice", "tale", {"title": "Retold"}, viewer=alice)
    assert _reported(log, service, alice, story_id, at) == ["story.saved"]
    shown = _full(service, alice)
    assert (shown["status"], shown["modified"], shown["version"]) == ("published", True, 2)


def test_an_editor_s_save_reports_the_story_as_its_author_sees_it(
    service: Service, alice: Viewer, editor: Viewer, log: Log
) -> None:
    story_id = _create(service, alice)
    log.new()
    at = _later(service)
    service.stories.save("alice", "tale", {"title": "Edited"}, viewer=editor)
    assert _reported(log, service, alice, story_id, at) == ["story.saved"]


def test_a_save_that_schedules_reports_story_saved_then_story_scheduled(
    service: Service, alice: Viewer, log: Log
) -> None:
    story_id = _create(service, alice)
    log.new()
    at = _later(service)
    service.stories.save("alice", "tale", {}, viewer=alice, publish_at=AN_HOUR)
    assert _reported(log, service, alice, story_id, at) == ["story.saved", "story.scheduled"]
    assert _full(service, alice)["publish_at"] == AN_HOUR_STORED


def test_a_save_that_moves_the_schedule_reports_story_scheduled_with_the_new_time(
    service: Service, alice: Viewer, log: Log
) -> None:
    story_id = _create(service, alice, publish_at=AN_HOUR)
    log.new()
    at = _later(service)
    service.stories.save("alice", "tale", {}, viewer=alice, publish_at=TWO_HOURS)
    assert _reported(log, service, alice, story_id, at) == ["story.saved", "story.scheduled"]
    assert _full(service, alice)["publish_at"] == "2026-01-01T02:00:00.000Z"


def test_a_save_that_cancels_the_schedule_reports_story_scheduled_without_a_time(
    service: Service, alice: Viewer, log: Log
) -> None:
    story_id = _create(service, alice, publish_at=AN_HOUR)
    log.new()
    at = _later(service)
    service.stories.save("alice", "tale", {}, viewer=alice, publish_at=None)
    assert _reported(log, service, alice, story_id, at) == ["story.saved", "story.scheduled"]
    assert _full(service, alice)["publish_at"] is None


@pytest.mark.parametrize(
    "schedule",
    [{}, {"publish_at": AN_HOUR}],
    ids=["publish_at left out", "the same publish_at"],
)
def test_a_save_that_keeps_the_schedule_reports_story_saved_alone(
    service: Service, alice: Viewer, log: Log, schedule: dict[str, Any]
) -> None:
    story_id = _create(service, alice, publish_at=AN_HOUR)
    log.new()
    at = _later(service)
    service.stories.save("alice", "tale", {"title": "Retold"}, viewer=alice, **schedule)
    assert _reported(log, service, alice, story_id, at) == ["story.saved"]
    assert _full(service, alice)["publish_at"] == AN_HOUR_STORED


def test_a_save_of_a_published_story_with_publish_at_none_reports_story_saved_alone(
    service: Service, alice: Viewer, log: Log
) -> None:
    """A published story has no schedule to cancel: its schedule did not change."""
    story_id = _create(service, alice, publish=True)
    log.new()
    at = _later(service)
    service.stories.save("alice", "tale", {}, viewer=alice, publish_at=None)
    assert _reported(log, service, alice, story_id, at) == ["story.saved"]


def test_a_publish_reports_story_published(service: Service, alice: Viewer, log: Log) -> None:
    story_id = _create(service, alice)
    log.new()
    at = _later(service)
    service.stories.publish("alice", "tale", {"title": "Out now"}, viewer=alice, version=1)
    assert _reported(log, service, alice, story_id, at) == ["story.published"]
    shown = _full(service, alice)
    assert (shown["status"], shown["version"], shown["date"]["published"]) == ("published", 2, at)


def test_a_publish_of_a_scheduled_story_reports_story_published_alone(
    service: Service, alice: Viewer, log: Log
) -> None:
    """Publishing cancels the schedule; the story is published, not scheduled."""
    story_id = _create(service, alice, publish_at=AN_HOUR)
    log.new()
    at = _later(service)
    service.stories.publish("alice", "tale", viewer=alice)
    assert _reported(log, service, alice, story_id, at) == ["story.published"]
    assert _full(service, alice)["publish_at"] is None


def test_a_publish_with_a_time_reports_story_saved_then_story_scheduled(
    service: Service, alice: Viewer, log: Log
) -> None:
    story_id = _create(service, alice)
    log.new()
    at = _later(service)
    service.stories.publish("alice", "tale", viewer=alice, publish_at=AN_HOUR)
    assert _reported(log, service, alice, story_id, at) == ["story.saved", "story.scheduled"]
    shown = _full(service, alice)
    assert (shown["status"], shown["publish_at"]) == ("working", AN_HOUR_STORED)


def test_a_due_publication_reports_story_published_at_the_time_it_happened(
    service: Service, alice: Viewer, log: Log
) -> None:
    story_id = _create(service, alice, publish_at=AN_HOUR)
    log.new()
    at = format_timestamp(_clock(service).advance(hours=1, seconds=30))
    assert service.publish_due() == 1
    assert _reported(log, service, alice, story_id, at) == ["story.published"]
    shown = _full(service, alice)
    assert (shown["status"], shown["publish_at"], shown["version"]) == ("published", None, 2)


def test_an_unpublish_reports_story_unpublished(service: Service, alice: Viewer, log: Log) -> None:
    story_id = _create(service, alice, publish=True)
    log.new()
    at = _later(service)
    service.stories.unpublish("alice", "tale", viewer=alice)
    assert _reported(log, service, alice, story_id, at) == ["story.unpublished"]
    shown = _full(service, alice)
    assert (shown["status"], shown["version"]) == ("working", 2)


def test_an_unpublish_of_a_scheduled_story_reports_story_scheduled_without_a_time(
    service: Service, alice: Viewer, log: Log
) -> None:
    """It cancels the schedule as a save with ``publish_at`` None would; the story was not
    published, so it reports no ``story.unpublished``."""
    story_id = _create(service, alice, publish_at=AN_HOUR)
    log.new()
    at = _later(service)
    service.stories.unpublish("alice", "tale", viewer=alice)
    assert _reported(log, service, alice, story_id, at) == ["story.scheduled"]
    assert _full(service, alice)["publish_at"] is None


def test_a_slug_change_reports_story_slug_changed_with_the_new_slug(
    service: Service, alice: Viewer, log: Log
) -> None:
    story_id = _create(service, alice)
    log.new()
    at = _later(service)
    service.stories.change_slug("alice", "tale", "retold", viewer=alice)
    events = log.new()
    shown = _full(service, alice, "retold")
    _check_story_events(events, ["story.slug_changed"], story_id, at, shown)
    assert (shown["slug"], shown["version"]) == ("retold", 2)
    assert shown["permalink"].endswith("/alice/retold")


def test_a_restore_reports_story_restored_with_the_story_as_restored(
    service: Service, alice: Viewer, log: Log
) -> None:
    story_id = _create(service, alice)
    service.stories.save("alice", "tale", {"title": "Retold"}, viewer=alice)
    log.new()
    at = _later(service)
    service.revisions.restore("alice", "tale", 1, viewer=alice, version=2)
    assert _reported(log, service, alice, story_id, at) == ["story.restored"]
    shown = _full(service, alice)
    assert (shown["title"], shown["version"]) == ("The tale", 3)


def test_a_delete_reports_story_deleted_with_its_sid_username_and_slug(
    service: Service, alice: Viewer, editor: Viewer, log: Log
) -> None:
    story_id = _create(service, alice, publish=True)
    service.stories.change_slug("alice", "tale", "retold", viewer=alice)
    log.new()
    at = _later(service)
    service.stories.delete("alice", "retold", viewer=editor)
    (event,) = log.new()
    assert (event.type, event.subject, event.timestamp) == ("story.deleted", story_id, at)
    assert orjson.loads(event.data) == {"sid": story_id, "username": "alice", "slug": "retold"}


def test_featuring_and_unfeaturing_report_nothing(
    service: Service, alice: Viewer, curator: Viewer, log: Log
) -> None:
    _create(service, alice, publish=True)
    log.new()
    _later(service)
    service.stories.feature("alice", "tale", viewer=curator)
    service.stories.unfeature("alice", "tale", viewer=curator)
    assert log.new() == []


def test_reading_a_story_reports_nothing(
    service: Service, alice: Viewer, bob: Viewer, log: Log
) -> None:
    _create(service, alice, publish=True)
    log.new()
    service.stories.read("alice", "tale", viewer=bob)
    service.flush_views()
    assert log.new() == []


# -- users -----------------------------------------------------------------------------------


def _profile(service: Service, username: str) -> Any:
    return orjson.loads(service.accounts.get(username).model_dump_json(by_alias=True))


def test_a_new_user_reports_user_created_with_the_public_profile(
    service: Service, log: Log
) -> None:
    at = _later(service)
    service.accounts.create_user(
        "dora", "dora-password", name="Dora", email="dora@mail.example", bio="Maps", editor=True
    )
    (event,) = log.new()
    user = service.store.users.get_by_username("dora")
    assert user is not None
    assert (event.type, event.subject, event.timestamp) == ("user.created", user.id, at)
    data = orjson.loads(event.data)
    assert data == _profile(service, "dora")
    assert (data["name"], data["bio"]) == ("Dora", "Maps")
    assert "dora@mail.example" not in event.data  # the public profile: no email, no password


def test_a_profile_update_reports_user_updated_with_the_profile_as_updated(
    service: Service, alice: Viewer, log: Log
) -> None:
    at = _later(service)
    service.accounts.update("alice", {"bio": "Down the rabbit hole"}, viewer=alice)
    (event,) = log.new()
    assert alice.user is not None
    assert (event.type, event.subject, event.timestamp) == ("user.updated", alice.user.id, at)
    assert orjson.loads(event.data) == _profile(service, "alice")
    assert orjson.loads(event.data)["bio"] == "Down the rabbit hole"


def test_an_update_that_changes_nothing_public_reports_nothing(
    service: Service, alice: Viewer, log: Log
) -> None:
    _later(service)
    service.accounts.update("alice", {"name": "Alice Liddell"}, viewer=alice)  # as it was
    service.accounts.update("alice", {"email": "a@mail.example"}, viewer=alice)  # ignored
    assert log.new() == []


def test_a_new_password_and_a_sign_in_report_nothing(
    service: Service, alice: Viewer, log: Log
) -> None:
    app = service.accounts.create_app("Reader")
    service.accounts.set_password("alice", "another-password")
    service.accounts.authenticate(app.api_key, "alice", "another-password")
    assert log.new() == []


# -- what reports nothing --------------------------------------------------------------------

Refused = Callable[[Service, dict[str, Viewer]], object]


def _save(viewer: str, story: dict[str, Any], **options: Any) -> Refused:
    return lambda s, v: s.stories.save("alice", "tale", story, viewer=v[viewer], **options)


#: each call, and what refuses it (None: it goes through and changes nothing)
REFUSED: dict[str, tuple[Refused, type[StorycoreError] | None]] = {
    "a create with an invalid title": (
        lambda s, v: s.stories.create("alice", {"title": 5}, viewer=v["alice"]),
        InvalidParameter,
    ),
    "a create at a taken slug": (
        lambda s, v: s.stories.create("alice", {"slug": "tale"}, viewer=v["alice"]),
        SlugTaken,
    ),
    "a create for someone else": (
        lambda s, v: s.stories.create("alice", {"title": "Mine"}, viewer=v["bob"]),
        Forbidden,
    ),
    "an anonymous create": (
        lambda s, v: s.stories.create("alice", {"title": "Mine"}, viewer=v["anonymous"]),
        Unauthorized,
    ),
    "a save with an invalid member": (_save("alice", {"elements": "many"}), InvalidParameter),
    "a save at a stale version": (_save("alice", {"title": "Old"}, version=7), VersionConflict),
    "a save by someone else": (
        lambda s, v: s.stories.save("alice", "other", {"title": "Mine"}, viewer=v["bob"]),
        Forbidden,
    ),
    "a save of a story someone else cannot see": (_save("bob", {"title": "Mine"}), NotFound),
    "a save to a taken slug": (_save("alice", {"slug": "other"}), SlugTaken),
    "a save with a time in the past": (
        _save("alice", {}, publish_at="2025-01-01T00:00:00Z"),
        InvalidParameter,
    ),
    "a publish at a stale version": (
        lambda s, v: s.stories.publish("alice", "tale", viewer=v["alice"], version=3),
        VersionConflict,
    ),
    "a publish of a missing story": (
        lambda s, v: s.stories.publish("alice", "none", viewer=v["alice"]),
        NotFound,
    ),
    "an unpublish of a working story": (
        lambda s, v: s.stories.unpublish("alice", "tale", viewer=v["alice"]),
        None,
    ),
    "a slug change to the same slug": (
        lambda s, v: s.stories.change_slug("alice", "tale", "tale", viewer=v["alice"]),
        None,
    ),
    "a slug change to a taken slug": (
        lambda s, v: s.stories.change_slug("alice", "tale", "other", viewer=v["alice"]),
        SlugTaken,
    ),
    "a slug change to an invalid slug": (
        lambda s, v: s.stories.change_slug("alice", "tale", "Not A Slug", viewer=v["alice"]),
        InvalidSlug,
    ),
    "a restore at a stale version": (
        lambda s, v: s.revisions.restore("alice", "tale", 1, viewer=v["alice"], version=9),
        VersionConflict,
    ),
    "a restore of a version that is no revision": (
        lambda s, v: s.revisions.restore("alice", "tale", 1, viewer=v["alice"], version=1),
        NotFound,
    ),
    "a delete by someone else": (
        lambda s, v: s.stories.delete("alice", "other", viewer=v["bob"]),
        Forbidden,
    ),
    "a new user with a taken username": (
        lambda s, v: s.accounts.create_user("Alice"),
        InvalidParameter,
    ),
    "a new user with an invalid username": (
        lambda s, v: s.accounts.create_user("no spaces"),
        InvalidParameter,
    ),
    "an update of someone else's profile": (
        lambda s, v: s.accounts.update("alice", {"bio": "Mine"}, viewer=v["bob"]),
        Forbidden,
    ),
    "a profile update with an unknown member": (
        lambda s, v: s.accounts.update("alice", {"plan": "enterprise"}, viewer=v["alice"]),
        InvalidParameter,
    ),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_what_is_refused_or_changes_nothing_reports_nothing(
    service: Service, alice: Viewer, bob: Viewer, log: Log, case: str
) -> None:
    _create(service, alice)
    _create(service, alice, slug="other", publish=True)
    log.new()
    _later(service)
    call, refused = REFUSED[case]
    viewers = {"alice": alice, "bob": bob, "anonymous": Viewer()}
    if refused is None:
        call(service, viewers)
    else:
        with pytest.raises(refused):
            call(service, viewers)
    assert log.new() == []


def test_an_import_reports_nothing(service: Service, alice: Viewer, log: Log) -> None:
    """An import puts back what an export holds: it is no change anyone made now."""
    _create(service, alice, publish=True)
    lines = list(export_lines(service.store))
    with Service(open_store("memory://"), TEST_SETTINGS) as target:
        assert target.imports.load(lines) > 0
        assert target.events.after(None, MAX_EVENTS) == []
        assert target.events.end() is None


def test_an_import_that_replaces_reports_nothing(service: Service, alice: Viewer, log: Log) -> None:
    _create(service, alice, publish=True)
    log.new()
    service.imports.load(list(export_lines(service.store)), replace=True)
    assert log.new() == []


def test_a_reindex_reports_nothing(service: Service, alice: Viewer, log: Log) -> None:
    _create(service, alice, publish=True)
    log.new()
    reindex(service.store)
    assert log.new() == []


# -- reading the log -------------------------------------------------------------------------


def _make_events(service: Service, alice: Viewer) -> None:
    """Six events: three creates, one of them published, a save and a delete."""
    _create(service, alice, publish=True)
    _create(service, alice, slug="second")
    _create(service, alice, slug="third")
    service.stories.save("alice", "second", {"title": "Again"}, viewer=alice)
    service.stories.delete("alice", "third", viewer=alice)


def test_the_log_holds_every_event_in_the_order_of_the_changes(
    service: Service, alice: Viewer, log: Log
) -> None:
    _make_events(service, alice)
    assert [e.type for e in log.new()] == [
        "story.created",
        "story.published",
        "story.created",
        "story.created",
        "story.saved",
        "story.deleted",
    ]


def test_the_log_begins_at_the_first_event_without_a_cursor(
    service: Service, alice: Viewer
) -> None:
    """The fixture's users come first: alice's ``user.created``."""
    first = service.events.after(None, 1)
    assert [item.event.type for item in first] == ["user.created"]
    assert orjson.loads(first[0].event.data)["username"] == "alice"


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_a_reader_going_on_from_its_cursors_sees_every_event_once_in_order(
    service: Service, alice: Viewer, bob: Viewer, limit: int
) -> None:
    _make_events(service, alice)
    everything = [item.event for item in service.events.after(None, MAX_EVENTS)]
    seen: list[Event] = []
    cursor = None
    while batch := service.events.after(cursor, limit):
        assert len(batch) <= limit
        seen += [item.event for item in batch]
        cursor = batch[-1].cursor
    assert seen == everything
    assert len(everything) == 8  # alice, bob and six changes


def test_a_cursor_from_the_middle_goes_on_after_its_event(service: Service, alice: Viewer) -> None:
    _make_events(service, alice)
    everything = service.events.after(None, MAX_EVENTS)
    for n, item in enumerate(everything):
        assert service.events.after(item.cursor, MAX_EVENTS) == everything[n + 1 :]


def test_end_is_none_for_an_empty_log(service: Service) -> None:
    assert service.events.end() is None
    assert service.events.after(None, 10) == []


def test_a_reader_starting_at_end_sees_only_what_happens_later(
    service: Service, alice: Viewer
) -> None:
    _make_events(service, alice)
    end = service.events.end()
    assert end is not None
    assert service.events.after(end, MAX_EVENTS) == []
    assert end == service.events.after(None, MAX_EVENTS)[-1].cursor
    _create(service, alice, slug="later")
    assert [item.event.type for item in service.events.after(end, MAX_EVENTS)] == ["story.created"]


@pytest.mark.parametrize("limit", [1, 1000, "3"])
def test_a_limit_from_1_to_1000_is_taken(service: Service, alice: Viewer, limit: object) -> None:
    _make_events(service, alice)
    found = service.events.after(None, limit)  # type: ignore[arg-type]
    assert len(found) == min(int(limit), 7)  # type: ignore[call-overload]


@pytest.mark.parametrize("limit", [0, -1, 1001, "x", "", 2.5, None, True], ids=repr)
def test_a_limit_outside_1_to_1000_is_invalid(
    service: Service, alice: Viewer, limit: object
) -> None:
    with pytest.raises(InvalidParameter) as refused:
        service.events.after(None, limit)  # type: ignore[arg-type]
    assert refused.value.field == "limit"


@pytest.mark.parametrize(
    "cursor",
    ["x", "", "-1", "1.5", "01", "0", "٣", "3 ", "99", "9" * 40, 3, b"3", ["3"]],
    ids=repr,
)
def test_a_cursor_the_log_did_not_make_is_invalid(
    service: Service, alice: Viewer, cursor: object
) -> None:
    """The log (alice and one story) made the cursors 1 and 2 and nothing else."""
    _create(service, alice)
    made = [item.cursor for item in service.events.after(None, MAX_EVENTS)]
    assert cursor not in made
    with pytest.raises(InvalidParameter) as refused:
        service.events.after(cursor, 10)  # type: ignore[arg-type]
    assert refused.value.field == "cursor"


def test_event_ids_are_unique_and_each_type_is_one_the_decisions_name(
    service: Service, alice: Viewer, bob: Viewer, log: Log
) -> None:
    _make_events(service, alice)
    _create(service, alice, slug="scheduled", publish_at=AN_HOUR)
    service.stories.change_slug("alice", "tale", "moved", viewer=alice)
    service.stories.unpublish("alice", "moved", viewer=alice)
    service.accounts.update("bob", {"bio": "Builds"}, viewer=bob)
    events = [item.event for item in service.events.after(None, MAX_EVENTS)]
    ids = [event.id for event in events]
    assert len(ids) == len(set(ids)) == 14
    assert {event.type for event in events} <= set(EVENT_TYPES)
