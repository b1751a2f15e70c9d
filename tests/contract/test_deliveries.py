"""DeliveryRepository (docs/webhooks.md): each event to each webhook once, leased to one
process at a time while it is attempted, its outcome stored only by the process holding it."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from storycore.model.webhooks import Delivery, DeliveryState
from storycore.ports import Store
from tests.contract._claims import claim_at_once
from tests.contract._factories import at, make_delivery, make_webhook, two_stores

NOW, UNTIL = at(10), at(20)  # a claim at NOW leases until UNTIL
THREADS = 4


@pytest.fixture
def hooks(store: Store) -> tuple[str, str]:
    """The ids of two stored webhooks, ``wa`` and ``wb``."""
    for webhook_id in ("wa", "wb"):
        store.webhooks.add(make_webhook(webhook_id=webhook_id))
    return ("wa", "wb")


def _keys(deliveries: Sequence[Delivery]) -> list[tuple[str, str]]:
    """Each delivery's webhook and event, in order."""
    return [(d.webhook_id, d.event_id) for d in deliveries]


def _leased(delivery: Delivery, owner: str, until: str = UNTIL) -> Delivery:
    return delivery._replace(leased_until=until, leased_by=owner)


def _stored(store: Store, delivery: Delivery) -> Delivery | None:
    return store.deliveries.get(delivery.webhook_id, delivery.event_id)


# -- add_many and get --------------------------------------------------------------------------


def test_add_many_stores_new_deliveries_and_counts_them(
    store: Store, hooks: tuple[str, str]
) -> None:
    made = [make_delivery("wa"), make_delivery("wa"), make_delivery("wb")]
    assert store.deliveries.add_many(made) == 3
    assert [_stored(store, d) for d in made] == made


def test_a_delivery_reads_back_equal(store: Store, hooks: tuple[str, str]) -> None:
    delivery = make_delivery(
        "wa",
        "evt_0123456789abcdef",
        type="user.updated",
        minutes=3,
        due=9,
        attempts=4,
        failures=2,
        last_status=503,
        last_error='réponse: "busy" \u2028 \U0001f600\n',
        last_attempt=at(8),
    )
    store.deliveries.add_many([delivery])
    assert _stored(store, delivery) == delivery


@pytest.mark.parametrize("state", ["delivered", "failed"])
def test_a_finished_delivery_reads_back_equal(
    store: Store, hooks: tuple[str, str], state: DeliveryState
) -> None:
    delivery = make_delivery("wa", due=None, state=state, attempts=1, last_attempt=at(2))
    store.deliveries.add_many([delivery])
    assert _stored(store, delivery) == delivery


def test_a_leased_delivery_reads_back_equal(store: Store, hooks: tuple[str, str]) -> None:
    delivery = _leased(make_delivery("wa"), "some-process")
    store.deliveries.add_many([delivery])
    assert _stored(store, delivery) == delivery


def test_add_many_leaves_a_stored_delivery_as_it_is(store: Store, hooks: tuple[str, str]) -> None:
    stored = make_delivery("wa", attempts=2, failures=2, last_status=500, due=7)
    store.deliveries.add_many([stored])
    again = make_delivery("wa", stored.event_id, minutes=5, due=5)
    assert store.deliveries.add_many([again]) == 0
    assert _stored(store, stored) == stored


def test_add_many_counts_only_the_new_deliveries(store: Store, hooks: tuple[str, str]) -> None:
    stored = make_delivery("wa")
    store.deliveries.add_many([stored])
    new = make_delivery("wa")
    assert store.deliveries.add_many([make_delivery("wa", stored.event_id), new]) == 1
    assert store.deliveries.count("wa") == 2
    assert _stored(store, new) == new


def test_add_many_of_no_deliveries_adds_none(store: Store, hooks: tuple[str, str]) -> None:
    assert store.deliveries.add_many([]) == 0
    assert store.deliveries.count("wa") == 0


