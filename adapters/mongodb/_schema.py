"""The collections of a storycore database on MongoDB, and their indexes.

``docs/mongodb.md`` has what each collection holds and what each index serves. Opening creates
the indexes with ``create_indexes``, which leaves an index that exists with the same keys and
options alone: opening twice is the same as opening once.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, get_args

from pymongo import ASCENDING, DESCENDING, IndexModel
from pymongo.collection import Collection

from storycore.model.queries import SortField

from ._documents import Document
from ._outbox import DELETED, FIRST, PENDING

__all__ = ["INDEXES", "Bucket", "Collections", "field_of"]

_PUBLIC = {"public": True}
# Scheduled stories: a ``publish_at`` is a timestamp (a string), else null or, in a database
# made before scheduling, absent.
_SCHEDULED = {"publish_at": {"$type": "string"}}
_UP, _DOWN = ASCENDING, DESCENDING
# A total order: newest first, then by id (lists and search walk these backwards or forwards).
_NEWEST = (("published", _DOWN), ("_id", _DOWN))


def _index(name: str, *keys: tuple[str, int], **options: Any) -> IndexModel:
    return IndexModel(list(keys), name=name, **options)


INDEXES: dict[str, tuple[IndexModel, ...]] = {
    "stories": (
        _index("author_slug", ("author_id", _UP), ("slug", _UP), unique=True),
        _index("author_published", ("author_id", _UP), *_NEWEST),
        *(
            _index(
                f"public_{field}", (field, _DOWN), ("_id", _DOWN), partialFilterExpression=_PUBLIC
            )
            for field in get_args(SortField)
        ),
        _index("sitemap", ("author_id", _UP), ("_id", _UP), partialFilterExpression=_PUBLIC),
        _index("tag", ("tags", _UP), *_NEWEST),
        _index("topic", ("topic_keys", _UP), *_NEWEST),
        _index("containing_element", ("element_permalinks", _UP)),
        _index("search", ("search", _UP), *_NEWEST, partialFilterExpression=_PUBLIC),
        _index("due", ("publish_at", _UP), ("_id", _UP), partialFilterExpression=_SCHEDULED),
        _index("outbox", (FIRST, _UP), ("_id", _UP), partialFilterExpression=PENDING),
        _index("tombstones", ("_id", _UP), partialFilterExpression=DELETED),
    ),
    "elements": (
        _index(
            "story_rev_position", ("story_id", _UP), ("rev", _UP), ("position", _UP), unique=True
        ),
    ),
    # Not unique: a revision document is keyed by its own id; which one a story shows at a
    # version is the story's to say (``_revisions``).
    "revisions": (_index("story_version", ("story_id", _UP), ("version", _UP)),),
    "aliases": (
        _index("author_slug", ("author_id", _UP), ("slug", _UP), unique=True),
        _index("story", ("story_id", _UP)),
    ),
    "embeds": (_index("story_href", ("story_id", _UP), ("href", _UP), unique=True),),
    "users": (
        _index("username_key", ("username_key", _UP), unique=True),
        _index("outbox", (FIRST, _UP), ("_id", _UP), partialFilterExpression=PENDING),
    ),
    "apps": (
        _index("name", ("name", _UP), unique=True),
        _index("key_digest", ("key_digest", _UP), unique=True),
    ),
    "tokens": (_index("expires", ("expires", _UP)),),
    "identities": (
        _index("provider_external_id", ("provider", _UP), ("external_id", _UP), unique=True),
    ),
    "meta": (),
    "events": (_index("seq", ("seq", _UP), unique=True),),
    "webhooks": (_index("created", ("created", _UP), ("_id", _UP)),),
    "deliveries": (
        _index("webhook", ("webhook_id", _UP), ("created", _DOWN), ("event_id", _DOWN)),
        _index(
            "due",
            ("next_attempt", _UP),
            ("webhook_id", _UP),
            ("event_id", _UP),
            partialFilterExpression={"state": "pending"},
        ),
    ),
    "sign_in_failures": (_index("key_at", ("key", _UP), ("at", _UP)), _index("at", ("at", _UP))),
    "kept_sources": (
        _index(
            "due",
            ("next_attempt", _UP),
            ("_id", _UP),
            partialFilterExpression={"next_attempt": {"$type": "string"}},
        ),
        _index("seen", ("seen", _UP)),
        _index("names", ("names", _UP)),
    ),
    # The GridFS bucket of kept files (``_kept``): a file's name once, and the oldest first for
    # the prune; the chunks' index is the one GridFS makes itself, made here with its name.
    "media.files": (
        _index("name", ("filename", _UP), unique=True),
        _index("at", ("metadata.at", _UP), ("filename", _UP)),
    ),
    "media.chunks": (_index("files_id_1_n_1", ("files_id", _UP), ("n", _UP), unique=True),),
}


def field_of(name: str) -> str:
    """The member of ``Collections`` that holds the collection ``name``."""
    return name.replace(".", "_")


@dataclass(frozen=True, slots=True)
class Bucket:
    """The GridFS bucket of kept files: its root collection, the driver's own (``gridfs``
    takes no other), and ``guard``, which every use of it runs in (``_client.guarded``)."""

    root: Collection[Document]
    guard: Callable[[], AbstractContextManager[None]]


@dataclass(frozen=True, slots=True)
class Collections:
    """Every collection of one storycore database."""

    stories: Collection[Document]
    elements: Collection[Document]
    revisions: Collection[Document]
    aliases: Collection[Document]
    embeds: Collection[Document]
    users: Collection[Document]
    apps: Collection[Document]
    tokens: Collection[Document]
    identities: Collection[Document]
    meta: Collection[Document]
    events: Collection[Document]
    webhooks: Collection[Document]
    deliveries: Collection[Document]
    sign_in_failures: Collection[Document]
    kept_sources: Collection[Document]
    media_files: Collection[Document]
    media_chunks: Collection[Document]
    media: Bucket
