"""Keeping what is shown and nothing else (docs/media.md#keeping-what-is-shown-and-nothing-else):
``keep_all_media`` keeps what is not kept yet, failures and stores written before pictures were
kept included; ``prune_media`` deletes a kept picture that no story, revision or user has shown
for 7 days, by the service's clock; a keeper started in the background does both. Against a
fake picture server on 127.0.0.1, time moved by hand."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from typing import Any

import pytest

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.fetch import HttpFetcher
from storycore.model.kept import KeptSource
from storycore.ports import Store
from storycore.testing import ManualClock
from tests._kept_pictures import png
from tests.resolving.conftest import FakeSite, Reply
from tests.usecases.test_keeping import KEEPING

OFF = KEEPING.model_copy(update={"keep_media": False})


@pytest.fixture
def pictures() -> Iterator[FakeSite]:
    site = FakeSite()
    site.replies["/a.png"] = Reply(png(), content_type="image/png")
    site.replies["/b.png"] = Reply(png(colour="navy"), content_type="image/png")
    site.replies["/c.png"] = Reply(png(colour="olive"), content_type="image/png")
    yield site
    site.stop()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def store() -> Iterator[Store]:
    """One store, shared by the services of a test (``keeping=False`` closes none of them)."""
    found = open_store("memory://")
    yield found
    found.close()


def _service(store: Store, clock: ManualClock, settings: Settings = KEEPING) -> Service:
    fetcher = HttpFetcher(allowed_hosts=settings.resolver_allowed_hosts)
    service = Service(store, settings, clock=clock, picture_fetcher=fetcher)
    if store.users.get_by_username("alice") is None:
        service.accounts.create_user("alice", "correct horse")
    return service


def _elements(*sources: str) -> list[dict[str, Any]]:
    return [{"type": "image", "data": {"image": {"src": src}}} for src in sources]


def _save(service: Service, *sources: str, slug: str = "pictures") -> None:
    """Save alice's story ``slug`` showing ``sources`` (made the first time)."""
    alice = service.accounts.as_user("alice")
    story = {"title": "Pictures", "slug": slug, "elements": _elements(*sources)}
    if _story_id(service, slug) is None:
        service.stories.create("alice", story, viewer=alice)
    else:
        service.stories.save("alice", slug, story, viewer=alice)


def _story_id(service: Service, slug: str) -> str | None:
    alice = service.store.users.get_by_username("alice")
    assert alice is not None
    story = service.store.stories.get_by_slug(alice.id, slug)
    return None if story is None else story.id


def _record(service: Service, address: str) -> KeptSource | None:
    return service.store.kept_sources.get_many([address]).get(address)


def _file_of(service: Service, address: str) -> str:
    record = _record(service, address)
    assert record is not None
    assert record.state == "kept", record.reason
    return record.copies[0].name


def _stored(service: Service, name: str) -> bool:
    return service.store.kept_files.head(name) is not None


# -- keep_all_media ------------------------------------------------------------------------------


def test_keep_all_keeps_the_pictures_of_a_store_written_with_keeping_off(
    store: Store, clock: ManualClock, pictures: FakeSite
) -> None:
    off = _service(store, clock, OFF)
    _save(off, pictures.url("/a.png"))
    off.accounts.update(
        "alice", {"avatar": pictures.url("/b.png")}, viewer=off.accounts.as_user("alice")
    )
    assert store.kept_sources.scan(None, 10) == []
    done = _service(store, clock).keep_all_media()
    assert (done.wanted, done.tried, done.kept) == (2, 2, 2)
    assert _file_of(off, pictures.url("/a.png"))
    assert _file_of(off, pictures.url("/b.png"))


def test_keep_all_notes_the_story_that_shows_a_picture(
    store: Store, clock: ManualClock, pictures: FakeSite
) -> None:
    off = _service(store, clock, OFF)
    _save(off, pictures.url("/a.png"))
    _service(store, clock).keep_all_media()
    record = _record(off, pictures.url("/a.png"))
    assert record is not None
    assert record.wanted_by == _story_id(off, "pictures")


