"""A round of publishing due stories (docs/api.md#scheduled-publishing) takes every story due, batch
after
batch, also when other processes publish part of a batch it found: a round that stopped at the
first batch another process had a share of left the rest for the next round, a second later,
which made stories late by up to a second more with every process added.

The time is a ``ManualClock`` at ``START``; another process's write is made between the due
lookup and the publishing it leads to, as ``tests/usecases`` does for a change made meanwhile.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storycore import Service, Viewer
from storycore.model.records import StoryRecord
from storycore.testing import ManualClock

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")

START = datetime(2026, 1, 1, tzinfo=UTC)
#: More than a batch of the scheduler (100).
DUE = 150
END_OF_TIME = "9999-12-31T23:59:59.999Z"


@pytest.fixture
def storycore_clock() -> ManualClock:
    """The service's time, moved by hand; it starts at ``START``."""
    return ManualClock(START)


def _schedule_due(service: Service, alice: Viewer, count: int) -> None:
    """``count`` stories of alice's, scheduled for 10 s after ``START``, and the clock there."""
    publish_at = START + timedelta(seconds=10)
    for number in range(count):
        service.stories.create(
            "alice", {"title": f"Story {number}"}, viewer=alice, publish_at=publish_at
        )
    clock = service.clock
    assert isinstance(clock, ManualClock)
    clock.advance(10)


def _first_found_published_elsewhere(
    service: Service, alice: Viewer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the first due lookup, the first story it found is published by someone else (as
    another process's scheduler would) before this round gets to it."""
    stories = service.store.stories
    due = stories.due

    def found_then_one_published(now: str, limit: int) -> list[StoryRecord]:
        found = due(now, limit)
        monkeypatch.setattr(stories, "due", due)
        service.stories.publish("alice", found[0].slug, viewer=alice)
        return found

    monkeypatch.setattr(stories, "due", found_then_one_published)


def test_a_round_goes_on_past_a_batch_that_another_process_published_part_of(
    service: Service, alice: Viewer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _schedule_due(service, alice, DUE)
    _first_found_published_elsewhere(service, alice, monkeypatch)
    assert service.publish_due() == DUE - 1
    assert service.store.stories.due(END_OF_TIME, DUE) == []
