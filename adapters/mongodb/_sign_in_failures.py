"""Failed sign-ins on MongoDB: a document each in ``sign_in_failures`` (``key``, ``at``), inserted
on its own, so concurrent failures never conflict and two at one time are two. The ``key_at``
index serves a key's count over its window, ``at`` the pruning of what left every window."""

from __future__ import annotations

from collections.abc import Sequence

from pymongo import ASCENDING

from storycore.ports import SignInFailures

from ._schema import Collections

__all__ = ["MongoSignInFailures"]

_AT = {"_id": False, "at": True}
_OLDEST = [("at", ASCENDING)]


class MongoSignInFailures(SignInFailures):
    """The ``sign_in_failures`` collection."""

    def __init__(self, collections: Collections) -> None:
        self._failures = collections.sign_in_failures

    def add(self, keys: Sequence[str], at: str) -> None:
        if keys:
            self._failures.insert_many([{"key": key, "at": at} for key in keys], ordered=False)

    def since(self, key: str, after: str, limit: int) -> list[str]:
        if limit < 1:  # to MongoDB, a limit of 0 means none
            return []
        found = self._failures.find(
            {"key": key, "at": {"$gt": after}}, _AT, sort=_OLDEST, limit=limit
        )
        return [document["at"] for document in found]

    def prune(self, before: str) -> int:
        return self._failures.delete_many({"at": {"$lte": before}}).deleted_count