def test_keep_all_notes_the_story_of_a_picture_queued_by_none(
    store: Store, clock: ManualClock, pictures: FakeSite
) -> None:
    off = _service(store, clock, OFF)
    _save(off, pictures.url("/a.png"))
    store.kept_sources.want([pictures.url("/a.png")], "2025-12-31T00:00:00.000Z")  # an import's
    _service(store, clock).keep_all_media()
    record = _record(off, pictures.url("/a.png"))
    assert record is not None
    assert record.wanted_by == _story_id(off, "pictures")


def test_a_picture_two_stories_show_is_noted_for_the_first_walked(
    store: Store, clock: ManualClock, pictures: FakeSite
) -> None:
    off = _service(store, clock, OFF)
    _save(off, pictures.url("/a.png"), slug="one")
    _save(off, pictures.url("/a.png"), slug="two")
    first = min(_story_id(off, "one") or "", _story_id(off, "two") or "")  # walked by id
    _service(store, clock).keep_all_media()
    record = _record(off, pictures.url("/a.png"))
    assert record is not None
    assert record.wanted_by == first


def test_keep_all_tries_again_what_failed_for_good(
    store: Store, clock: ManualClock, pictures: FakeSite
) -> None:
    service = _service(store, clock)
    pictures.replies["/a.png"] = Reply(b"<svg xmlns='http://www.w3.org/2000/svg'/>")
    _save(service, pictures.url("/a.png"))
    service.keep_media()
    failed = _record(service, pictures.url("/a.png"))
    assert failed is not None
    assert (failed.state, failed.next_attempt) == ("failed", None)
    pictures.replies["/a.png"] = Reply(png(), content_type="image/png")
    done = service.keep_all_media()
    assert (done.retried, done.kept) == (1, 1)
    assert _file_of(service, pictures.url("/a.png"))


def test_keep_all_tells_its_progress(store: Store, clock: ManualClock, pictures: FakeSite) -> None:
    service = _service(store, clock, OFF)
    _save(service, pictures.url("/a.png"), pictures.url("/b.png"))
    told: list[tuple[str, int, int | None]] = []
    _service(store, clock).keep_all_media(lambda *said: told.append(said))
    assert told == [("walked", 1, 2), ("walked", 2, 2), ("kept", 1, None), ("kept", 2, None)]


# -- prune_media ---------------------------------------------------------------------------------


def test_a_picture_no_story_shows_is_deleted_after_7_days_not_before(
    store: Store, clock: ManualClock, pictures: FakeSite
) -> None:
    service = _service(store, clock)
    _save(service, pictures.url("/a.png"))
    service.keep_media()
    dropped = _file_of(service, pictures.url("/a.png"))
    service.stories.delete("alice", "pictures", viewer=service.accounts.as_user("alice"))
    clock.advance(days=7)
    assert service.prune_media() == (0, 0)
    assert _stored(service, dropped)
    clock.advance(seconds=1)
    assert service.prune_media() == (1, 1)  # a 40 x 30 picture has no narrower widths
    assert not _stored(service, dropped)
    assert _record(service, pictures.url("/a.png")) is None


def test_a_picture_a_story_shows_again_is_not_deleted(
    store: Store, clock: ManualClock, pictures: FakeSite
) -> None:
    service = _service(store, clock)
    _save(service, pictures.url("/a.png"))
    service.keep_media()
    shown = _file_of(service, pictures.url("/a.png"))
    clock.advance(days=30)
    assert service.prune_media() == (0, 0)
    assert _stored(service, shown)


def test_a_picture_only_a_revision_shows_is_not_deleted(
    store: Store, clock: ManualClock, pictures: FakeSite
) -> None:
    service = _service(store, clock)
    _save(service, pictures.url("/a.png"))
    service.keep_media()
    _save(service, pictures.url("/b.png"))  # the revision of version 1 shows a.png
    service.keep_media()
    clock.advance(days=30)
    assert service.prune_media() == (0, 0)
    assert _stored(service, _file_of(service, pictures.url("/a.png")))


