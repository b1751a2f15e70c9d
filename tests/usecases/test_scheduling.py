"""Scheduled publishing (docs/api.md#scheduled-publishing): ``publish_at`` on create, save and
publish, and
the due stories published as a publish would, once, when their time comes.

The time is a ``ManualClock`` the tests move (it starts at 2026-01-01T00:00:00Z); the
scheduler's thread waits on that clock, so no test waits for time to pass.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

import pytest

from storycore import InvalidParameter, NotFound, Service, Viewer
from storycore.model.records import StoryRecord
from storycore.model.shapes import StoryDetail
from storycore.testing import ManualClock
from storycore.usecases.scheduling import INTERVAL

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

START = datetime(2026, 1, 1, tzinfo=UTC)
AN_HOUR = "2026-01-01T01:00:00Z"  # an hour after START
AN_HOUR_STORED = "2026-01-01T01:00:00.000Z"


@pytest.fixture
def storycore_clock() -> ManualClock:
    """The service's time, moved by hand; it starts at ``START``."""
    return ManualClock(START)


def _clock(service: Service) -> ManualClock:
    clock = service.clock
    assert isinstance(clock, ManualClock)
    return clock


def _create(service: Service, viewer: Viewer, slug: str = "tale", **options: object) -> StoryRecord:
    created = service.stories.create(
        "alice",
        {"title": f"The {slug}", "slug": slug},
        viewer=viewer,
        **options,  # type: ignore[arg-type]
    )
    return _record(service, created.id)


def _record(service: Service, story_id: str) -> StoryRecord:
    record = service.store.stories.get(story_id)
    assert record is not None
    return record


def _read(service: Service, viewer: Viewer, slug: str = "tale") -> StoryDetail:
    return service.stories.read("alice", slug, viewer=viewer)


def _in(seconds: float) -> str:
    """The time ``seconds`` after ``START``, as a caller sends it."""
    return (START + timedelta(seconds=seconds)).isoformat()


# -- scheduling ------------------------------------------------------------------------------


def test_a_story_created_with_publish_at_stays_working_and_shows_the_time(
    service: Service, alice: Viewer
) -> None:
    created = service.stories.create(
        "alice", {"title": "Soon", "slug": "tale"}, viewer=alice, publish_at=AN_HOUR
    )
    assert created.status == "working"
    assert _read(service, alice).publish_at == AN_HOUR_STORED


def test_create_with_publish_and_publish_at_schedules_rather_than_publishes(
    service: Service, alice: Viewer
) -> None:
    record = _create(service, alice, publish=True, publish_at=AN_HOUR)
    assert (record.status, record.published, record.publish_at) == (
        "working",
        None,
        AN_HOUR_STORED,
    )


def test_a_save_with_publish_at_schedules_a_working_story(service: Service, alice: Viewer) -> None:
    _create(service, alice)
    saved = service.stories.save(
        "alice", "tale", {"title": "Soon"}, viewer=alice, publish_at=AN_HOUR
    )
    assert (saved.status, saved.publish_at, saved.title) == ("working", AN_HOUR_STORED, "Soon")


