"""KeptFiles and KeptSources (docs/media-storage.md): the files of kept pictures, stored once by
the SHA-256 of their bytes, and what each source address became, leased to one keeper at a time
as it is fetched."""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from storycore.model.kept import KeptCopy, KeptFile, KeptSource
from storycore.ports import Store
from tests.contract._claims import claim_at_once
from tests.contract._factories import at, two_stores

NOW, UNTIL = at(10), at(20)  # a claim at NOW leases until UNTIL
THREADS = 4
#: An address as long as the default limit of addresses, of characters beyond ASCII.
LONG_ADDRESS = "https://example.com/" + "é" * 2020
A, B, C = (f"https://pictures.example/{n}.jpg" for n in ("a", "b", "c"))


def _file(data: bytes, *, minutes: int = 0, media_type: str = "image/png") -> KeptFile:
    """The members of ``data`` kept as a 40 x 30 picture, put at ``minutes``."""
    name = hashlib.sha256(data).hexdigest()
    return KeptFile(name, media_type, 40, 30, len(data), at(minutes))


def _copies(*files: KeptFile) -> tuple[KeptCopy, ...]:
    return tuple(KeptCopy(f.name, f.media_type, f.width, f.height) for f in files)


def _leased(source: KeptSource, owner: str, until: str = UNTIL) -> KeptSource:
    return source._replace(leased_until=until, leased_by=owner)


def _record(store: Store, address: str) -> KeptSource | None:
    return store.kept_sources.get_many([address]).get(address)


# -- KeptFiles ---------------------------------------------------------------------------------


def test_a_put_file_reads_back_with_its_bytes(store: Store) -> None:
    data = b"\x89PNG\r\n\x1a\n picture"
    file = _file(data)
    store.kept_files.put(file, data)
    assert store.kept_files.get(file.name) == (file, data)


def test_head_answers_a_files_members_without_its_bytes(store: Store) -> None:
    data = b"GIF89a picture"
    file = _file(data, media_type="image/gif")
    store.kept_files.put(file, data)
    assert store.kept_files.head(file.name) == file


def test_a_file_never_put_is_none(store: Store) -> None:
    name = hashlib.sha256(b"nothing").hexdigest()
    assert store.kept_files.head(name) is None
    assert store.kept_files.get(name) is None


def test_a_large_file_round_trips_byte_exact(store: Store) -> None:
    data = os.urandom(2 * 1024 * 1024) + b"\x00" * 17
    file = _file(data, media_type="image/jpeg")
    store.kept_files.put(file, data)
    assert store.kept_files.get(file.name) == (file, data)


def test_a_second_put_of_one_name_changes_nothing_but_a_later_time(store: Store) -> None:
    data = b"the first bytes"
    first = _file(data, minutes=1)
    store.kept_files.put(first, data)
    store.kept_files.put(first._replace(media_type="image/webp", width=1, at=at(5)), b"other")
    assert store.kept_files.get(first.name) == (first._replace(at=at(5)), data)


def test_a_put_of_a_stored_name_at_an_earlier_time_keeps_the_later(store: Store) -> None:
    data = b"picture"
    store.kept_files.put(_file(data, minutes=5), data)
    store.kept_files.put(_file(data, minutes=1), data)
    assert store.kept_files.head(_file(data).name) == _file(data, minutes=5)


def test_files_put_at_once_under_one_name_are_stored_once(store: Store) -> None:
    data = os.urandom(300 * 1024)
    file = _file(data)
    start = threading.Barrier(THREADS)

    def put(_: int) -> None:
        start.wait()
        store.kept_files.put(file, data)

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(put, range(THREADS)))
    assert store.kept_files.get(file.name) == (file, data)
    assert store.kept_files.scan(None, 10) == [file]


def test_scan_walks_the_files_by_name_without_their_bytes(store: Store) -> None:
    files = {}
    for n in range(5):
        data = f"picture {n}".encode()
        files[_file(data).name] = _file(data)
        store.kept_files.put(_file(data), data)
    names = sorted(files)
    assert store.kept_files.scan(None, 2) == [files[name] for name in names[:2]]
    assert store.kept_files.scan(names[1], 10) == [files[name] for name in names[2:]]
    assert store.kept_files.scan(names[-1], 10) == []


