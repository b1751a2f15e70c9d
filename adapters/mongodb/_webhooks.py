"""Webhooks and their deliveries on MongoDB.

A webhook is one document of ``webhooks`` (``_id`` its id). A delivery is one document of
``deliveries``, keyed by its webhook and event (``_id``: ``{"webhook": ..., "event": ...}``),
with the delivery's members as fields beside it. Each write is one document's, atomic, but
two: ``add_many`` inserts its deliveries one by one (unordered: a stored one is left as it is
and the others go in), and ``WebhookRepository.remove`` deletes the webhook, then its
deliveries. A crash between those two leaves deliveries of a webhook that is gone: reads by
webhook find them (no caller asks about a webhook that is gone), ``claim`` may lease them
(the caller finds no webhook for them), and removing the webhook again deletes them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from pymongo import ASCENDING, DESCENDING, ReturnDocument
from pymongo.errors import BulkWriteError

from storycore.errors import Missing
from storycore.model.webhooks import Delivery, WebhookRecord
from storycore.ports import DeliveryRepository, WebhookRepository

from ._documents import WEBHOOK, Document, document, fields_of, refused
from ._schema import Collections

__all__ = ["MongoDeliveries", "MongoWebhooks"]

_DUPLICATE_KEY = 11000
_OLDEST = [("created", ASCENDING), ("_id", ASCENDING)]
_NEWEST = [("created", DESCENDING), ("event_id", DESCENDING)]
_DUE = [("next_attempt", ASCENDING), ("webhook_id", ASCENDING), ("event_id", ASCENDING)]
_FIELDS = dict.fromkeys(Delivery._fields, 1)


def _key(webhook_id: str, event_id: str) -> Document:
    """The ``_id`` of a webhook's delivery of an event (its fields always in this order)."""
    return {"webhook": webhook_id, "event": event_id}


def _delivery(found: Document) -> Delivery:
    return Delivery._make(found[name] for name in Delivery._fields)


class MongoWebhooks(WebhookRepository):
    """Webhooks by id, oldest first."""

    def __init__(self, collections: Collections) -> None:
        self._webhooks, self._deliveries = collections.webhooks, collections.deliveries

    def add(self, webhook: WebhookRecord) -> None:
        with refused(self._webhooks, "webhook.id"):
            self._webhooks.insert_one(document(webhook))

    def get(self, webhook_id: str) -> WebhookRecord | None:
        return WEBHOOK.one(self._webhooks, {"_id": webhook_id})

    def find(self, offset: int, limit: int) -> list[WebhookRecord]:
        return WEBHOOK.page(self._webhooks, {}, _OLDEST, offset, limit)

    def update(self, webhook_id: str, changes: Mapping[str, Any]) -> None:
        fields = fields_of(WebhookRecord, changes)
        if self._webhooks.update_one({"_id": webhook_id}, {"$set": fields}).matched_count == 0:
            raise Missing("webhook")

    def advance(self, webhook_id: str, expected: str | None, cursor: str) -> bool:
        moved = self._webhooks.update_one(
            {"_id": webhook_id, "cursor": expected}, {"$set": {"cursor": cursor}}
        )
        return moved.matched_count > 0

    def remove(self, webhook_id: str) -> bool:
        """The webhook, then its deliveries (also when it is gone: what a crash left)."""
        existed = self._webhooks.delete_one({"_id": webhook_id}).deleted_count > 0
        self._deliveries.delete_many({"webhook_id": webhook_id})
        return existed


class MongoDeliveries(DeliveryRepository):
    """Deliveries by webhook and event; the due ones walked through a partial index of the
    pending ones."""

    def __init__(self, collections: Collections) -> None:
        self._deliveries = collections.deliveries

    def add_many(self, deliveries: Iterable[Delivery]) -> int:
        new = [{"_id": _key(d.webhook_id, d.event_id), **d._asdict()} for d in deliveries]
        if not new:
            return 0
        try:
            return len(self._deliveries.insert_many(new, ordered=False).inserted_ids)
        except BulkWriteError as exc:  # the stored ones are refused, the others inserted
            refusals = exc.details.get("writeErrors", [])
            if any(refusal.get("code") != _DUPLICATE_KEY for refusal in refusals):
                raise
            return int(exc.details.get("nInserted", 0))

    def claim(
        self, now: str, until: str, owner: str, limit: int, skip: Collection[str] = ()
    ) -> list[Delivery]:
        """One ``find_one_and_update`` per delivery, each leasing the earliest free one."""
        free: Document = {
            "state": "pending",
            "next_attempt": {"$lte": now},
            "webhook_id": {"$nin": list(skip)},
            "$or": [{"leased_until": None}, {"leased_until": {"$lte": now}}],
        }
        lease = {"$set": {"leased_until": until, "leased_by": owner}}
        claimed: list[Delivery] = []
        while len(claimed) < limit:
            found = self._deliveries.find_one_and_update(
                free, lease, projection=_FIELDS, sort=_DUE, return_document=ReturnDocument.AFTER
            )
            if found is None:
                break
            claimed.append(_delivery(found))
        return claimed

    def finish(self, delivery: Delivery, owner: str) -> bool:
        stored = delivery._replace(leased_until=None, leased_by=None)._asdict()
        selector = {"_id": _key(delivery.webhook_id, delivery.event_id), "leased_by": owner}
        return self._deliveries.update_one(selector, {"$set": stored}).matched_count > 0

    def get(self, webhook_id: str, event_id: str) -> Delivery | None:
        found = self._deliveries.find_one({"_id": _key(webhook_id, event_id)}, _FIELDS)
        return None if found is None else _delivery(found)

    def of_webhook(self, webhook_id: str, offset: int, limit: int) -> list[Delivery]:
        if limit <= 0:  # to MongoDB, a limit of 0 means none
            return []
        found = self._deliveries.find(
            {"webhook_id": webhook_id}, _FIELDS, sort=_NEWEST, skip=max(offset, 0), limit=limit
        )
        return [_delivery(delivery) for delivery in found]

    def count(self, webhook_id: str) -> int:
        return int(self._deliveries.count_documents({"webhook_id": webhook_id}))

    def redeliver(self, webhook_id: str, event_id: str, now: str) -> bool:
        again = {
            "state": "pending",
            "failures": 0,
            "next_attempt": now,
            "leased_until": None,
            "leased_by": None,
        }
        done = self._deliveries.update_one({"_id": _key(webhook_id, event_id)}, {"$set": again})
        return done.matched_count > 0
