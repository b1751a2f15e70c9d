"""The scale-out backend: MongoDB through pymongo (or mongomock, in memory, for trying out).

Storage URLs: ``mongodb://host:port/dbname`` (any pymongo connection string that names a
database, ``mongodb+srv://`` included) and ``mongomock://dbname``. The same code serves both:
nothing below branches on which one it talks to.

Documents: a story is one document (its members, counters and search tokens); its elements
are documents of their own, in generations (``_mongo_elements``); retired slugs and embed
counts are small documents keyed by story; the core's derivation version is a document of
``meta``. Single-document updates do every change that must be atomic: ``$inc`` for counters,
filters on ``version`` (and what else was read) for optimistic concurrency. Changes that touch
several documents are ordered so that a crash never leaves a reference to something missing
(``_mongo_stories``, ``_mongo_accounts``).
``docs/mongodb.md`` has the indexes, the suggested shard keys and the trade-offs.
"""

from __future__ import annotations

from pymongo.errors import PyMongoError

from storycore.errors import ConfigurationError
from storycore.ports import Store

from ._mongo_accounts import MongoApplications, MongoIdentities, MongoTokens, MongoUsers
from ._mongo_client import connect
from ._mongo_schema import open_collections
from ._mongo_search import MongoSearch
from ._mongo_stories import MongoAliases, MongoStories

__all__ = ["MongoStore"]


class MongoStore(Store):
    """Every repository over one MongoDB database, opened from its storage URL.

    Opening creates the indexes (idempotently) and raises ``ConfigurationError`` for a
    malformed URL or a server that does not answer.
    """

    parallel_calls = 8  # pymongo's pool serves threads at once; their waits overlap

    def __init__(self, url: str) -> None:
        connection = connect(url)
        self._close = connection.close
        try:
            collections = open_collections(connection.database, connection.wrap)
        except PyMongoError as exc:  # say, a user without createIndex, or an index of another shape
            connection.close()
            raise ConfigurationError(
                f"cannot create storycore's indexes in {connection.database.name!r}: {exc}"
            ) from exc
        except BaseException:
            connection.close()
            raise
        self._stories = MongoStories(collections)
        self._aliases = MongoAliases(collections)
        self._search = MongoSearch(collections.stories)
        self._users = MongoUsers(collections)
        self._apps = MongoApplications(collections)
        self._tokens = MongoTokens(collections)
        self._identities = MongoIdentities(collections)
        self._meta = collections.meta

    @property
    def stories(self) -> MongoStories:
        return self._stories

    @property
    def aliases(self) -> MongoAliases:
        return self._aliases

    @property
    def search(self) -> MongoSearch:
        return self._search

    @property
    def users(self) -> MongoUsers:
        return self._users

    @property
    def apps(self) -> MongoApplications:
        return self._apps

    @property
    def tokens(self) -> MongoTokens:
        return self._tokens

    @property
    def identities(self) -> MongoIdentities:
        return self._identities

    def derivation(self) -> int | None:
        found = self._meta.find_one({"_id": "derivation"})
        return None if found is None else int(found["version"])

    def set_derivation(self, version: int) -> None:
        self._meta.update_one({"_id": "derivation"}, {"$set": {"version": version}}, upsert=True)

    def close(self) -> None:
        """Close the client of a real server; an in-memory database stays for a reopen."""
        self._close()
