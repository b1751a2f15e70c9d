"""Users, applications, tokens and identities on MongoDB.

Two changes touch several documents, without a transaction:

- a user's new search tokens (``update``): the user, whose ``tokens_version``
  grows in the same update; then its stories' copies of the tokens (``copy_author_tokens``);
  then the mark that every story has them (``stories_version``). A crash before the mark
  leaves stories with the older tokens; the user's next change sees the mark behind and copies
  the tokens again.
- ``IdentityRepository.add_user``: the user, then the link to it, so a link never names a
  missing user. When the link is refused (linked meanwhile), the user is deleted again; a
  crash in between leaves a user without a link, which nothing refers to (its events are
  logged: the user exists).

A user's events travel in its document (``_outbox``): ``add`` and ``add_user`` insert it with
them, ``update`` pushes them in its one update. A user deleted again because its link was
refused takes its events with it unless they were logged meanwhile (``_unmade``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from pymongo import ASCENDING, ReturnDocument
from pymongo.collection import Collection

from storycore.errors import DuplicateKey, Missing
from storycore.model.events import Event
from storycore.model.records import AppRecord, TokenRecord, UserRecord
from storycore.ports import (
    ApplicationRepository,
    IdentityRepository,
    TokenRepository,
    UserRepository,
)
from storycore.rules.usernames import username_key

from ._documents import APP, TOKEN, USER, Document, document, fields_of, refused
from ._outbox import carried, pushed
from ._relay import RELAY_AT, Relay
from ._schema import Collections
from ._stories import copy_author_tokens

__all__ = ["MongoApplications", "MongoIdentities", "MongoTokens", "MongoUsers"]


def _insert_user(users: Collection[Document], user: UserRecord, events: Sequence[Event]) -> None:
    """Insert ``user`` carrying ``events``: a new user's tokens are version 0, which no story
    holds yet."""
    with refused(users, "user.username", ("user.id", {"_id": user.id})):
        users.insert_one(
            {
                "_id": user.id,
                **_user_fields(user),
                "tokens_version": 0,
                "stories_version": 0,
                **carried(events),
            }
        )


def _user_fields(user: UserRecord) -> Document:
    """The members of ``user`` but its id, and the key that makes usernames unique."""
    return {**user.model_dump(exclude={"id"}), "username_key": username_key(user.username)}


class MongoUsers(UserRepository):
    """Users; ``username_key`` (lowercase, unique) makes usernames unique regardless of case."""

    def __init__(self, collections: Collections) -> None:
        self._users, self._stories = collections.users, collections.stories
        self._relay = Relay(collections)

    def add(self, user: UserRecord, *, events: Sequence[Event] = ()) -> None:
        _insert_user(self._users, user, events)

    def get(self, user_id: str) -> UserRecord | None:
        return USER.one(self._users, {"_id": user_id})

    def get_by_username(self, username: str) -> UserRecord | None:
        return USER.one(self._users, {"username_key": username_key(username)})

    def get_many(self, user_ids: Iterable[str]) -> dict[str, UserRecord]:
        if not (ids := list(set(user_ids))):
            return {}
        return {user.id: user for user in USER.many(self._users, {"_id": {"$in": ids}})}

    def update(
        self, user_id: str, changes: Mapping[str, Any], *, events: Sequence[Event] = ()
    ) -> None:
        """A new ``username`` moves its unique ``username_key`` in the same update, which
        carries ``events``."""
        fields = fields_of(UserRecord, changes)
        if "username" in fields:
            fields["username_key"] = username_key(fields["username"])
        with refused(self._users, "user.username"):
            self._set(user_id, fields, pushed(events))

    def _set(self, user_id: str, members: Document, push: Document) -> None:
        """Set ``members`` of the user in one update, with ``push`` (its events); when they
        hold ``search_tokens``, then copy those to the user's stories and mark them copied
        (see the module docstring).
        """
        tokens = members.get("search_tokens")
        change: Document = {"$set": members, **push}
        if tokens is not None:
            change["$inc"] = {"tokens_version": 1}
        read = ("search_tokens", "tokens_version", "stories_version", "outbox.id")
        before = self._users.find_one_and_update(
            {"_id": user_id},
            change,
            projection=dict.fromkeys(read, 1),
            return_document=ReturnDocument.BEFORE,
        )
        if before is None:
            raise Missing("user")
        if push and len(before.get("outbox", ())) >= RELAY_AT:
            self._relay.run(wait=False)
        if tokens is None:
            return
        version = before["tokens_version"] + 1
        behind = before["stories_version"] != before["tokens_version"]
        if behind or before["search_tokens"] != tokens:
            copy_author_tokens(self._stories, {"author_id": user_id}, tokens, version)
        self._users.update_one(
            {"_id": user_id, "tokens_version": version}, {"$set": {"stories_version": version}}
        )

    def find(self, offset: int, limit: int) -> list[UserRecord]:
        order = [("username_key", ASCENDING), ("_id", ASCENDING)]
        return USER.page(self._users, {}, order, offset, limit)

    def count(self) -> int:
        return int(self._users.count_documents({}))


class MongoApplications(ApplicationRepository):
    """Applications, found by name or by the digest of their api key."""

    def __init__(self, collections: Collections) -> None:
        self._apps = collections.apps

    def _refused(
        self, app_id: str, name: str | None, *, adding: bool
    ) -> AbstractContextManager[None]:
        """Translates a unique index's refusal: the name when another application has it, the
        id when an added one's is stored, else the key digest."""
        others = [("app.name", {"name": name, "_id": {"$ne": app_id}})] if name is not None else []
        others += [("app.id", {"_id": app_id})] if adding else []
        return refused(self._apps, "app.key_digest", *others)

    def add(self, app: AppRecord) -> None:
        with self._refused(app.id, app.name, adding=True):
            self._apps.insert_one(document(app))

    def get(self, app_id: str) -> AppRecord | None:
        return APP.one(self._apps, {"_id": app_id})

    def get_by_key_digest(self, key_digest: str) -> AppRecord | None:
        return APP.one(self._apps, {"key_digest": key_digest})

    def get_by_name(self, name: str) -> AppRecord | None:
        return APP.one(self._apps, {"name": name})

    def update(self, app_id: str, changes: Mapping[str, Any]) -> None:
        with self._refused(app_id, changes.get("name"), adding=False):
            done = self._apps.update_one({"_id": app_id}, {"$set": fields_of(AppRecord, changes)})
        if done.matched_count == 0:
            raise Missing("app")

    def find(self, offset: int, limit: int) -> list[AppRecord]:
        return APP.page(self._apps, {}, [("name", ASCENDING), ("_id", ASCENDING)], offset, limit)


