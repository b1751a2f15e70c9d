"""Kept pictures in an export (docs/media-storage.md#export-and-import): the export writes every
kept file (its members and its bytes in base64) and every source record without its lease; an
import checks each file against its name, its type and its size before it stores anything,
restores the records, and fetches nothing it brought kept.
"""

from __future__ import annotations

import base64
import hashlib
import os
import tracemalloc
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from storycore import Conflict, InvalidParameter, Service
from storycore.adapters import open_store
from storycore.contrib.transfer import export_lines
from storycore.model.kept import LEASE_MEMBERS, KeptFile, KeptSource
from storycore.ports import Store
from storycore.rules.timestamps import format_timestamp
from storycore.testing import ManualClock
from storycore.usecases._import_kept import SOURCE_MEMBERS
from tests._exports import Lines, edited
from tests._kept_pictures import SITE, PictureSite, keep_some, keeping, png, site
from tests.conftest import TEST_SETTINGS


@pytest.fixture
def source() -> Iterator[Service]:
    """A store with a story and a profile whose pictures were kept (or failed, or refused)."""
    with keeping(open_store("memory://")) as service:
        keep_some(service)
        yield service


@pytest.fixture
def exported(source: Service) -> Lines:
    return list(export_lines(source.store))


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2026, 3, 1, tzinfo=UTC))


@pytest.fixture
def target(clock: ManualClock) -> Iterator[Service]:
    """A service on an empty store, keeping nothing (the offline resolver's default)."""
    with Service(open_store("memory://"), TEST_SETTINGS, clock=clock) as service:
        yield service


def _kind(lines: Lines, kind: str) -> list[dict[str, Any]]:
    return [item for line in lines if (item := orjson.loads(line))["kind"] == kind]


def _kept_lines(lines: Iterable[bytes]) -> Lines:
    return [line for line in lines if orjson.loads(line)["kind"].startswith("kept_")]


def _files(store: Store) -> dict[str, tuple[KeptFile, bytes]]:
    """Every kept file with its bytes, by name."""
    found = {}
    for file in store.kept_files.scan(None, 1000):
        kept = store.kept_files.get(file.name)
        assert kept is not None
        found[file.name] = kept
    return found


def _sources(store: Store) -> dict[str, KeptSource]:
    return {source.address: source for source in store.kept_sources.scan(None, 1000)}


def _line(lines: Lines, kind: str, match: Callable[[dict[str, Any]], bool]) -> int:
    for number, line in enumerate(lines, start=1):
        item = orjson.loads(line)
        if item["kind"] == kind and match(item):
            return number
    raise AssertionError(f"no {kind} line matches")


def _of_photo_widths(item: dict[str, Any]) -> bool:
    return bool(item["record"]["width"] == 320)


def _refused(target: Service, lines: Lines) -> str:
    """The refusal of ``lines``, after checking that nothing was stored."""
    with pytest.raises(InvalidParameter) as refused:
        target.imports.load(lines)
    assert list(export_lines(target.store)) == []
    return refused.value.message


# -- the export --------------------------------------------------------------------------------


def test_the_export_writes_every_kept_file_with_its_bytes_after_the_stories(
    source: Service, exported: Lines
) -> None:
    kinds = [orjson.loads(line)["kind"] for line in exported]
    assert kinds == ["user", "story", *["kept_file"] * 5, *["kept_source"] * 5]
    for item in _kind(exported, "kept_file"):
        data = base64.b64decode(item["data"], validate=True)
        assert hashlib.sha256(data).hexdigest() == item["record"]["name"]
        assert source.store.kept_files.get(item["record"]["name"]) == (
            KeptFile(**item["record"]),
            data,
        )


def test_the_export_writes_every_source_record_without_its_lease(
    source: Service, exported: Lines
) -> None:
    records = [item["record"] for item in _kind(exported, "kept_source")]
    assert {record["state"] for record in records} == {"kept", "failed"}
    for record in records:
        assert "leased_until" not in record
        assert "leased_by" not in record
    photo = next(r for r in records if r["address"] == f"{SITE}/photo.png")
    assert [copy["width"] for copy in photo["copies"]] == [700, 320, 640]


def test_a_store_that_keeps_no_pictures_exports_no_line_of_them(target: Service) -> None:
    target.accounts.create_user("bob", "correct horse")
    assert [orjson.loads(line)["kind"] for line in export_lines(target.store)] == ["user"]


# -- the import --------------------------------------------------------------------------------


def test_an_import_stores_every_file_byte_for_byte_and_every_record(
    source: Service, exported: Lines, target: Service
) -> None:
    assert target.imports.load(exported) == len(exported)
    assert _files(target.store) == _files(source.store)
    assert _sources(target.store) == _sources(source.store)
    assert list(export_lines(target.store)) == exported


def test_a_moved_store_serves_the_kept_files_it_imported(
    source: Service, exported: Lines, target: Service
) -> None:
    target.imports.load(exported)
    photo = _sources(target.store)[f"{SITE}/photo.png"]
    for copy in photo.copies:
        assert target.media.file(f"{copy.name}.webp") == source.media.file(f"{copy.name}.webp")
        assert target.media.file(f"{copy.name}.webp") is not None