def test_delete_removes_the_named_files_and_counts_them(store: Store) -> None:
    kept, gone = _file(b"kept"), _file(b"gone")
    store.kept_files.put(kept, b"kept")
    store.kept_files.put(gone, b"gone")
    missing = hashlib.sha256(b"never").hexdigest()
    assert store.kept_files.delete([gone.name, missing]) == 1
    assert store.kept_files.get(gone.name) is None
    assert store.kept_files.head(kept.name) == kept


def test_delete_unshown_deletes_old_files_no_record_names(store: Store) -> None:
    shown, unshown = _file(b"shown", minutes=1), _file(b"unshown", minutes=1)
    store.kept_files.put(shown, b"shown")
    store.kept_files.put(unshown, b"unshown")
    _keep(store, A, _copies(shown))
    assert store.kept_files.delete_unshown(at(5), 10) == [unshown.name]
    assert store.kept_files.get(unshown.name) is None
    assert store.kept_files.head(shown.name) == shown


def test_delete_unshown_keeps_a_file_put_at_or_after_before(store: Store) -> None:
    recent = _file(b"recent", minutes=5)
    store.kept_files.put(recent, b"recent")
    assert store.kept_files.delete_unshown(at(5), 10) == []
    assert store.kept_files.head(recent.name) == recent


def test_a_file_put_again_is_not_unshown_for_long(store: Store) -> None:
    store.kept_files.put(_file(b"again", minutes=1), b"again")
    store.kept_files.put(_file(b"again", minutes=6), b"again")
    assert store.kept_files.delete_unshown(at(5), 10) == []


def test_delete_unshown_deletes_at_most_limit_the_oldest(store: Store) -> None:
    pictures = [(f"picture {n}".encode(), 4 - n) for n in range(4)]
    files = [_file(data, minutes=minutes) for data, minutes in pictures]
    for file, (data, _) in zip(files, pictures, strict=True):
        store.kept_files.put(file, data)
    assert store.kept_files.delete_unshown(at(5), 2) == [files[3].name, files[2].name]
    assert store.kept_files.scan(None, 10) == sorted(files[:2])


def test_a_file_of_a_forgotten_record_is_unshown(store: Store) -> None:
    file = _file(b"picture", minutes=1)
    store.kept_files.put(file, b"picture")
    _keep(store, A, _copies(file), seen=1)
    assert store.kept_sources.forget(at(5)) == 1
    assert store.kept_files.delete_unshown(at(5), 10) == [file.name]


# -- KeptSources: want, touch, get_many --------------------------------------------------------


def test_want_stores_a_pending_record_due_at_once(store: Store) -> None:
    assert store.kept_sources.want([A, B], at(1)) == 2
    assert store.kept_sources.get_many([A, B]) == {
        A: KeptSource(A, seen=at(1), next_attempt=at(1)),
        B: KeptSource(B, seen=at(1), next_attempt=at(1)),
    }


def test_want_of_a_stored_address_only_refreshes_its_seen(store: Store) -> None:
    kept = _keep(store, A, _copies(_file(b"a")), seen=1)
    assert store.kept_sources.want([A, B], at(7)) == 1
    assert _record(store, A) == kept._replace(seen=at(7))


def test_want_refreshes_only_a_seen_older_than_stale(store: Store) -> None:
    store.kept_sources.want([A], at(1))
    store.kept_sources.want([B], at(5))
    assert store.kept_sources.want([A, B, C], at(7), stale=at(3)) == 1
    found = store.kept_sources.get_many([A, B, C])
    assert (found[A].seen, found[B].seen, found[C].seen) == (at(7), at(5), at(7))


def test_want_of_addresses_all_seen_lately_changes_nothing(store: Store) -> None:
    store.kept_sources.want([A, B], at(5), story="st_first")
    before = store.kept_sources.get_many([A, B])
    assert store.kept_sources.want([A, B], at(6), story="st_second", stale=at(3)) == 0
    assert store.kept_sources.get_many([A, B]) == before


def test_want_with_stale_refreshes_an_old_seen_of_a_stored_address_alone(store: Store) -> None:
    store.kept_sources.want([A], at(1))
    assert store.kept_sources.want([A], at(7), stale=at(3)) == 0
    assert _record(store, A) == KeptSource(A, at(7), next_attempt=at(1))