def test_one_event_to_two_webhooks_is_two_deliveries(store: Store, hooks: tuple[str, str]) -> None:
    first = make_delivery("wa", "evt_1")
    second = make_delivery("wb", "evt_1", type="story.deleted")
    assert store.deliveries.add_many([first, second]) == 2
    assert (_stored(store, first), _stored(store, second)) == (first, second)


def test_add_many_takes_any_iterable(store: Store, hooks: tuple[str, str]) -> None:
    made = [make_delivery("wa"), make_delivery("wb")]
    assert store.deliveries.add_many(d for d in made) == 2


def test_deliveries_are_answered_as_delivery_records(store: Store, hooks: tuple[str, str]) -> None:
    """A plain tuple would compare equal to a ``Delivery``, and lack its members."""
    delivery = make_delivery("wa", due=3)
    store.deliveries.add_many([delivery])
    (claimed,) = store.deliveries.claim(NOW, UNTIL, "p1", 10)
    answered = [claimed, _stored(store, delivery), *store.deliveries.of_webhook("wa", 0, 10)]
    assert [type(d) for d in answered] == [Delivery] * 3


def test_get_of_an_unknown_delivery_is_none(store: Store, hooks: tuple[str, str]) -> None:
    delivery = make_delivery("wa", "evt_1")
    store.deliveries.add_many([delivery])
    assert store.deliveries.get("wa", "evt_2") is None
    assert store.deliveries.get("wb", "evt_1") is None
    assert store.deliveries.get("nope", "evt_1") is None


# -- claim -------------------------------------------------------------------------------------


def test_claim_leases_the_due_pending_deliveries(store: Store, hooks: tuple[str, str]) -> None:
    due = [make_delivery("wa", "evt_1", due=3), make_delivery("wb", "evt_2", due=5)]
    store.deliveries.add_many(due)
    assert store.deliveries.claim(NOW, UNTIL, "p1", 10) == [_leased(d, "p1") for d in due]


def test_claim_stores_the_lease(store: Store, hooks: tuple[str, str]) -> None:
    delivery = make_delivery("wa", due=3)
    store.deliveries.add_many([delivery])
    store.deliveries.claim(NOW, UNTIL, "p1", 10)
    assert _stored(store, delivery) == _leased(delivery, "p1")


def test_claim_changes_nothing_but_the_lease(store: Store, hooks: tuple[str, str]) -> None:
    delivery = make_delivery(
        "wa", due=3, attempts=3, failures=1, last_status=404, last_error="no", last_attempt=at(1)
    )
    store.deliveries.add_many([delivery])
    (claimed,) = store.deliveries.claim(NOW, UNTIL, "p1", 10)
    assert claimed == _leased(delivery, "p1")


def test_a_delivery_due_now_is_claimed(store: Store, hooks: tuple[str, str]) -> None:
    delivery = make_delivery("wa", due=10)
    store.deliveries.add_many([delivery])
    assert _keys(store.deliveries.claim(NOW, UNTIL, "p1", 10)) == _keys([delivery])


def test_a_delivery_due_later_is_not_claimed(store: Store, hooks: tuple[str, str]) -> None:
    delivery = make_delivery("wa", due=11)
    store.deliveries.add_many([delivery])
    assert store.deliveries.claim(NOW, UNTIL, "p1", 10) == []
    assert _stored(store, delivery) == delivery


def test_a_pending_delivery_without_a_next_attempt_is_not_claimed(
    store: Store, hooks: tuple[str, str]
) -> None:
    store.deliveries.add_many([make_delivery("wa", due=None)])
    assert store.deliveries.claim(NOW, UNTIL, "p1", 10) == []


@pytest.mark.parametrize("state", ["delivered", "failed"])
def test_a_delivered_or_failed_delivery_is_never_claimed(
    store: Store, hooks: tuple[str, str], state: DeliveryState
) -> None:
    delivery = make_delivery("wa", due=1, state=state)
    store.deliveries.add_many([delivery])
    assert store.deliveries.claim(at(10**6), at(10**6 + 1), "p1", 10) == []
    assert _stored(store, delivery) == delivery