def test_a_file_whose_bytes_are_not_its_name_is_refused_and_nothing_is_stored(
    exported: Lines, target: Service
) -> None:
    number = _line(exported, "kept_file", _of_photo_widths)

    def other_bytes(item: dict[str, Any]) -> None:
        other = png(colour="red")
        item["record"]["size"] = len(other)
        item["data"] = base64.b64encode(other).decode()

    message = _refused(target, edited(exported, number, other_bytes))
    assert message.startswith(f"line {number}: kept_file.data: ")
    assert "SHA-256" in message


@pytest.mark.parametrize(
    ("member", "value", "says"),
    [
        ("media_type", "image/svg+xml", "kept_file.media_type: "),
        ("size", 1, "kept_file.size: "),
        ("width", 321, "kept_file.width: "),
        ("name", "NOT-A-NAME", "kept_file.name: "),
        ("at", "yesterday", "kept_file.at: "),
        ("colour", "teal", "kept_file.colour: "),
    ],
)
def test_a_file_whose_members_are_not_its_bytes_is_refused(
    exported: Lines, target: Service, member: str, value: object, says: str
) -> None:
    number = _line(exported, "kept_file", _of_photo_widths)

    def changed(item: dict[str, Any]) -> None:
        item["record"][member] = value

    assert _refused(target, edited(exported, number, changed)).startswith(f"line {number}: {says}")


def test_a_file_that_is_not_a_picture_of_its_type_is_refused(
    exported: Lines, target: Service
) -> None:
    number = _line(exported, "kept_file", _of_photo_widths)
    page = b"<!doctype html><script>alert(1)</script>"

    def a_page(item: dict[str, Any]) -> None:
        item["record"].update(name=hashlib.sha256(page).hexdigest(), size=len(page))
        item["data"] = base64.b64encode(page).decode()

    message = _refused(target, edited(exported, number, a_page))
    assert message.startswith(f"line {number}: kept_file.data: ")


@pytest.mark.parametrize("data", ["not base64!", "é" * 8, 12, None])
def test_data_that_is_not_base64_is_refused(exported: Lines, target: Service, data: object) -> None:
    number = _line(exported, "kept_file", _of_photo_widths)

    def not_base64(item: dict[str, Any]) -> None:
        item["data"] = data

    message = _refused(target, edited(exported, number, not_base64))
    assert message.startswith(f"line {number}: kept_file.data: ")


def test_a_record_whose_copies_the_import_does_not_hold_is_imported_pending(
    source: Service, exported: Lines, target: Service, clock: ManualClock
) -> None:
    number = _line(exported, "kept_file", _of_photo_widths)
    target.imports.load([*exported[: number - 1], *exported[number:]])
    photo = _sources(target.store)[f"{SITE}/photo.png"]
    assert photo.state == "pending"
    assert photo.copies == ()
    assert photo.next_attempt == format_timestamp(clock.now())
    assert _sources(target.store)[f"{SITE}/a.png"] == _sources(source.store)[f"{SITE}/a.png"]


def test_a_record_held_by_the_store_before_is_kept_as_it_says(
    source: Service, exported: Lines, target: Service
) -> None:
    number = _line(exported, "kept_file", _of_photo_widths)
    file, data = _files(source.store)[orjson.loads(exported[number - 1])["record"]["name"]]
    target.store.kept_files.put(file, data)
    target.imports.load([*exported[: number - 1], *exported[number:]])
    assert _sources(target.store)[f"{SITE}/photo.png"].state == "kept"


def test_a_copy_unlike_the_file_it_names_is_refused(exported: Lines, target: Service) -> None:
    number = _line(exported, "kept_source", lambda item: len(item["record"]["copies"]) == 3)

    def wider(item: dict[str, Any]) -> None:
        item["record"]["copies"][1]["width"] = 321

    message = _refused(target, edited(exported, number, wider))
    assert message.startswith(f"line {number}: kept_source.copies.1: ")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"state": "pending"}, "kept_source.copies: "),
        ({"next_attempt": "2026-01-02T00:00:00.000Z"}, "kept_source.next_attempt: "),
        ({"state": "lost"}, "kept_source.state: "),
        ({"address": "javascript:alert(1)"}, "kept_source.address: "),
        ({"leased_by": "host:1"}, "kept_source.leased_by: "),
        ({"fetched": -1}, "kept_source.fetched: "),
    ],
)
def test_a_record_that_contradicts_itself_is_refused(
    exported: Lines, target: Service, change: dict[str, Any], says: str
) -> None:
    number = _line(exported, "kept_source", lambda item: len(item["record"]["copies"]) == 3)

    def changed(item: dict[str, Any]) -> None:
        item["record"].update(change)

    assert _refused(target, edited(exported, number, changed)).startswith(f"line {number}: {says}")


