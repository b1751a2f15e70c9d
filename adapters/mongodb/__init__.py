"""The scale-out backend: MongoDB through pymongo (or mongomock, in memory, for trying out).

Storage URLs: ``mongodb://host:port/dbname`` (any pymongo connection string that names a
database, ``mongodb+srv://`` included) and ``mongomock://dbname``; nothing past opening
(``_mongo_client``) tells them apart. No change uses a multi-document transaction (a standalone
server has none): ``_stories`` and ``_accounts`` say in which order each writes its documents,
``_revisions`` how a revision joins its change, ``_outbox`` how an event travels in the
document its write changes and ``_relay`` how it reaches the log (``_events``); ``_webhooks``
keeps webhooks and deliveries, and ``_kept`` kept pictures (their files in GridFS).
``docs/mongodb.md`` has the documents, indexes, shard keys and trade-offs.
"""

from __future__ import annotations

from storycore.ports import Store

from ._accounts import MongoApplications, MongoIdentities, MongoTokens, MongoUsers
from ._client import connect, drop_database
from ._events import MongoEvents
from ._kept import MongoKeptFiles, MongoKeptSources
from ._revisions import MongoRevisions
from ._sign_in_failures import MongoSignInFailures
from ._stories import MongoSearch, MongoStories
from ._webhooks import MongoDeliveries, MongoWebhooks

__all__ = ["MongoStore", "drop_database"]


class MongoStore(Store):
    """Every repository over one MongoDB database, opened from its storage URL.

    Opening creates the indexes (idempotently) and raises ``ConfigurationError`` for a
    malformed URL or a server that does not answer.
    """

    parallel_calls = 8  # pymongo's pool serves threads at once; their waits overlap

    def __init__(self, url: str) -> None:
        self._collections, self._close = connect(url)
        db = self._collections
        self.stories, self.search = MongoStories(db), MongoSearch(db)
        self.revisions = MongoRevisions(db)
        self.users, self.apps = MongoUsers(db), MongoApplications(db)
        self.tokens, self.identities = MongoTokens(db), MongoIdentities(db)
        self.events, self.webhooks = MongoEvents(db), MongoWebhooks(db)
        self.deliveries = MongoDeliveries(db)
        self.sign_in_failures = MongoSignInFailures(db)
        self.kept_files, self.kept_sources = MongoKeptFiles(db), MongoKeptSources(db)

    def derivation(self) -> int | None:
        found = self._collections.meta.find_one({"_id": "derivation"})
        return None if found is None else int(found["version"])

    def set_derivation(self, version: int) -> None:
        self._collections.meta.update_one(
            {"_id": "derivation"}, {"$set": {"version": version}}, upsert=True
        )

    def close(self) -> None:
        """Close the client of a real server; an in-memory database stays for a reopen."""
        self._close()