def test_claim_takes_the_earliest_next_attempt_first(store: Store, hooks: tuple[str, str]) -> None:
    third = make_delivery("wa", "evt_a", due=9)
    first = make_delivery("wb", "evt_c", due=1)
    second = make_delivery("wa", "evt_b", due=5)
    store.deliveries.add_many([third, first, second])
    assert _keys(store.deliveries.claim(NOW, UNTIL, "p1", 10)) == _keys([first, second, third])


def test_deliveries_due_at_one_moment_come_by_webhook_then_event_id(
    store: Store, hooks: tuple[str, str]
) -> None:
    keys = [("wb", "evt_a"), ("wa", "evt_m"), ("wb", "evt_0"), ("wa", "evt_c")]
    store.deliveries.add_many([make_delivery(hook, event, due=4) for hook, event in keys])
    assert _keys(store.deliveries.claim(NOW, UNTIL, "p1", 10)) == sorted(keys)


def test_claim_takes_at_most_limit_deliveries_the_earliest(
    store: Store, hooks: tuple[str, str]
) -> None:
    made = [make_delivery("wa", f"evt_{n}", due=n) for n in range(5)]
    store.deliveries.add_many(made)
    assert _keys(store.deliveries.claim(NOW, UNTIL, "p1", 3)) == _keys(made[:3])
    assert all(_stored(store, d) == d for d in made[3:])


def test_claim_passes_over_the_webhooks_it_is_told_to_skip(
    store: Store, hooks: tuple[str, str]
) -> None:
    skipped = [make_delivery("wa", f"evt_{n}", due=n) for n in range(3)]
    taken = make_delivery("wb", "evt_9", due=9)
    store.deliveries.add_many([*skipped, taken])
    assert _keys(store.deliveries.claim(NOW, UNTIL, "p1", 2, skip=["wa"])) == _keys([taken])
    assert all(_stored(store, d) == d for d in skipped)


def test_claim_skipping_every_webhook_takes_nothing(store: Store, hooks: tuple[str, str]) -> None:
    store.deliveries.add_many([make_delivery("wa", due=1), make_delivery("wb", due=2)])
    assert store.deliveries.claim(NOW, UNTIL, "p1", 10, skip=hooks) == []


def test_claim_of_nothing_due_is_empty(store: Store, hooks: tuple[str, str]) -> None:
    assert store.deliveries.claim(NOW, UNTIL, "p1", 10) == []


def test_a_leased_delivery_is_not_claimed_by_another_before_its_lease_ends(
    store: Store, hooks: tuple[str, str]
) -> None:
    delivery = make_delivery("wa", due=3)
    store.deliveries.add_many([delivery])
    store.deliveries.claim(NOW, UNTIL, "p1", 10)
    assert store.deliveries.claim(at(19), at(30), "p2", 10) == []
    assert _stored(store, delivery) == _leased(delivery, "p1")


def test_a_leased_delivery_is_not_claimed_again_by_its_owner_before_its_lease_ends(
    store: Store, hooks: tuple[str, str]
) -> None:
    store.deliveries.add_many([make_delivery("wa", due=3)])
    store.deliveries.claim(NOW, UNTIL, "p1", 10)
    assert store.deliveries.claim(at(11), at(30), "p1", 10) == []


def test_the_next_claim_takes_the_deliveries_not_leased(
    store: Store, hooks: tuple[str, str]
) -> None:
    made = [make_delivery("wa", f"evt_{n}", due=n) for n in range(4)]
    store.deliveries.add_many(made)
    first = store.deliveries.claim(NOW, UNTIL, "p1", 2)
    second = store.deliveries.claim(NOW, UNTIL, "p2", 10)
    assert (_keys(first), _keys(second)) == (_keys(made[:2]), _keys(made[2:]))
    assert second == [_leased(d, "p2") for d in made[2:]]


