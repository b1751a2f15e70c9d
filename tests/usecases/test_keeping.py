"""The keeper fetches the pictures stories and profiles show and keeps its own copies
(docs/media.md#how-pictures-are-kept): against a fake picture server on 127.0.0.1, the
loopback address allowed as the resolver's tests allow it, time moved by hand."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.fetch import HttpFetcher
from storycore.contrib.transfer import export_lines
from storycore.media.pictures import MAX_BYTES
from storycore.model.kept import KeptSource
from storycore.rules.timestamps import format_timestamp
from storycore.settings import Limits
from storycore.testing import ManualClock
from tests._kept_pictures import png
from tests.conftest import TEST_SETTINGS
from tests.resolving.conftest import FakeSite, Reply

KEEPING = TEST_SETTINGS.model_copy(
    update={"keep_media": True, "resolver_allowed_hosts": ("127.0.0.1",)}
)  # the keeper's own timeout (30 s): a fetch from 127.0.0.1 on a busy machine keeps within it


@pytest.fixture
def pictures() -> Iterator[FakeSite]:
    site = FakeSite()
    site.replies["/a.png"] = Reply(png(), content_type="image/png")
    site.replies["/b.png"] = Reply(png(colour="navy"), content_type="image/png")
    site.replies["/drawing.svg"] = Reply(
        b"<svg xmlns='http://www.w3.org/2000/svg'/>", content_type="image/svg+xml"
    )
    site.replies["/page.png"] = Reply(b"<!doctype html><p>hi</p>", content_type="image/png")
    site.replies["/slow.png"] = Reply(hang=True)
    site.replies["/broken.png"] = Reply(b"", status=500)
    yield site
    site.stop()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def _service(clock: ManualClock, settings: Settings = KEEPING) -> Service:
    fetcher = HttpFetcher(allowed_hosts=settings.resolver_allowed_hosts)
    service = Service(open_store("memory://"), settings, clock=clock, picture_fetcher=fetcher)
    service.accounts.create_user("alice", "correct horse")
    return service


@pytest.fixture
def service(clock: ManualClock) -> Iterator[Service]:
    with _service(clock) as service:
        yield service


def _save(service: Service, *sources: str, title: str = "Pictures") -> str:
    alice = service.accounts.as_user("alice")
    elements: list[dict[str, Any]] = [
        {"type": "image", "data": {"image": {"src": src}}} for src in sources
    ]
    return service.stories.create("alice", {"title": title, "elements": elements}, viewer=alice).id


def _record(service: Service, address: str) -> KeptSource:
    return service.store.kept_sources.get_many([address])[address]


def test_a_story_saved_with_pictures_wants_them_kept(service: Service, pictures: FakeSite) -> None:
    _save(service, pictures.url("/a.png"))
    assert _record(service, pictures.url("/a.png")).state == "pending"


def test_a_picture_saved_again_within_a_day_is_not_noted_again(
    service: Service, clock: ManualClock, pictures: FakeSite
) -> None:
    _save(service, pictures.url("/a.png"))
    first = _record(service, pictures.url("/a.png")).seen
    clock.advance(timedelta(hours=23))
    _save(service, pictures.url("/a.png"), title="Again")
    assert _record(service, pictures.url("/a.png")).seen == first
    clock.advance(timedelta(hours=2))
    _save(service, pictures.url("/a.png"), title="Once more")
    assert _record(service, pictures.url("/a.png")).seen == format_timestamp(clock.now())


def test_a_user_wants_their_avatar_kept(service: Service, pictures: FakeSite) -> None:
    service.accounts.create_user("bob", avatar=pictures.url("/a.png"))
    service.accounts.update(
        "alice", {"avatar": pictures.url("/b.png")}, viewer=service.accounts.as_user("alice")
    )
    found = service.store.kept_sources.get_many([pictures.url("/a.png"), pictures.url("/b.png")])
    assert {record.state for record in found.values()} == {"pending"}
    assert len(found) == 2


def test_an_import_wants_the_pictures_it_brings(clock: ManualClock, pictures: FakeSite) -> None:
    off = KEEPING.model_copy(update={"keep_media": False})
    with _service(clock, off) as source:
        source.accounts.update(
            "alice", {"avatar": pictures.url("/b.png")}, viewer=source.accounts.as_user("alice")
        )
        _save(source, pictures.url("/a.png"))
        lines = list(export_lines(source.store))
    with Service(open_store("memory://"), KEEPING, clock=clock) as target:
        target.imports.load(lines)
        found = target.store.kept_sources.get_many([pictures.url(p) for p in ("/a.png", "/b.png")])
        assert sorted(found) == [pictures.url("/a.png"), pictures.url("/b.png")]


def test_an_imported_storys_pictures_count_against_it(
    clock: ManualClock, pictures: FakeSite
) -> None:
    off = KEEPING.model_copy(update={"keep_media": False})
    with _service(clock, off) as source:
        source.accounts.update(
            "alice", {"avatar": pictures.url("/b.png")}, viewer=source.accounts.as_user("alice")
        )
        story = _save(source, pictures.url("/a.png"))
        lines = list(export_lines(source.store))
    with Service(open_store("memory://"), KEEPING, clock=clock) as target:
        target.imports.load(lines)
        found = target.store.kept_sources.get_many([pictures.url(p) for p in ("/a.png", "/b.png")])
        assert found[pictures.url("/a.png")].wanted_by == story
        assert found[pictures.url("/b.png")].wanted_by is None  # an avatar counts against none


def test_the_keeper_keeps_a_picture_and_serves_its_copies(
    service: Service, pictures: FakeSite
) -> None:
    _save(service, pictures.url("/a.png"))
    assert service.keep_media() == 1
    record = _record(service, pictures.url("/a.png"))
    assert record.state == "kept"
    assert record.fetched == len(png())
    original = record.copies[0]
    assert (original.width, original.height, original.media_type) == (40, 30, "image/webp")
    found = service.media.file(f"{original.name}.webp")
    assert found is not None
    assert found[0].name == original.name


@pytest.mark.parametrize("path", ["/drawing.svg", "/page.png"])
def test_a_refused_picture_fails_for_good_at_once(
    service: Service, pictures: FakeSite, path: str
) -> None:
    _save(service, pictures.url(path))
    service.keep_media()
    record = _record(service, pictures.url(path))
    assert (record.state, record.next_attempt) == ("failed", None)
    assert record.reason is not None
    assert record.reason.startswith("not a picture")


def test_a_failed_fetch_is_tried_again_a_minute_later_by_the_clock(
    service: Service, pictures: FakeSite, clock: ManualClock
) -> None:
    _save(service, pictures.url("/broken.png"))
    service.keep_media()
    record = _record(service, pictures.url("/broken.png"))
    assert record.state == "failed"
    assert record.reason == "the source answered 500"
    assert record.next_attempt == format_timestamp(clock.now() + timedelta(minutes=1))
    pictures.replies["/broken.png"] = Reply(png(), content_type="image/png")
    assert service.keep_media() == 0  # not due yet
    clock.advance(minutes=1)
    assert service.keep_media() == 1
    assert _record(service, pictures.url("/broken.png")).state == "kept"


def test_a_source_that_never_answers_fails_within_the_timeout(
    clock: ManualClock, pictures: FakeSite
) -> None:
    impatient = KEEPING.model_copy(update={"keep_media_timeout": 0.5})
    with _service(clock, impatient) as service:
        _save(service, pictures.url("/slow.png"))
        service.keep_media()
        record = _record(service, pictures.url("/slow.png"))
    assert record.state == "failed"
    assert record.next_attempt is not None
    assert record.reason == "no answer within 0.5 s"


def test_the_fourth_failure_is_failed_for_good(
    service: Service, pictures: FakeSite, clock: ManualClock
) -> None:
    _save(service, pictures.url("/broken.png"))
    for wait in (timedelta(0), timedelta(minutes=1), timedelta(hours=1), timedelta(days=1)):
        clock.advance(wait)
        assert service.keep_media() == 1
    record = _record(service, pictures.url("/broken.png"))
    assert (record.state, record.attempts, record.next_attempt) == ("failed", 4, None)


def test_two_stories_showing_one_picture_keep_one_file(
    service: Service, pictures: FakeSite
) -> None:
    _save(service, pictures.url("/a.png"), title="One")
    _save(service, pictures.url("/a.png"), title="Two")
    assert service.keep_media() == 1
    assert len(service.store.kept_files.scan(None, 100)) == 1


def test_a_private_address_is_not_fetched_unless_allowed(
    clock: ManualClock, pictures: FakeSite
) -> None:
    unallowed = KEEPING.model_copy(update={"resolver_allowed_hosts": ()})
    with _service(clock, unallowed) as service:
        _save(service, pictures.url("/a.png"))
        service.keep_media()
        assert _record(service, pictures.url("/a.png")).state == "failed"
    assert pictures.requests == []


def test_keeping_off_wants_nothing(clock: ManualClock, pictures: FakeSite) -> None:
    off = KEEPING.model_copy(update={"keep_media": False})
    with _service(clock, off) as service:
        _save(service, pictures.url("/a.png"))
        assert service.store.kept_sources.scan(None, 10) == []


def test_keeping_is_on_where_the_online_resolver_is() -> None:
    assert Settings().keeps_media is False
    assert Settings(resolver="online").keeps_media is True
    assert Settings(resolver="online", keep_media=False).keeps_media is False
    assert Settings(keep_media=True).keeps_media is True


def test_the_keeper_keeps_in_the_background_until_closed(
    service: Service, pictures: FakeSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    _save(service, pictures.url("/a.png"))
    rounds: queue.Queue[int] = queue.Queue()
    keep_due = service.keeper.keep_due
    monkeypatch.setattr(service.keeper, "keep_due", lambda: rounds.put(keep_due()))
    service.keeper.start()
    assert rounds.get(timeout=30) == 1  # the first round, at once
    assert _record(service, pictures.url("/a.png")).state == "kept"
    service.keeper.close()
    assert not service.keeper.running


def test_a_service_starts_no_keeper_by_itself(service: Service) -> None:
    assert not service.keeper.running


def test_a_picture_over_16_mib_is_refused_not_cut(clock: ManualClock, pictures: FakeSite) -> None:
    pictures.replies["/huge.png"] = Reply(png() + bytes(MAX_BYTES), content_type="image/png")
    with _service(clock) as service:
        _save(service, pictures.url("/huge.png"))
        service.keep_media()
        record = _record(service, pictures.url("/huge.png"))
    assert (record.state, record.next_attempt) == ("failed", None)
    assert record.reason is not None
    assert record.reason.startswith("a picture of 16 MiB at most")


# -- a story's limit (docs/media.md#limits) ------------------------------------------------------


def _limited(clock: ManualClock, media_bytes: int) -> Service:
    """A service keeping at most ``media_bytes`` of fetched pictures a story."""
    limits = KEEPING.limits.model_copy(update={"media_bytes": media_bytes})
    return _service(clock, KEEPING.model_copy(update={"limits": limits}))


def test_a_storys_pictures_beyond_its_limit_are_not_kept_with_the_reason(
    clock: ManualClock, pictures: FakeSite
) -> None:
    limit = len(png()) + len(png(colour="navy")) - 1
    with _limited(clock, limit) as service:
        _save(service, pictures.url("/a.png"), pictures.url("/b.png"))
        assert service.keep_media() == 2
        assert _record(service, pictures.url("/a.png")).state == "kept"
        refused = _record(service, pictures.url("/b.png"))
    assert (refused.state, refused.next_attempt, refused.copies) == ("failed", None, ())
    assert refused.reason == f"over this story's {limit} bytes of pictures"


def test_a_storys_pictures_within_its_limit_are_all_kept(
    clock: ManualClock, pictures: FakeSite
) -> None:
    with _limited(clock, len(png()) + len(png(colour="navy"))) as service:
        _save(service, pictures.url("/a.png"), pictures.url("/b.png"))
        service.keep_media()
        found = service.store.kept_sources.get_many([pictures.url(p) for p in ("/a.png", "/b.png")])
    assert {record.state for record in found.values()} == {"kept"}


def test_a_shared_picture_counts_in_every_story_that_shows_it(
    clock: ManualClock, pictures: FakeSite
) -> None:
    with _limited(clock, len(png()) + 10) as service:
        _save(service, pictures.url("/a.png"), title="One")
        _save(service, pictures.url("/a.png"), pictures.url("/b.png"), title="Two")
        service.keep_media()
        assert _record(service, pictures.url("/a.png")).state == "kept"
        assert _record(service, pictures.url("/b.png")).state == "failed"


def test_a_shared_picture_is_checked_against_the_story_that_first_wanted_it(
    clock: ManualClock, pictures: FakeSite
) -> None:
    with _limited(clock, len(png()) + 10) as service:
        _save(service, pictures.url("/a.png"), pictures.url("/b.png"), title="Full")
        _save(service, pictures.url("/b.png"), title="Roomy")
        service.keep_media()
        refused = _record(service, pictures.url("/b.png"))
    assert (refused.state, refused.reason) == (
        "failed",
        f"over this story's {len(png()) + 10} bytes of pictures",
    )


def test_an_avatar_counts_against_no_story(clock: ManualClock, pictures: FakeSite) -> None:
    with _limited(clock, 1) as service:
        service.accounts.create_user("bob", avatar=pictures.url("/a.png"))
        service.keep_media()
        assert _record(service, pictures.url("/a.png")).state == "kept"


def test_the_limit_is_64_mib_by_default() -> None:
    assert Limits().media_bytes == 64 * 2**20