def test_an_avatar_is_not_deleted(store: Store, clock: ManualClock, pictures: FakeSite) -> None:
    service = _service(store, clock)
    service.accounts.create_user("bob", avatar=pictures.url("/c.png"))
    service.keep_media()
    clock.advance(days=30)
    assert service.prune_media() == (0, 0)
    assert _stored(service, _file_of(service, pictures.url("/c.png")))


def test_a_file_another_kept_picture_names_is_not_deleted(
    store: Store, clock: ManualClock, pictures: FakeSite
) -> None:
    pictures.replies["/same.png"] = Reply(png(), content_type="image/png")  # a.png's bytes
    service = _service(store, clock)
    _save(service, pictures.url("/a.png"), slug="one")
    _save(service, pictures.url("/same.png"), slug="two")
    service.keep_media()
    service.stories.delete("alice", "one", viewer=service.accounts.as_user("alice"))
    clock.advance(days=8)
    assert service.prune_media() == (1, 0)
    assert _stored(service, _file_of(service, pictures.url("/same.png")))


# -- in the background ---------------------------------------------------------------------------


def test_a_started_keeper_keeps_a_store_written_before_at_once(
    store: Store, clock: ManualClock, pictures: FakeSite
) -> None:
    _save(_service(store, clock, OFF), pictures.url("/a.png"))
    service = _service(store, clock)
    walks: queue.Queue[object] = queue.Queue()
    upkeep = service.keeper.upkeep
    keep_due = service.keeper.keep_due
    kept: queue.Queue[int] = queue.Queue()
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(service.keeper, "upkeep", lambda: walks.put(upkeep()))
    monkeypatch.setattr(service.keeper, "keep_due", lambda: kept.put(keep_due()))
    try:
        service.keeper.start()
        walks.get(timeout=30)  # the first walk, at once
        assert clock.wait_for_waiters(2, timeout=60)  # both threads wait for the clock
        clock.advance(seconds=5)  # the keeper's next round
        while kept.get(timeout=30) == 0:
            assert clock.wait_for_waiters(2, timeout=60)  # both threads wait for the clock
            clock.advance(seconds=5)
        assert _file_of(service, pictures.url("/a.png"))
    finally:
        service.keeper.close()
        monkeypatch.undo()


def test_a_started_keeper_prunes_every_day(
    store: Store, clock: ManualClock, pictures: FakeSite
) -> None:
    service = _service(store, clock)
    _save(service, pictures.url("/a.png"))
    service.keep_media()
    dropped = _file_of(service, pictures.url("/a.png"))
    service.stories.delete("alice", "pictures", viewer=service.accounts.as_user("alice"))
    walks: queue.Queue[object] = queue.Queue()
    upkeep = service.keeper.upkeep
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(service.keeper, "upkeep", lambda: walks.put(upkeep()))
    try:
        service.keeper.start()
        assert walks.get(timeout=30) == (0, 0)  # at once: shown a moment ago
        for _ in range(7):
            assert clock.wait_for_waiters(2, timeout=60)  # both threads wait for the clock
            clock.advance(days=1)
            assert walks.get(timeout=30) == (0, 0)
        assert clock.wait_for_waiters(2, timeout=60)  # both threads wait for the clock
        clock.advance(days=1)
        assert walks.get(timeout=30) == (1, 1)
        assert not _stored(service, dropped)
    finally:
        service.keeper.close()
        monkeypatch.undo()


def test_a_walk_stopped_half_way_prunes_nothing(
    store: Store, clock: ManualClock, pictures: FakeSite
) -> None:
    service = _service(store, clock)
    _save(service, pictures.url("/a.png"))
    service.keep_media()
    dropped = _file_of(service, pictures.url("/a.png"))
    service.stories.delete("alice", "pictures", viewer=service.accounts.as_user("alice"))
    clock.advance(days=8)
    service.keeper.close()  # a walk under way ends early, and sweeps nothing
    assert service.keeper.upkeep() == (0, 0)
    assert _stored(service, dropped)