def test_want_with_stale_still_notes_a_story_for_an_address_wanted_by_none(store: Store) -> None:
    store.kept_sources.want([A], at(5))
    store.kept_sources.want([A], at(6), story="st_later", stale=at(3))
    assert _record(store, A) == KeptSource(A, at(5), next_attempt=at(5), wanted_by="st_later")


def test_want_notes_the_story_that_first_wanted_each_new_address(store: Store) -> None:
    store.kept_sources.want([A], at(1), story="st_first")
    store.kept_sources.want([A, B], at(2), story="st_second")
    found = store.kept_sources.get_many([A, B])
    assert (found[A].wanted_by, found[B].wanted_by) == ("st_first", "st_second")


def test_an_address_wanted_by_no_story_is_noted_for_the_first_story_that_wants_it(
    store: Store,
) -> None:
    store.kept_sources.want([A], at(1))
    assert _record(store, A) == KeptSource(A, at(1), next_attempt=at(1))
    store.kept_sources.want([A], at(2), story="st_later")
    assert _record(store, A) == KeptSource(A, at(2), next_attempt=at(1), wanted_by="st_later")


def test_touch_refreshes_when_stored_records_were_seen(store: Store) -> None:
    store.kept_sources.want([A], at(1))
    assert store.kept_sources.touch([A, B], at(4)) == 1
    assert _record(store, A) == KeptSource(A, seen=at(4), next_attempt=at(1))
    assert _record(store, B) is None


def test_get_many_answers_the_stored_records_by_address(store: Store) -> None:
    store.kept_sources.want([A, C], at(1))
    assert set(store.kept_sources.get_many([A, B, C])) == {A, C}
    assert store.kept_sources.get_many([]) == {}


def test_a_long_address_of_any_characters_is_kept(store: Store) -> None:
    store.kept_sources.want([LONG_ADDRESS], at(1))
    assert _record(store, LONG_ADDRESS) == KeptSource(LONG_ADDRESS, at(1), next_attempt=at(1))


def test_addresses_are_compared_exactly(store: Store) -> None:
    store.kept_sources.want([A], at(1))
    assert store.kept_sources.get_many([A.upper(), A + "/"]) == {}


def test_wanting_one_address_at_once_stores_one_record(store: Store) -> None:
    start = threading.Barrier(THREADS)

    def want(_: int) -> int:
        start.wait()
        return store.kept_sources.want([A], at(1))

    with ThreadPoolExecutor(THREADS) as pool:
        assert sum(pool.map(want, range(THREADS))) == 1
    assert store.kept_sources.scan(None, 10) == [KeptSource(A, at(1), next_attempt=at(1))]


# -- KeptSources: claim and finish -------------------------------------------------------------


def _due(store: Store, address: str, minutes: int) -> KeptSource:
    """A pending record of ``address``, due at ``minutes``."""
    store.kept_sources.want([address], at(minutes))
    record = _record(store, address)
    assert record is not None
    return record


def _keep(store: Store, address: str, copies: tuple[KeptCopy, ...], *, seen: int = 0) -> KeptSource:
    """``address`` (the record due first) kept as ``copies``, seen at ``seen``; its record as
    stored."""
    store.kept_sources.want([address], at(seen))
    (claimed,) = store.kept_sources.claim(at(seen), at(99), "keeper", 1)
    assert claimed.address == address
    kept = claimed._replace(state="kept", copies=copies, fetched=1234, next_attempt=None)
    assert store.kept_sources.finish(kept, "keeper")
    return kept._replace(leased_until=None, leased_by=None)


def test_claim_leases_the_due_records_earliest_first(store: Store) -> None:
    b, a = _due(store, B, 3), _due(store, A, 5)
    _due(store, C, 11)
    assert store.kept_sources.claim(NOW, UNTIL, "p1", 10) == [_leased(b, "p1"), _leased(a, "p1")]
    assert _record(store, A) == _leased(a, "p1")


def test_claim_takes_at_most_limit_records(store: Store) -> None:
    b = _due(store, B, 3)
    _due(store, A, 5)
    assert store.kept_sources.claim(NOW, UNTIL, "p1", 1) == [_leased(b, "p1")]


