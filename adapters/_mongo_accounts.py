"""Users, applications, tokens and identities on MongoDB.

Two changes touch several documents, without a transaction:

- ``UserRepository.replace``: the user (and the version of its search tokens, in the same
  update), then its stories' copies of those tokens, then the mark that every story has them.
  A crash before the mark leaves stories with the older tokens; the next replace of the user
  sees the mark missing and copies the tokens again.
- ``IdentityRepository.add_user``: the user, then the link to it, so a link never names a
  missing user. When the link is refused (linked meanwhile), the user is deleted again; a
  crash in between leaves a user without a link, which nothing refers to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pymongo import ASCENDING, ReturnDocument
from pymongo.collection import Collection
from pymongo.errors import DuplicateKeyError

from storycore.errors import DuplicateKey, Missing
from storycore.heads import ProfileFields
from storycore.ports import (
    ApplicationRepository,
    IdentityRepository,
    TokenRepository,
    UserRepository,
)
from storycore.records import AppRecord, TokenRecord, UserRecord
from storycore.usernames import username_key

from ._mongo_documents import (
    APP,
    PROFILE,
    TOKEN,
    USER,
    Document,
    app_document,
    app_record,
    profile_fields,
    token_document,
    token_record,
    user_document,
    user_members,
    user_record,
)
from ._mongo_schema import Collections
from ._mongo_search import copy_author_tokens

__all__ = ["MongoApplications", "MongoIdentities", "MongoTokens", "MongoUsers", "insert_user"]


def _username_taken() -> DuplicateKey:
    return DuplicateKey("user.username")


def insert_user(users: Collection[Document], user: UserRecord) -> None:
    """Insert ``user``; a taken username is a 400, a taken id a conflict."""
    try:
        users.insert_one(user_document(user))
    except DuplicateKeyError as exc:
        if users.find_one({"_id": user.id}, {"_id": 1}) is not None:
            raise DuplicateKey("user.id") from exc
        raise _username_taken() from exc


class MongoUsers(UserRepository):
    """Users; ``username_key`` (lowercase, unique) makes usernames unique regardless of case."""

    def __init__(self, collections: Collections) -> None:
        self._users = collections.users
        self._stories = collections.stories

    def add(self, user: UserRecord) -> None:
        insert_user(self._users, user)

    def get(self, user_id: str) -> UserRecord | None:
        found = self._users.find_one({"_id": user_id}, USER)
        return user_record(found) if found else None

    def get_by_username(self, username: str) -> UserRecord | None:
        found = self._users.find_one({"username_key": username_key(username)}, USER)
        return user_record(found) if found else None

    def get_many(self, user_ids: Iterable[str]) -> dict[str, UserRecord]:
        ids = list(set(user_ids))
        if not ids:
            return {}
        users = (user_record(found) for found in self._users.find({"_id": {"$in": ids}}, USER))
        return {user.id: user for user in users}

    def profiles(self, user_ids: Iterable[str]) -> dict[str, ProfileFields]:
        ids = list(set(user_ids))
        if not ids:
            return {}
        found = self._users.find({"_id": {"$in": ids}}, PROFILE)
        return {document["_id"]: profile_fields(document) for document in found}

    def replace(self, user: UserRecord) -> None:
        try:
            self._set(user.id, user_members(user))
        except DuplicateKeyError as exc:
            raise _username_taken() from exc

    def update(self, user_id: str, changes: Mapping[str, Any]) -> None:
        self._set(user_id, dict(changes))

    def _set(self, user_id: str, members: Document) -> None:
        """Set ``members`` of the user in one update; when they hold ``search_tokens``, then
        copy those to the user's stories and mark them copied (see the module docstring).
        """
        tokens = members.get("search_tokens")
        change: Document = {"$set": members}
        if tokens is not None:
            change["$inc"] = {"tokens_version": 1}
        before = self._users.find_one_and_update(
            {"_id": user_id},
            change,
            projection={"search_tokens": 1, "tokens_version": 1, "stories_version": 1},
            return_document=ReturnDocument.BEFORE,
        )
        if before is None:
            raise Missing("user")
        if tokens is None:
            return
        version = before["tokens_version"] + 1
        behind = before["stories_version"] != before["tokens_version"]
        if behind or before["search_tokens"] != tokens:
            copy_author_tokens(self._stories, user_id, tokens, version)
        self._users.update_one(
            {"_id": user_id, "tokens_version": version}, {"$set": {"stories_version": version}}
        )

    def find(self, offset: int, limit: int) -> list[UserRecord]:
        if limit <= 0:
            return []
        found = self._users.find(
            {},
            USER,
            sort=[("username_key", ASCENDING), ("_id", ASCENDING)],
            skip=offset,
            limit=limit,
        )
        return [user_record(document) for document in found]


class MongoApplications(ApplicationRepository):
    """Applications, found by the digest of their api key."""

    def __init__(self, collections: Collections) -> None:
        self._apps = collections.apps

    def _refused(self, app_id: str, name: str | None, *, adding: bool) -> DuplicateKey:
        """The key of an application that a unique index refused."""
        taken = {"name": name, "_id": {"$ne": app_id}}
        if name is not None and self._apps.find_one(taken, {"_id": 1}):
            return DuplicateKey("app.name")
        if adding and self._apps.find_one({"_id": app_id}, {"_id": 1}) is not None:
            return DuplicateKey("app.id")
        return DuplicateKey("app.key_digest")

    def add(self, app: AppRecord) -> None:
        try:
            self._apps.insert_one(app_document(app))
        except DuplicateKeyError as exc:
            raise self._refused(app.id, app.name, adding=True) from exc

    def _one(self, selector: Document) -> AppRecord | None:
        found = self._apps.find_one(selector, APP)
        return app_record(found) if found else None

    def get(self, app_id: str) -> AppRecord | None:
        return self._one({"_id": app_id})

    def get_by_key_digest(self, key_digest: str) -> AppRecord | None:
        return self._one({"key_digest": key_digest})

    def get_by_name(self, name: str) -> AppRecord | None:
        return self._one({"name": name})

    def replace(self, app: AppRecord) -> None:
        try:
            done = self._apps.replace_one({"_id": app.id}, app_document(app))
        except DuplicateKeyError as exc:
            raise self._refused(app.id, app.name, adding=False) from exc
        if done.matched_count == 0:
            raise Missing("app")

    def update(self, app_id: str, changes: Mapping[str, Any]) -> None:
        try:
            done = self._apps.update_one({"_id": app_id}, {"$set": dict(changes)})
        except DuplicateKeyError as exc:
            raise self._refused(app_id, changes.get("name"), adding=False) from exc
        if done.matched_count == 0:
            raise Missing("app")

    def find(self, offset: int, limit: int) -> list[AppRecord]:
        if limit <= 0:
            return []
        found = self._apps.find(
            {}, APP, sort=[("name", ASCENDING), ("_id", ASCENDING)], skip=offset, limit=limit
        )
        return [app_record(document) for document in found]


class MongoTokens(TokenRepository):
    """User tokens, keyed by the digest of the token."""

    def __init__(self, collections: Collections) -> None:
        self._tokens = collections.tokens

    def add(self, token: TokenRecord) -> None:
        try:
            self._tokens.insert_one(token_document(token))
        except DuplicateKeyError as exc:
            raise DuplicateKey("token.digest") from exc

    def get(self, digest: str) -> TokenRecord | None:
        found = self._tokens.find_one({"_id": digest}, TOKEN)
        return token_record(found) if found else None

    def remove_expired(self, now: str) -> int:
        return self._tokens.delete_many({"expires": {"$lte": now}}).deleted_count


class MongoIdentities(IdentityRepository):
    """Identity links, unique per (provider, external id)."""

    def __init__(self, collections: Collections) -> None:
        self._identities = collections.identities
        self._users = collections.users

    def get(self, provider: str, external_id: str) -> str | None:
        found = self._identities.find_one(
            {"provider": provider, "external_id": external_id}, {"user_id": 1}
        )
        return None if found is None else str(found["user_id"])

    def add_user(self, provider: str, external_id: str, user: UserRecord) -> None:
        identity = {"provider": provider, "external_id": external_id}
        if self._identities.find_one(identity, {"_id": 1}) is not None:
            raise DuplicateKey("identity")
        insert_user(self._users, user)
        try:
            self._identities.insert_one({**identity, "user_id": user.id})
        except DuplicateKeyError as exc:  # linked meanwhile: the user goes again
            self._users.delete_one({"_id": user.id})
            raise DuplicateKey("identity") from exc
