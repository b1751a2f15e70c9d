"""Views counted in memory and written at least once a second, as additions
(docs/decisions.md#serving).

The second is the service's clock's: a ``ManualClock`` the test moves, so no test waits for it.
"""

from __future__ import annotations

import threading
from collections.abc import MutableMapping

import pytest

from storycore.errors import Unavailable
from storycore.testing import ManualClock
from storycore.usecases.viewcounts import INTERVAL, ViewCounts

Pages = MutableMapping[tuple[str, str], int]


class Recorder:
    """A story repository's ``add_views`` that records what it was given, or fails."""

    def __init__(self) -> None:
        self.writes: list[tuple[dict[str, int], dict[tuple[str, str], int]]] = []
        self.failure: BaseException | None = None
        self.written = threading.Event()  # set by each write

    def add_views(
        self, views: MutableMapping[str, int], embeds: Pages, *, max_embed_pages: int
    ) -> None:
        if self.failure is not None:
            raise self.failure
        self.writes.append((dict(views), dict(embeds)))
        self.written.set()

    def totals(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for views, _ in self.writes:
            for story_id, count in views.items():
                total[story_id] = total.get(story_id, 0) + count
        return total


def _counts(recorder: Recorder, clock: ManualClock | None = None) -> ViewCounts:
    """Counts written to ``recorder`` every second of ``clock`` (one that stands still unless
    given: nothing is written but when asked)."""
    return ViewCounts(
        recorder,  # type: ignore[arg-type]
        max_embed_pages=100,
        clock=clock or ManualClock(),
    )


def _writer(counts: ViewCounts) -> threading.Thread:
    """The background writer ``counts`` started."""
    writer = counts._writer
    assert writer is not None
    return writer


def test_counted_views_are_written_together_as_additions() -> None:
    recorder = Recorder()
    counts = _counts(recorder)
    for _ in range(3):
        counts.add("a")
    counts.add("b", "https://blog.example/post")
    counts.flush()
    assert recorder.writes == [({"a": 3, "b": 1}, {("b", "https://blog.example/post"): 1})]
    counts.close()


def test_nothing_counted_writes_nothing() -> None:
    recorder = Recorder()
    counts = _counts(recorder)
    counts.flush()
    counts.close()
    assert recorder.writes == []


def test_counts_the_store_could_not_take_are_written_next_time_once() -> None:
    recorder = Recorder()
    counts = _counts(recorder)
    counts.add("a")
    recorder.failure = Unavailable("busy")
    with pytest.raises(Unavailable):
        counts.flush()
    counts.add("a")
    recorder.failure = None
    counts.flush()
    counts.close()
    assert recorder.totals() == {"a": 2}


def test_counts_are_written_within_a_second_without_being_asked() -> None:
    recorder, clock = Recorder(), ManualClock()
    counts = _counts(recorder, clock)
    counts.add("a")
    clock.advance(INTERVAL)
    assert recorder.written.wait(timeout=10)  # the writer thread's turn, not time passing
    assert recorder.totals() == {"a": 1}
    counts.close()


def test_close_writes_what_is_left() -> None:
    recorder = Recorder()
    counts = _counts(recorder)
    counts.add("a")
    counts.close()
    assert recorder.totals() == {"a": 1}


def test_an_idle_service_holds_no_writer_thread() -> None:
    recorder, clock = Recorder(), ManualClock()
    counts = _counts(recorder, clock)
    counts.add("a")
    writer = _writer(counts)
    clock.advance(INTERVAL)  # writes "a"
    clock.advance(INTERVAL)  # finds nothing to write: the writer ends
    writer.join(timeout=10)
    assert not writer.is_alive()
    assert counts._writer is None
    counts.add("b")  # counting again starts a writer again
    assert counts._writer is not None
    counts.close()
    assert recorder.totals() == {"a": 1, "b": 1}