def test_a_record_due_now_is_claimed_and_one_due_later_is_not(store: Store) -> None:
    now = _due(store, A, 10)
    _due(store, B, 11)
    assert store.kept_sources.claim(NOW, UNTIL, "p1", 10) == [_leased(now, "p1")]


def test_a_kept_record_is_never_claimed(store: Store) -> None:
    _keep(store, A, _copies(_file(b"a")))
    assert store.kept_sources.claim(at(50), at(60), "p1", 10) == []


def test_a_leased_record_is_not_claimed_before_its_lease_ends(store: Store) -> None:
    a = _due(store, A, 3)
    store.kept_sources.claim(NOW, UNTIL, "p1", 10)
    assert store.kept_sources.claim(at(19), at(30), "p2", 10) == []
    assert store.kept_sources.claim(UNTIL, at(30), "p2", 10) == [_leased(a, "p2", at(30))]


def test_of_concurrent_claims_each_record_goes_to_one_owner(store: Store) -> None:
    addresses = [f"https://pictures.example/{n}.png" for n in range(30)]
    for n, address in enumerate(addresses):
        store.kept_sources.want([address], at(n % 7))
    claimed = _claim_at_once([store] * THREADS, len(addresses))
    assert sorted(s.address for _, s in claimed) == sorted(addresses)
    for owner, source in claimed:
        assert _record(store, source.address) == source == _leased(source, owner)


def test_finish_stores_the_outcome_and_ends_the_lease(store: Store) -> None:
    _due(store, A, 3)
    (claimed,) = store.kept_sources.claim(NOW, UNTIL, "p1", 10)
    files = (_file(b"original"), _file(b"narrow"))
    kept = claimed._replace(state="kept", copies=_copies(*files), fetched=2048, next_attempt=None)
    assert store.kept_sources.finish(kept, "p1")
    assert _record(store, A) == kept._replace(leased_until=None, leased_by=None)


def test_a_record_finished_to_retry_is_claimed_at_its_next_attempt(store: Store) -> None:
    _due(store, A, 3)
    (claimed,) = store.kept_sources.claim(NOW, UNTIL, "p1", 10)
    failed = claimed._replace(state="failed", attempts=1, reason="timed out", next_attempt=at(15))
    assert store.kept_sources.finish(failed, "p1")
    assert store.kept_sources.claim(at(14), at(30), "p2", 10) == []
    again = failed._replace(leased_until=at(30), leased_by="p2")
    assert store.kept_sources.claim(at(15), at(30), "p2", 10) == [again]


def test_finish_keeps_the_stored_seen(store: Store) -> None:
    _due(store, A, 3)
    (claimed,) = store.kept_sources.claim(NOW, UNTIL, "p1", 10)
    store.kept_sources.touch([A], at(12))
    failed = claimed._replace(state="failed", reason="gone", next_attempt=None)
    assert store.kept_sources.finish(failed, "p1")
    assert _record(store, A) == failed._replace(seen=at(12), leased_until=None, leased_by=None)


def test_finish_keeps_the_story_that_wanted_the_address(store: Store) -> None:
    _due(store, A, 3)
    (claimed,) = store.kept_sources.claim(NOW, UNTIL, "p1", 10)
    store.kept_sources.want([A], at(12), story="st_meanwhile")
    kept = claimed._replace(state="kept", copies=_copies(_file(b"a")), next_attempt=None)
    assert store.kept_sources.finish(kept, "p1")
    assert _record(store, A) == kept._replace(
        seen=at(12), wanted_by="st_meanwhile", leased_until=None, leased_by=None
    )


def test_finish_by_an_owner_without_the_lease_is_refused(store: Store) -> None:
    a = _due(store, A, 3)
    store.kept_sources.claim(NOW, UNTIL, "p1", 10)
    store.kept_sources.claim(UNTIL, at(30), "p2", 10)  # p1's lease ended; p2 took it
    assert not store.kept_sources.finish(a._replace(state="failed", reason="late"), "p1")
    assert _record(store, A) == _leased(a, "p2", at(30))


def test_finish_of_a_forgotten_record_is_refused(store: Store) -> None:
    a = _due(store, A, 3)
    store.kept_sources.claim(NOW, UNTIL, "p1", 10)
    store.kept_sources.forget(at(4))
    assert not store.kept_sources.finish(a._replace(state="failed", reason="gone"), "p1")
    assert _record(store, A) is None