def test_a_pending_record_without_its_due_time_is_refused(exported: Lines, target: Service) -> None:
    number = _line(exported, "kept_source", lambda item: item["record"]["state"] == "failed")

    def pending(item: dict[str, Any]) -> None:
        item["record"].update(state="pending", next_attempt=None)

    message = _refused(target, edited(exported, number, pending))
    assert message.startswith(f"line {number}: kept_source.next_attempt: ")


def test_an_address_the_store_holds_refuses_the_import_unless_it_replaces(
    source: Service, exported: Lines, target: Service
) -> None:
    target.store.kept_sources.want([f"{SITE}/photo.png"], "2026-03-01T00:00:00.000Z")
    with pytest.raises(Conflict, match=r"kept_source\.address: .*--replace"):
        target.imports.load(exported)
    assert _sources(target.store)[f"{SITE}/photo.png"].state == "pending"
    target.imports.load(exported, replace=True)
    assert _sources(target.store) == _sources(source.store)


def test_a_write_that_fails_midway_puts_the_replaced_records_back(
    exported: Lines, target: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = target.store.kept_sources
    sources.want([f"{SITE}/photo.png", f"{SITE}/a.png"], "2026-03-01T00:00:00.000Z")
    before = _sources(target.store)
    restore = sources.restore
    calls = 0

    def restore_then_fail(records: Iterable[KeptSource]) -> None:
        nonlocal calls
        calls += 1
        restore(records)
        if calls == 1:  # the import's own restore; undoing it restores again
            raise OSError("no space left on device")

    monkeypatch.setattr(sources, "restore", restore_then_fail)
    with pytest.raises(OSError, match="no space"):
        target.imports.load(exported, replace=True)
    assert list(target.store.stories.iter_all()) == []
    assert {a: s for a, s in _sources(target.store).items() if a in before} == before


def test_the_export_holds_one_kept_file_in_memory_at_a_time(target: Service) -> None:
    files = target.store.kept_files
    for number in range(30):
        data = number.to_bytes(4, "big") + os.urandom(200_000)
        name = hashlib.sha256(data).hexdigest()
        files.put(
            KeptFile(name, "image/webp", 640, 480, len(data), "2026-03-01T00:00:00.000Z"), data
        )
    tracemalloc.start()
    try:
        written = sum(len(line) for line in export_lines(target.store))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert written > 30 * 200_000 * 4 // 3
    assert peak < 2_000_000  # a few lines' worth: not the 8 MB of every line


def test_a_file_the_store_holds_is_no_conflict(
    source: Service, exported: Lines, target: Service
) -> None:
    for file, data in _files(source.store).values():
        target.store.kept_files.put(file, data)
    target.imports.load(exported)
    assert _files(target.store) == _files(source.store)


def test_a_file_twice_in_the_file_is_refused(exported: Lines, target: Service) -> None:
    number = _line(exported, "kept_file", _of_photo_widths)
    twice = [*exported[:number], exported[number - 1], *exported[number:]]
    assert _refused(target, twice).startswith(f"line {number + 1}: kept_file.name: ")


def test_every_member_a_source_record_exports_is_read_back() -> None:
    assert set(SOURCE_MEMBERS) == set(KeptSource._fields) - LEASE_MEMBERS


# -- what an import queues ---------------------------------------------------------------------


def test_an_import_queues_no_picture_while_keeping_is_off(exported: Lines, target: Service) -> None:
    without = [line for line in exported if orjson.loads(line)["kind"] in ("user", "story")]
    target.imports.load(without)
    assert _sources(target.store) == {}


def test_what_an_import_brings_kept_is_not_fetched_again(exported: Lines) -> None:
    fetcher = site()
    with keeping(open_store("memory://"), fetcher) as target:
        target.imports.load(exported)
        assert target.keep_media() == 0
        assert fetcher.asked == []
        assert _sources(target.store)[f"{SITE}/photo.png"].state == "kept"


def test_what_an_import_brings_pending_is_fetched_when_keeping_is_on(exported: Lines) -> None:
    fetcher = PictureSite({"/photo.png": png()})
    number = _line(exported, "kept_file", _of_photo_widths)
    with keeping(open_store("memory://"), fetcher) as target:
        target.imports.load([*exported[: number - 1], *exported[number:]])
        assert target.keep_media() == 1
        assert fetcher.asked == [f"{SITE}/photo.png"]


# -- across backends ---------------------------------------------------------------------------


@pytest.mark.every_backend  # each store gives back the very files and records it was given
def test_kept_pictures_move_from_a_sqlite_file_to_any_store(tmp_path: Path, store: Store) -> None:
    with keeping(open_store(f"sqlite:///{tmp_path / 'source.db'}")) as source:
        keep_some(source)
        exported = list(export_lines(source.store))
        target = Service(store, TEST_SETTINGS)
        assert target.imports.load(exported) == len(exported)
        assert _files(target.store) == _files(source.store)
        assert _sources(target.store) == _sources(source.store)
        assert sorted(_kept_lines(export_lines(target.store))) == sorted(_kept_lines(exported))
