"""Views counted in memory and written at least once a second, as additions (decisions §14)."""

from __future__ import annotations

import time
from collections.abc import MutableMapping

import pytest

from storycore.errors import Unavailable
from storycore.usecases.viewcounts import ViewCounts

Pages = MutableMapping[tuple[str, str], int]


class Recorder:
    """A story repository's ``add_views`` that records what it was given, or fails."""

    def __init__(self) -> None:
        self.writes: list[tuple[dict[str, int], dict[tuple[str, str], int]]] = []
        self.failure: BaseException | None = None

    def add_views(
        self, views: MutableMapping[str, int], embeds: Pages, *, max_embed_pages: int
    ) -> None:
        if self.failure is not None:
            raise self.failure
        self.writes.append((dict(views), dict(embeds)))

    def totals(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for views, _ in self.writes:
            for story_id, count in views.items():
                total[story_id] = total.get(story_id, 0) + count
        return total


def _counts(recorder: Recorder, interval: float = 60.0) -> ViewCounts:
    return ViewCounts(recorder, max_embed_pages=100, interval=interval)  # type: ignore[arg-type]


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
    recorder = Recorder()
    counts = _counts(recorder, interval=0.05)
    counts.add("a")
    deadline = time.monotonic() + 5
    while not recorder.writes and time.monotonic() < deadline:
        time.sleep(0.01)
    counts.close()
    assert recorder.totals() == {"a": 1}


def test_close_writes_what_is_left() -> None:
    recorder = Recorder()
    counts = _counts(recorder)
    counts.add("a")
    counts.close()
    assert recorder.totals() == {"a": 1}


def test_an_idle_service_holds_no_writer_thread() -> None:
    recorder = Recorder()
    counts = _counts(recorder, interval=0.02)
    counts.add("a")
    deadline = time.monotonic() + 5
    while counts._writer is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert counts._writer is None
    counts.add("b")  # counting again starts a writer again
    counts.close()
    assert recorder.totals() == {"a": 1, "b": 1}
