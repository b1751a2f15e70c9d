"""Records as MongoDB documents, and back.

A record's members are the document's fields, its ``id`` is the ``_id``. Next to them the
adapter keeps a few fields of its own, which reads never return (they read through the
projections below, which name record members only):

- stories: ``public`` (published and not private: what public lists and search filter on),
  ``search_tokens`` (the story's search words), ``search`` (those and its author's tokens,
  for search), ``author_tokens`` and
  ``author_tokens_version`` (the author's tokens copied in, and which version of them),
  ``elements_rev`` and ``element_total`` (the generation of elements the story shows, and
  how many it holds), ``embed_views`` (embed loads over the pages kept, for author figures);
- users: ``username_key`` (the username regardless of case, unique), ``tokens_version`` and
  ``stories_version`` (the version of the user's search tokens, and the newest version that
  every story of the user has been given).
"""

from __future__ import annotations

from typing import Any

from storycore.heads import ProfileFields, StoryHead
from storycore.records import (
    AppRecord,
    Element,
    StoryRecord,
    TokenRecord,
    UserRecord,
    trusted_element,
    trusted_story,
    trusted_user,
)
from storycore.usernames import username_key

__all__ = [
    "APP",
    "HEAD",
    "PROFILE",
    "STORY",
    "TOKEN",
    "USER",
    "Document",
    "app_document",
    "app_record",
    "element_entry",
    "entry_element",
    "profile_fields",
    "story_head",
    "story_members",
    "story_record",
    "token_document",
    "token_record",
    "user_document",
    "user_members",
    "user_record",
]

Document = dict[str, Any]


def _members(model: type[Any], *leave_out: str) -> dict[str, int]:
    """An inclusion projection of a record's members (``id`` comes as ``_id``)."""
    return {name: 1 for name in model.model_fields if name not in {"id", *leave_out}}


STORY = _members(StoryRecord)
USER = _members(UserRecord)
APP = _members(AppRecord)
TOKEN = {name: 1 for name in TokenRecord.model_fields if name != "digest"}
# What lists show of a story and of its author.
HEAD = {name: 1 for name in StoryHead._fields if name != "id"}
PROFILE = {name: 1 for name in ProfileFields._fields}


def story_members(story: StoryRecord) -> Document:
    """The record members of ``story`` as document fields (without its ``_id``)."""
    return story.model_dump(exclude={"id"})


def story_record(document: Document) -> StoryRecord:
    """The story a document read through ``STORY`` holds."""
    document["id"] = document.pop("_id")
    return trusted_story(document)


def story_head(document: Document) -> StoryHead:
    """The head of a story whose document was read through ``HEAD``."""
    return StoryHead._make(
        document["_id"] if name == "id" else document.get(name) for name in StoryHead._fields
    )


def element_entry(story_id: str, rev: str, position: int, element: Element) -> Document:
    """One element of one generation of a story's elements."""
    return {
        "story_id": story_id,
        "rev": rev,
        "position": position,
        "element": element.model_dump(),
    }


def entry_element(document: Document) -> Element:
    """The element an element document holds."""
    return trusted_element(document["element"])


def user_members(user: UserRecord) -> Document:
    """The record members of ``user`` as fields, with its ``username_key`` (no ``_id``)."""
    return {**user.model_dump(exclude={"id"}), "username_key": username_key(user.username)}


def user_document(user: UserRecord) -> Document:
    """A new user's document: its search tokens are version 0, which no story has yet."""
    return {"_id": user.id, **user_members(user), "tokens_version": 0, "stories_version": 0}


def user_record(document: Document) -> UserRecord:
    """The user a document read through ``USER`` holds."""
    document["id"] = document.pop("_id")
    return trusted_user(document)


def profile_fields(document: Document) -> ProfileFields:
    """The profile members of a user whose document was read through ``PROFILE``."""
    return ProfileFields._make(document.get(name, "") for name in ProfileFields._fields)


def app_document(app: AppRecord) -> Document:
    """An application's document."""
    return {"_id": app.id, **app.model_dump(exclude={"id"})}


def app_record(document: Document) -> AppRecord:
    """The application a document read through ``APP`` holds."""
    document["id"] = document.pop("_id")
    return AppRecord.model_validate(document)


def token_document(token: TokenRecord) -> Document:
    """A token's document, keyed by its digest."""
    return {"_id": token.digest, **token.model_dump(exclude={"digest"})}


def token_record(document: Document) -> TokenRecord:
    """The token a document read through ``TOKEN`` holds."""
    document["digest"] = document.pop("_id")
    return TokenRecord.model_validate(document)