# -- KeptSources: retry_failed, scan, forget ---------------------------------------------------


def test_retry_failed_makes_records_failed_for_good_due_again(store: Store) -> None:
    wanted = _due(store, A, 3)
    _due(store, B, 4)
    (leased, _) = store.kept_sources.claim(NOW, UNTIL, "p1", 10)
    failed = leased._replace(state="failed", attempts=4, reason="refused", next_attempt=None)
    store.kept_sources.finish(failed, "p1")
    assert store.kept_sources.retry_failed(at(30)) == 1
    assert _record(store, A) == wanted._replace(
        state="failed", reason="refused", next_attempt=at(30)
    )


def test_scan_walks_every_record_in_pages(store: Store) -> None:
    addresses = [f"https://pictures.example/{n}.png" for n in range(7)] + [LONG_ADDRESS]
    store.kept_sources.want(addresses, at(1))
    seen: list[str] = []
    after = None
    while page := store.kept_sources.scan(after, 3):
        seen += [source.address for source in page]
        after = page[-1].address
    assert sorted(seen) == sorted(addresses)


def test_restore_stores_records_as_given_without_a_lease(store: Store) -> None:
    file = _file(b"original")
    kept = KeptSource(
        A, at(2), "kept", _copies(file), fetched=5, leased_until=at(3), leased_by="x",
        wanted_by="st_1",
    )  # fmt: skip
    failed = KeptSource(LONG_ADDRESS, at(1), "failed", attempts=4, reason="gone")
    store.kept_sources.restore([kept, failed])
    assert store.kept_sources.get_many([A, LONG_ADDRESS]) == {
        A: kept._replace(leased_until=None, leased_by=None),
        LONG_ADDRESS: failed,
    }


def test_restore_replaces_a_stored_record_and_the_names_it_kept(store: Store) -> None:
    before, after = _file(b"before", minutes=1), _file(b"after", minutes=1)
    for file, data in ((before, b"before"), (after, b"after")):
        store.kept_files.put(file, data)
    _keep(store, A, _copies(before))
    restored = KeptSource(A, at(2), "kept", _copies(after))
    store.kept_sources.restore([restored])
    assert _record(store, A) == restored
    assert store.kept_files.delete_unshown(at(5), 10) == [before.name]


def test_forget_deletes_the_records_seen_before_before(store: Store) -> None:
    store.kept_sources.want([A], at(1))
    store.kept_sources.want([B], at(5))
    store.kept_sources.touch([A], at(3))
    assert store.kept_sources.forget(at(5)) == 1
    assert set(store.kept_sources.get_many([A, B])) == {B}


# -- two stores on one storage -----------------------------------------------------------------


def _claim_at_once(stores: Sequence[Store], due: int) -> list[tuple[str, KeptSource]]:
    """Claims on each of ``stores`` at once, two at a time (``claim_at_once``)."""

    def claimer(store: Store) -> Callable[[str], Sequence[KeptSource]]:
        return lambda owner: store.kept_sources.claim(NOW, UNTIL, owner, 2)

    return claim_at_once([claimer(store) for store in stores], due)


@pytest.fixture
def shared(storycore_store_url: str, tmp_path: Path) -> Iterator[tuple[Store, Store]]:
    """Two stores on one storage (``two_stores``): two processes' views of it."""
    with two_stores(storycore_store_url, tmp_path) as stores:
        yield stores


def test_claims_through_two_stores_give_each_record_to_one_owner(
    shared: tuple[Store, Store],
) -> None:
    first, second = shared
    addresses = [f"https://pictures.example/{n}.png" for n in range(30)]
    first.kept_sources.want(addresses, at(1))
    claimed = _claim_at_once([first, second, first, second], len(addresses))
    assert sorted(s.address for _, s in claimed) == sorted(addresses)
    for owner, source in claimed:
        assert _record(second, source.address) == _leased(source, owner)


def test_a_file_put_through_one_store_is_read_through_another(
    shared: tuple[Store, Store],
) -> None:
    first, second = shared
    data = os.urandom(600 * 1024)
    first.kept_files.put(_file(data), data)
    second.kept_files.put(_file(data, minutes=3), data)
    assert first.kept_files.get(_file(data).name) == (_file(data, minutes=3), data)
