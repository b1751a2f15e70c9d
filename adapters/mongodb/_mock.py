"""The in-process MongoDB behind ``mongomock://`` URLs: one mongomock server per process.

Every ``mongomock://NAME`` of a process reaches the same server, so a store reopened by name
finds what an earlier one stored, as a file does for SQLite; all is gone when the process ends.

A MongoDB server applies each single-document write atomically, unique indexes included.
mongomock applies it in Python, step by step: two threads upserting one key both insert and
both fail (seen with concurrent embed counts), and documents change while others read them.
So every operation on this server holds ``LOCK`` (``_mongo_client`` guards each collection
with it), which gives mongomock the per-operation atomicity the adapter relies on.
"""

from __future__ import annotations

import threading
from functools import cache

from pymongo import MongoClient
from pymongo.database import Database

from storycore.extras import imported_from

from ._documents import Document

__all__ = ["LOCK", "mock_database"]

LOCK = threading.RLock()


@cache
def _server() -> MongoClient[Document]:
    with imported_from("mongomock"):
        import mongomock
        import mongomock.gridfs
    # gridfs checks that it is given pymongo's own classes: this lets mongomock's pass
    mongomock.gridfs.enable_gridfs_integration()  # type: ignore[no-untyped-call]
    client: MongoClient[Document] = mongomock.MongoClient()
    return client


def mock_database(name: str) -> Database[Document]:
    """The database ``name`` on this process's mongomock server."""
    with LOCK:  # the server is made once, by the first caller
        return _server()[name]