class MongoTokens(TokenRepository):
    """User tokens, keyed by the digest of the token."""

    def __init__(self, collections: Collections) -> None:
        self._tokens = collections.tokens

    def add(self, token: TokenRecord) -> None:
        with refused(self._tokens, "token.digest"):
            self._tokens.insert_one(document(token, key="digest"))

    def get(self, digest: str) -> TokenRecord | None:
        return TOKEN.one(self._tokens, {"_id": digest})

    def remove(self, digest: str) -> bool:
        return self._tokens.delete_one({"_id": digest}).deleted_count > 0

    def remove_expired(self, now: str) -> int:
        return self._tokens.delete_many({"expires": {"$lte": now}}).deleted_count

    def remove_others_of_user(self, user_id: str, keep: str | None) -> int:
        ended = {"user_id": user_id, "_id": {"$ne": keep or ""}}
        return self._tokens.delete_many(ended).deleted_count


class MongoIdentities(IdentityRepository):
    """Identity links, unique per (provider, external id)."""

    def __init__(self, collections: Collections) -> None:
        self._identities, self._users = collections.identities, collections.users
        self._events, self._relay = collections.events, Relay(collections)

    def get(self, provider: str, external_id: str) -> str | None:
        found = self._identities.find_one(
            {"provider": provider, "external_id": external_id}, {"user_id": 1}
        )
        return None if found is None else str(found["user_id"])

    def add_user(
        self,
        provider: str,
        external_id: str,
        user: UserRecord,
        *,
        events: Sequence[Event] = (),
    ) -> None:
        identity = {"provider": provider, "external_id": external_id}
        if self._identities.find_one(identity, {"_id": 1}) is not None:
            raise DuplicateKey("identity")
        _insert_user(self._users, user, events)
        try:
            with refused(self._identities, "identity"):
                self._identities.insert_one({**identity, "user_id": user.id})
        except DuplicateKey:  # linked meanwhile: the user goes again
            self._unmade(user.id, [event.id for event in events])
            raise

    def _unmade(self, user_id: str, event_ids: list[str]) -> None:
        """Delete the user just inserted, with its events (``event_ids``), unless a relay
        logged them meanwhile: then the user stays, unlinked, as after a crash, with its
        events. The relay's lease is held meanwhile, so none logs them while this looks; when
        another process holds it past the wait, the user stays too."""
        if not event_ids:
            self._users.delete_one({"_id": user_id})
            return
        with self._relay.holding(wait=True) as owner:
            if owner is None or self._events.find_one({"_id": {"$in": event_ids}}, {"_id": 1}):
                return
            self._users.delete_one({"_id": user_id, "outbox.id": {"$all": event_ids}})
