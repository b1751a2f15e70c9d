"""Records as MongoDB documents, and back; reads by one selector; unique-key refusals.

A record's members are the document's fields and its key (``id``, a token's ``digest``) is the
``_id``. Beside them the adapter keeps fields of its own (``docs/mongodb.md``, "Documents"),
which reads never return: every read goes through the projection of its ``Kind``, which names
record members only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from pydantic import BaseModel
from pymongo.collection import Collection
from pymongo.errors import DuplicateKeyError

from storycore.errors import DuplicateKey
from storycore.model.heads import StoryHead
from storycore.model.records import (
    AppRecord,
    StoryRecord,
    TokenRecord,
    UserRecord,
    trusted_story,
    trusted_user,
)
from storycore.model.webhooks import WebhookRecord

__all__ = [
    "APP",
    "HEAD",
    "STORY",
    "TOKEN",
    "USER",
    "WEBHOOK",
    "Document",
    "document",
    "fields_of",
    "refused",
]

Document = dict[str, Any]
R = TypeVar("R")


def document(record: BaseModel, key: str = "id") -> Document:
    """The members of ``record`` as fields, ``key`` as the ``_id``."""
    return {"_id": getattr(record, key), **record.model_dump(exclude={key})}


def fields_of(kind: type[BaseModel], changes: Mapping[str, Any]) -> Document:
    """The members ``changes`` names, as fields of a ``kind`` document hold them (nested
    models as subdocuments)."""
    return kind.model_construct(**changes).model_dump(include=set(changes))


class Kind(Generic[R]):
    """One kind of record as documents: the projection that reads its members (``fields``),
    and how the record is rebuilt from a document read through it."""

    def __init__(
        self, members: Iterable[str], rebuild: Callable[[Document], R], key: str = "id"
    ) -> None:
        self.fields = {name: 1 for name in members if name != key}
        self._rebuild, self._key = rebuild, key

    def one(self, collection: Collection[Document], selector: Document) -> R | None:
        """The record of the document ``selector`` finds, or None."""
        found = collection.find_one(selector, self.fields)
        return None if found is None else self._record(found)

    def many(self, collection: Collection[Document], selector: Document, **find: Any) -> list[R]:
        """The records of the documents ``selector`` finds (``find`` sorts, skips, limits)."""
        return [self._record(found) for found in collection.find(selector, self.fields, **find)]

    def page(
        self,
        collection: Collection[Document],
        selector: Document,
        order: list[tuple[str, int]],
        offset: int,
        limit: int,
    ) -> list[R]:
        """``many`` in ``order``, sliced."""
        if limit <= 0:  # to MongoDB, a limit of 0 means none
            return []
        return self.many(collection, selector, sort=order, skip=offset, limit=limit)

    def _record(self, found: Document) -> R:
        found[self._key] = found.pop("_id")
        return self._rebuild(found)


STORY = Kind(StoryRecord.model_fields, trusted_story)
HEAD = Kind(StoryHead._fields, lambda found: StoryHead._make(map(found.get, StoryHead._fields)))
USER = Kind(UserRecord.model_fields, trusted_user)
APP = Kind(AppRecord.model_fields, AppRecord.model_validate)
TOKEN = Kind(TokenRecord.model_fields, TokenRecord.model_validate, key="digest")
WEBHOOK = Kind(WebhookRecord.model_fields, WebhookRecord.model_validate)


@contextmanager
def refused(
    collection: Collection[Document], key: str, *others: tuple[str, Document]
) -> Iterator[None]:
    """Translate a unique index's refusal into ``DuplicateKey``: the first of ``others`` whose
    selector finds a document in ``collection``, else ``key``. (mongomock's error does not say
    which index refused, so the documents are asked.)
    """
    try:
        yield
    except DuplicateKeyError as exc:
        taken = (name for name, selector in others if collection.find_one(selector, {"_id": 1}))
        raise DuplicateKey(next(taken, key)) from exc
