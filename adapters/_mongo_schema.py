"""The collections of a storycore database on MongoDB, and their indexes.

Indexes are created on every open with ``create_indexes``, which leaves an index that already
exists with the same keys and options alone: opening twice is the same as opening once.

- ``stories``: one document per story, elements apart. ``author_slug`` (unique) makes a slug
  unique per author and finds a story by slug; ``author_published`` serves a user's list and
  author figures; ``public_<sort>`` (partial: public stories only) serve every public list
  sort, ``public_featured_at`` being the featured list; ``tag``, ``topic`` and
  ``containing_element`` are multikey indexes over the story's derived arrays; ``search``
  (multikey, partial) holds every public story's tokens, in search order after each token.
- ``elements``: one document per element, ``(story_id, rev, position)`` unique, so one page
  of one generation of a story's elements is one index range.
- ``aliases``: retired slugs, ``(author_id, slug)`` unique; ``story_id`` to remove them.
- ``embeds``: one counter per (story, page), ``(story_id, href)`` unique.
- ``users`` (``username_key`` unique), ``apps`` (``name`` and ``key_digest`` unique),
  ``tokens`` (``_id`` is the digest; ``expires`` for clean-up), ``identities``
  (``(provider, external_id)`` unique).
- ``meta``: what the core records about the stored data, by ``_id``: ``derivation`` holds the
  ``version`` of the rules that derived it (``Store.derivation``). No index but ``_id``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, get_args

from pymongo import ASCENDING, DESCENDING, IndexModel
from pymongo.collection import Collection
from pymongo.database import Database

from storycore.queries import SortField

from ._mongo_documents import Document

__all__ = ["INDEXES", "Collections", "open_collections"]

_PUBLIC = {"public": True}
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
        _index("tag", ("tags", _UP), *_NEWEST),
        _index("topic", ("topic_keys", _UP), *_NEWEST),
        _index("containing_element", ("element_permalinks", _UP)),
        _index("search", ("search", _UP), *_NEWEST, partialFilterExpression=_PUBLIC),
    ),
    "elements": (
        _index(
            "story_rev_position", ("story_id", _UP), ("rev", _UP), ("position", _UP), unique=True
        ),
    ),
    "aliases": (
        _index("author_slug", ("author_id", _UP), ("slug", _UP), unique=True),
        _index("story", ("story_id", _UP)),
    ),
    "embeds": (_index("story_href", ("story_id", _UP), ("href", _UP), unique=True),),
    "users": (_index("username_key", ("username_key", _UP), unique=True),),
    "apps": (
        _index("name", ("name", _UP), unique=True),
        _index("key_digest", ("key_digest", _UP), unique=True),
    ),
    "tokens": (_index("expires", ("expires", _UP)), _index("user", ("user_id", _UP))),
    "identities": (
        _index("provider_external_id", ("provider", _UP), ("external_id", _UP), unique=True),
    ),
    "meta": (),
}

Wrap = Callable[[Collection[Document]], Collection[Document]]


@dataclass(frozen=True, slots=True)
class Collections:
    """Every collection of one storycore database."""

    stories: Collection[Document]
    elements: Collection[Document]
    aliases: Collection[Document]
    embeds: Collection[Document]
    users: Collection[Document]
    apps: Collection[Document]
    tokens: Collection[Document]
    identities: Collection[Document]
    meta: Collection[Document]


def open_collections(database: Database[Document], wrap: Wrap) -> Collections:
    """The collections of ``database``, each passed through ``wrap``, their indexes made."""
    collections = {name: wrap(database[name]) for name in INDEXES}
    for name, indexes in INDEXES.items():
        if indexes:  # a server refuses a createIndexes of none
            collections[name].create_indexes(list(indexes))
    return Collections(**collections)