def test_a_delivery_whose_lease_ended_is_claimed_again(
    store: Store, hooks: tuple[str, str]
) -> None:
    delivery = make_delivery("wa", due=3)
    store.deliveries.add_many([delivery])
    store.deliveries.claim(NOW, UNTIL, "p1", 10)
    assert store.deliveries.claim(at(21), at(40), "p2", 10) == [_leased(delivery, "p2", at(40))]
    assert _stored(store, delivery) == _leased(delivery, "p2", at(40))


def test_a_lease_ending_at_now_has_ended(store: Store, hooks: tuple[str, str]) -> None:
    delivery = make_delivery("wa", due=3)
    store.deliveries.add_many([delivery])
    store.deliveries.claim(NOW, UNTIL, "p1", 10)
    assert _keys(store.deliveries.claim(UNTIL, at(40), "p2", 10)) == _keys([delivery])


def test_a_stored_lease_that_ended_is_claimed(store: Store, hooks: tuple[str, str]) -> None:
    delivery = _leased(make_delivery("wa", due=3), "gone", at(5))
    store.deliveries.add_many([delivery])
    assert store.deliveries.claim(NOW, UNTIL, "p1", 10) == [_leased(delivery, "p1")]


def test_of_concurrent_claims_each_delivery_goes_to_one_owner(
    store: Store, hooks: tuple[str, str]
) -> None:
    made = [make_delivery(hook, f"evt_{n:02}", due=n % 7) for hook in hooks for n in range(20)]
    store.deliveries.add_many(made)
    claimed = _claim_at_once([store] * THREADS, len(made))
    assert sorted(_keys([d for _, d in claimed])) == sorted(_keys(made))
    for owner, delivery in claimed:
        assert _stored(store, delivery) == delivery == _leased(delivery, owner)


# -- finish ------------------------------------------------------------------------------------


def _claimed(store: Store, owner: str = "p1", **members: Any) -> Delivery:
    """A due delivery to ``wa``, claimed by ``owner``."""
    store.deliveries.add_many([make_delivery("wa", due=3, **members)])
    (delivery,) = store.deliveries.claim(NOW, UNTIL, owner, 1)
    return delivery


def test_finish_stores_the_outcome_and_ends_the_lease(store: Store, hooks: tuple[str, str]) -> None:
    delivery = _claimed(store)
    outcome = delivery._replace(
        state="delivered", attempts=1, last_status=204, last_attempt=NOW, next_attempt=None
    )
    assert store.deliveries.finish(outcome, "p1")
    assert _stored(store, delivery) == outcome._replace(leased_until=None, leased_by=None)


def test_a_delivery_finished_to_retry_is_claimed_at_its_next_attempt(
    store: Store, hooks: tuple[str, str]
) -> None:
    delivery = _claimed(store)
    retry = delivery._replace(
        attempts=1, failures=1, last_status=500, last_attempt=NOW, next_attempt=at(15)
    )
    assert store.deliveries.finish(retry, "p1")
    assert store.deliveries.claim(at(14), at(30), "p2", 10) == []
    assert store.deliveries.claim(at(15), at(30), "p2", 10) == [
        retry._replace(leased_until=at(30), leased_by="p2")
    ]


def test_finish_by_another_owner_is_refused_and_changes_nothing(
    store: Store, hooks: tuple[str, str]
) -> None:
    delivery = _claimed(store)
    outcome = delivery._replace(state="failed", attempts=8, next_attempt=None)
    assert not store.deliveries.finish(outcome, "p2")
    assert _stored(store, delivery) == delivery


def test_finish_after_another_owner_claimed_it_again_is_refused(
    store: Store, hooks: tuple[str, str]
) -> None:
    delivery = _claimed(store)
    (again,) = store.deliveries.claim(at(21), at(40), "p2", 10)
    outcome = delivery._replace(state="delivered", attempts=1, next_attempt=None)
    assert not store.deliveries.finish(outcome, "p1")
    assert _stored(store, delivery) == again


def test_the_new_owner_finishes_a_delivery_claimed_again(
    store: Store, hooks: tuple[str, str]
) -> None:
    delivery = _claimed(store)
    (again,) = store.deliveries.claim(at(21), at(40), "p2", 10)
    outcome = again._replace(state="delivered", attempts=1, next_attempt=None)
    assert store.deliveries.finish(outcome, "p2")
    assert _stored(store, delivery) == outcome._replace(leased_until=None, leased_by=None)