def test_a_save_of_nothing_but_publish_at_schedules_a_working_story(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    saved = service.stories.save("alice", "tale", {}, viewer=alice, publish_at=AN_HOUR)
    assert (saved.status, saved.publish_at, saved.version) == ("working", AN_HOUR_STORED, 2)


def test_a_publish_with_publish_at_schedules_instead_of_publishing(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice)
    answer = service.stories.publish("alice", "tale", viewer=alice, publish_at=AN_HOUR)
    assert (answer.status, answer.publish_at) == ("working", AN_HOUR_STORED)


def test_the_full_shape_shows_publish_at(service: Service, alice: Viewer) -> None:
    _create(service, alice, publish_at=AN_HOUR)
    moved = service.stories.change_slug("alice", "tale", "later", viewer=alice)
    assert moved.publish_at == AN_HOUR_STORED


@pytest.mark.parametrize(
    "publish_at",
    [
        START.isoformat(),  # now
        _in(0.999),  # less than a second ahead
        _in(-3600),  # past
        "2027-01-01T00:00:00.001Z",  # a year and a millisecond ahead
        "2030-06-01T00:00:00Z",
        "tomorrow",
        "",
        "2026-01-01T01:00:00",  # no zone
        "2026-02-30T01:00:00Z",  # no such day
        "2026-01-01 01:00:00Z",
        datetime(2026, 1, 1, 1),  # naive
        3600,
    ],
    ids=repr,
)
def test_publish_at_must_be_a_time_from_one_second_to_one_year_ahead(
    service: Service, alice: Viewer, publish_at: object
) -> None:
    with pytest.raises(InvalidParameter) as raised:
        _create(service, alice, publish_at=publish_at)
    assert raised.value.field == "publish_at"
    assert service.catalog.user("alice", viewer=alice).items == []


@pytest.mark.parametrize(
    ("publish_at", "stored"),
    [
        (_in(1), "2026-01-01T00:00:01.000Z"),
        ("2027-01-01T00:00:00Z", "2027-01-01T00:00:00.000Z"),
        ("2026-01-01T03:30:00+02:00", "2026-01-01T01:30:00.000Z"),
        (
            datetime(2026, 1, 1, 3, 30, tzinfo=timezone(timedelta(hours=2))),
            "2026-01-01T01:30:00.000Z",
        ),
    ],
    ids=["a second ahead", "a year ahead", "another zone", "an aware datetime"],
)
def test_publish_at_takes_any_zone_and_is_stored_in_utc(
    service: Service, alice: Viewer, publish_at: object, stored: str
) -> None:
    assert _create(service, alice, publish_at=publish_at).publish_at == stored


@pytest.mark.parametrize("operation", ["save", "publish"])
def test_save_and_publish_check_publish_at_as_create_does(
    service: Service, alice: Viewer, operation: str
) -> None:
    _create(service, alice)
    with pytest.raises(InvalidParameter) as raised:
        getattr(service.stories, operation)("alice", "tale", {}, viewer=alice, publish_at=_in(0.5))
    assert raised.value.field == "publish_at"
    assert _read(service, alice).version == 1


def test_a_save_with_publish_at_none_cancels_the_schedule(service: Service, alice: Viewer) -> None:
    _create(service, alice, publish_at=AN_HOUR)
    saved = service.stories.save("alice", "tale", {}, viewer=alice, publish_at=None)
    assert (saved.status, saved.publish_at) == ("working", None)
    _clock(service).advance(hours=2)
    assert service.publish_due() == 0


def test_a_save_without_publish_at_keeps_the_schedule(service: Service, alice: Viewer) -> None:
    _create(service, alice, publish_at=AN_HOUR)
    saved = service.stories.save("alice", "tale", {"title": "Edited"}, viewer=alice)
    assert saved.publish_at == AN_HOUR_STORED


def test_a_publish_without_publish_at_publishes_now_and_cancels_the_schedule(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice, publish_at=AN_HOUR)
    published = service.stories.publish("alice", "tale", viewer=alice)
    assert (published.status, published.publish_at) == ("published", None)
    _clock(service).advance(hours=2)
    assert (service.publish_due(), _read(service, alice).version) == (0, 2)


def test_an_unpublish_of_a_scheduled_story_cancels_the_schedule(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice, publish_at=AN_HOUR)
    unpublished = service.stories.unpublish("alice", "tale", viewer=alice)
    assert (unpublished.status, unpublished.publish_at, unpublished.version) == ("working", None, 2)
    _clock(service).advance(hours=2)
    assert service.publish_due() == 0


@pytest.mark.parametrize("operation", ["save", "publish"])
def test_a_published_story_cannot_be_scheduled(
    service: Service, alice: Viewer, operation: str
) -> None:
    _create(service, alice, publish=True)
    with pytest.raises(InvalidParameter) as raised:
        getattr(service.stories, operation)("alice", "tale", {}, viewer=alice, publish_at=AN_HOUR)
    assert raised.value.field == "publish_at"
    assert (_read(service, alice).version, _read(service, alice).publish_at) == (1, None)


def test_a_published_story_may_be_saved_with_publish_at_none(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice, publish=True)
    saved = service.stories.save("alice", "tale", {"title": "Fixed"}, viewer=alice, publish_at=None)
    assert (saved.status, saved.title, saved.publish_at) == ("published", "Fixed", None)


# -- publishing what is due -------------------------------------------------------------------


def test_publish_due_publishes_exactly_the_stories_whose_time_has_come(
    service: Service, alice: Viewer
) -> None:
    for slug, seconds in [("first", 10), ("second", 20), ("third", 30)]:
        _create(service, alice, slug, publish_at=_in(seconds))
    _create(service, alice, "unscheduled")
    _clock(service).advance(20)
    assert service.publish_due() == 2
    statuses = {slug: _read(service, alice, slug).status for slug in ("first", "second", "third")}
    assert statuses == {"first": "published", "second": "published", "third": "working"}
    assert _read(service, alice, "unscheduled").status == "working"
    assert service.publish_due() == 0


def test_a_due_story_is_published_at_the_moment_it_is_published(
    service: Service, alice: Viewer
) -> None:
    story = _create(service, alice, publish_at=_in(10))
    moment = _clock(service).advance(25)
    service.publish_due()
    record = _record(service, story.id)
    stamp = moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    assert (record.published, record.updated) == (stamp, stamp)


def test_a_due_story_is_published_as_a_publish_would_with_a_revision_by_its_author(
    service: Service, alice: Viewer, editor: Viewer
) -> None:
    _create(service, alice)
    service.stories.save("alice", "tale", {"title": "Ready"}, viewer=editor, publish_at=_in(10))
    _clock(service).advance(10)
    assert service.publish_due() == 1
    story = _read(service, alice)
    assert (story.status, story.version, story.publish_at) == ("published", 3, None)
    newest = service.revisions.list("alice", "tale", viewer=alice).items[0]
    assert (newest.version, newest.status, newest.by) == (2, "working", "alice")
    record = _record(service, story.id)
    assert record.modified is False


def test_a_story_whose_time_passed_while_nothing_ran_is_published_at_the_next_run(
    service: Service, alice: Viewer
) -> None:
    _create(service, alice, publish_at=_in(10))
    _clock(service).advance(days=30)
    assert service.publish_due() == 1
    assert _read(service, alice).status == "published"


def test_a_story_changed_after_it_was_found_due_is_left_for_the_next_round(
    service: Service, alice: Viewer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _create(service, alice, publish_at=_in(10))
    _clock(service).advance(10)
    _change_once_found_due(
        service,
        monkeypatch,
        lambda: service.stories.save("alice", "tale", {"title": "Meanwhile"}, viewer=alice),
    )
    assert service.publish_due() == 0
    assert (_read(service, alice).status, _read(service, alice).version) == ("working", 2)
    assert service.publish_due() == 1  # still due: the next round publishes it
    story = _read(service, alice)
    assert (story.status, story.title, story.version) == ("published", "Meanwhile", 3)


def test_a_story_published_meanwhile_is_not_published_again(
    service: Service, alice: Viewer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _create(service, alice, publish_at=_in(10))
    _clock(service).advance(10)
    _change_once_found_due(
        service, monkeypatch, lambda: service.stories.publish("alice", "tale", viewer=alice)
    )
    assert service.publish_due() == 0
    assert _read(service, alice).version == 2
    assert [
        item.version for item in service.revisions.list("alice", "tale", viewer=alice).items
    ] == [1]


def test_a_story_deleted_meanwhile_is_left(
    service: Service, alice: Viewer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _create(service, alice, publish_at=_in(10))
    _clock(service).advance(10)
    _change_once_found_due(
        service, monkeypatch, lambda: service.stories.delete("alice", "tale", viewer=alice)
    )
    assert service.publish_due() == 0
    with pytest.raises(NotFound):
        _read(service, alice)


def _change_once_found_due(
    service: Service, monkeypatch: pytest.MonkeyPatch, change: Callable[[], object]
) -> None:
    """Make ``change`` happen between the first due lookup and the publishing it leads to, as
    another process's write would."""
    stories = service.store.stories
    due = stories.due

    def found_then_changed(now: str, limit: int) -> list[StoryRecord]:
        found = due(now, limit)
        monkeypatch.setattr(stories, "due", due)
        change()
        return found

    monkeypatch.setattr(stories, "due", found_then_changed)


def test_one_run_publishes_every_due_story_however_many(service: Service, alice: Viewer) -> None:
    for number in range(105):  # more than a batch
        _create(service, alice, f"story-{number}", publish_at=_in(10))
    _clock(service).advance(10)
    assert service.publish_due() == 105
    assert service.publish_due() == 0


# -- the scheduler thread --------------------------------------------------------------------


def _rounds(service: Service, monkeypatch: pytest.MonkeyPatch) -> queue.Queue[int]:
    """What each round of the scheduler published, in order, as the rounds end."""
    ended: queue.Queue[int] = queue.Queue()
    publish_due = service.stories.publish_due

    def counted(limit: int = 100) -> int:
        published = publish_due(limit)
        ended.put(published)
        return published

    monkeypatch.setattr(service.stories, "publish_due", counted)
    return ended


def _published_by_a_round(rounds: queue.Queue[int]) -> int:
    """What the rounds published until one published something (10 s of real time at most:
    the thread's turn, not time passing)."""
    while not (published := rounds.get(timeout=10)):
        pass
    return published


def test_the_scheduler_publishes_a_story_when_the_clock_reaches_its_time(
    service: Service, alice: Viewer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _create(service, alice, publish_at=_in(3))
    rounds = _rounds(service, monkeypatch)
    service.scheduler.start()
    assert rounds.get(timeout=10) == 0  # the first round, at once: nothing is due yet
    moment = _clock(service).advance(3 * INTERVAL)
    assert _published_by_a_round(rounds) == 1
    story = _read(service, alice)
    assert story.status == "published"
    assert story.updated == moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    service.scheduler.close()


def test_a_second_start_runs_no_second_scheduler(service: Service) -> None:
    service.scheduler.start()
    service.scheduler.start()
    names = [thread.name for thread in threading.enumerate()]
    assert names.count("storycore-scheduler") == 1
    service.scheduler.close()
    assert "storycore-scheduler" not in [thread.name for thread in threading.enumerate()]


def test_close_stops_the_scheduler_and_it_does_not_start_again(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    rounds = _rounds(service, monkeypatch)
    service.scheduler.start()
    assert rounds.get(timeout=10) == 0
    service.scheduler.close()
    assert not service.scheduler.running
    service.scheduler.start()
    assert not service.scheduler.running


def test_a_service_starts_no_scheduler_by_itself(service: Service) -> None:
    assert not service.scheduler.running
