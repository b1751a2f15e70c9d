"""The in-process MongoDB behind ``mongomock://`` URLs: one mongomock server per process.

Every ``mongomock://NAME`` opened in a process reaches the same server, so a store reopened by
name finds what an earlier one stored, as a file does for SQLite; everything is gone when the
process ends.

A MongoDB server applies each single-document write atomically and checks unique indexes as
part of it. mongomock applies a write in Python, step by step: it inserts a document and then
looks for duplicates, so two threads upserting the same key both insert and both fail (seen
with concurrent embed counts), and it changes documents in place while others read them.
Every operation on this server therefore runs under one lock, which gives mongomock the
per-operation atomicity the adapter relies on from a real server. A query is read in full
under the lock, so ``find`` and ``aggregate`` answer lists, which the adapter only iterates,
as it iterates cursors.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Any, cast

from pymongo import MongoClient
from pymongo.collection import Collection
from pymongo.database import Database

from storycore.errors import MissingDependencyError

from ._mongo_documents import Document

__all__ = ["mock_database", "serialized"]

_LOCK = threading.RLock()
_READ_IN_FULL = frozenset({"find", "aggregate", "list_indexes"})


@cache
def _server() -> MongoClient[Document]:
    try:
        import mongomock
    except ModuleNotFoundError as exc:
        raise MissingDependencyError("mongomock", "test") from exc
    client: MongoClient[Document] = mongomock.MongoClient()
    return client


def mock_database(name: str) -> Database[Document]:
    """The database ``name`` on this process's mongomock server."""
    with _LOCK:  # the server is made once, by the first caller
        return _server()[name]


class _Serialized:
    """A mongomock collection whose operations run one at a time, process-wide."""

    def __init__(self, collection: Collection[Document]) -> None:
        self._collection = collection

    def __getattr__(self, name: str) -> Any:
        member = getattr(self._collection, name)
        if not callable(member):
            return member

        def run(*args: Any, **kwargs: Any) -> Any:
            with _LOCK:
                result = member(*args, **kwargs)
                return list(result) if name in _READ_IN_FULL else result

        return run


def serialized(collection: Collection[Document]) -> Collection[Document]:
    """``collection`` (on the mongomock server), its operations run under the server lock."""
    return cast("Collection[Document]", _Serialized(collection))