def test_finish_of_a_delivery_nobody_holds_is_refused(store: Store, hooks: tuple[str, str]) -> None:
    delivery = make_delivery("wa", due=3)
    store.deliveries.add_many([delivery])
    outcome = delivery._replace(state="delivered", attempts=1, next_attempt=None)
    assert not store.deliveries.finish(outcome, "p1")
    assert _stored(store, delivery) == delivery


def test_a_finished_delivery_is_finished_once(store: Store, hooks: tuple[str, str]) -> None:
    delivery = _claimed(store)
    first = delivery._replace(attempts=1, failures=1, next_attempt=at(30))
    assert store.deliveries.finish(first, "p1")
    assert not store.deliveries.finish(delivery._replace(state="delivered"), "p1")
    assert _stored(store, delivery) == first._replace(leased_until=None, leased_by=None)


def test_finish_of_an_unknown_delivery_stores_nothing(store: Store, hooks: tuple[str, str]) -> None:
    delivery = make_delivery("wa", due=3)
    assert not store.deliveries.finish(_leased(delivery, "p1"), "p1")
    assert _stored(store, delivery) is None


# -- of_webhook and count ----------------------------------------------------------------------


def test_of_webhook_answers_newest_first(store: Store, hooks: tuple[str, str]) -> None:
    made = [make_delivery("wa", f"evt_{n}", minutes=m) for n, m in enumerate([4, 9, 1])]
    store.deliveries.add_many(made)
    assert store.deliveries.of_webhook("wa", 0, 10) == [made[1], made[0], made[2]]


def test_deliveries_made_at_one_moment_come_by_event_id_descending(
    store: Store, hooks: tuple[str, str]
) -> None:
    events = ["evt_m", "evt_c", "evt_x", "evt_a"]
    store.deliveries.add_many([make_delivery("wa", event, minutes=2) for event in events])
    found = [d.event_id for d in store.deliveries.of_webhook("wa", 0, 10)]
    assert found == ["evt_x", "evt_m", "evt_c", "evt_a"]


def test_of_webhook_slices_by_offset_and_limit(store: Store, hooks: tuple[str, str]) -> None:
    made = [make_delivery("wa", f"evt_{n}", minutes=n) for n in range(5)]
    store.deliveries.add_many(made)
    newest_first = made[::-1]
    assert store.deliveries.of_webhook("wa", 1, 3) == newest_first[1:4]
    assert store.deliveries.of_webhook("wa", 4, 3) == newest_first[4:]
    assert store.deliveries.of_webhook("wa", 5, 3) == []


def test_of_webhook_answers_only_that_webhooks_deliveries(
    store: Store, hooks: tuple[str, str]
) -> None:
    mine = make_delivery("wa", "evt_1", minutes=1)
    store.deliveries.add_many([mine, make_delivery("wb", "evt_1", minutes=2)])
    assert store.deliveries.of_webhook("wa", 0, 10) == [mine]


def test_of_webhook_of_an_unknown_webhook_is_empty(store: Store, hooks: tuple[str, str]) -> None:
    store.deliveries.add_many([make_delivery("wa")])
    assert store.deliveries.of_webhook("nope", 0, 10) == []


def test_count_counts_the_webhooks_deliveries(store: Store, hooks: tuple[str, str]) -> None:
    store.deliveries.add_many(
        [make_delivery("wa"), make_delivery("wa", due=None, state="delivered"), make_delivery("wb")]
    )
    assert (store.deliveries.count("wa"), store.deliveries.count("wb")) == (2, 1)


def test_count_of_an_unknown_webhook_is_zero(store: Store, hooks: tuple[str, str]) -> None:
    store.deliveries.add_many([make_delivery("wa")])
    assert store.deliveries.count("nope") == 0


# -- redeliver ---------------------------------------------------------------------------------


@pytest.mark.parametrize("state", ["delivered", "failed"])
def test_redeliver_makes_a_delivery_pending_and_due_now_again(
    store: Store, hooks: tuple[str, str], state: DeliveryState
) -> None:
    delivery = make_delivery(
        "wa", due=None, state=state, attempts=8, failures=8, last_status=500,
        last_error="busy", last_attempt=at(3),
    )  # fmt: skip
    store.deliveries.add_many([delivery])
    assert store.deliveries.redeliver("wa", delivery.event_id, at(50))
    assert _stored(store, delivery) == delivery._replace(
        state="pending", failures=0, next_attempt=at(50)
    )


def test_redeliver_ends_a_lease(store: Store, hooks: tuple[str, str]) -> None:
    delivery = _claimed(store, attempts=2, failures=2)
    assert store.deliveries.redeliver("wa", delivery.event_id, at(12))
    assert _stored(store, delivery) == delivery._replace(
        failures=0, next_attempt=at(12), leased_until=None, leased_by=None
    )


def test_a_redelivered_delivery_is_claimed_at_once(store: Store, hooks: tuple[str, str]) -> None:
    delivery = make_delivery("wa", due=None, state="failed", attempts=8)
    store.deliveries.add_many([delivery])
    store.deliveries.redeliver("wa", delivery.event_id, at(50))
    assert _keys(store.deliveries.claim(at(50), at(60), "p1", 10)) == _keys([delivery])


def test_redeliver_of_an_unknown_delivery_is_false(store: Store, hooks: tuple[str, str]) -> None:
    delivery = make_delivery("wa", "evt_1", due=None, state="failed")
    store.deliveries.add_many([delivery])
    assert not store.deliveries.redeliver("wa", "evt_2", at(50))
    assert not store.deliveries.redeliver("wb", "evt_1", at(50))
    assert store.deliveries.get("wa", "evt_2") is None
    assert store.deliveries.get("wb", "evt_1") is None
    assert _stored(store, delivery) == delivery


# -- two stores on one storage -----------------------------------------------------------------


def _claim_at_once(stores: Sequence[Store], due: int) -> list[tuple[str, Delivery]]:
    """Claims on each of ``stores`` at once, two at a time (``claim_at_once``)."""

    def claimer(store: Store) -> Callable[[str], Sequence[Delivery]]:
        return lambda owner: store.deliveries.claim(NOW, UNTIL, owner, 2)

    return claim_at_once([claimer(store) for store in stores], due)


@pytest.fixture
def shared(storycore_store_url: str, tmp_path: Path) -> Iterator[tuple[Store, Store]]:
    """Two stores on one storage (``two_stores``)."""
    with two_stores(storycore_store_url, tmp_path) as stores:
        yield stores


def test_a_delivery_leased_through_one_store_is_not_claimed_through_another(
    shared: tuple[Store, Store],
) -> None:
    first, second = shared
    first.webhooks.add(make_webhook(webhook_id="wa"))
    delivery = make_delivery("wa", due=3)
    first.deliveries.add_many([delivery])
    assert first.deliveries.claim(NOW, UNTIL, "p1", 10) == [_leased(delivery, "p1")]
    assert second.deliveries.claim(at(11), at(30), "p2", 10) == []
    assert second.deliveries.get("wa", delivery.event_id) == _leased(delivery, "p1")


def test_two_stores_on_one_storage_never_lease_a_delivery_to_two_owners(
    shared: tuple[Store, Store],
) -> None:
    first, second = shared
    first.webhooks.add(make_webhook(webhook_id="wa"))
    made = [make_delivery("wa", f"evt_{n:02}", due=n % 5) for n in range(40)]
    first.deliveries.add_many(made)
    claimed = _claim_at_once([first, second, first, second], len(made))
    assert sorted(_keys([d for _, d in claimed])) == sorted(_keys(made))
    for owner, delivery in claimed:
        assert second.deliveries.get(delivery.webhook_id, delivery.event_id) == _leased(
            delivery, owner
        )
