"""What a list reads of stories and authors: the few members a list item shows.

Lists never need whole records. Adapters may read heads straight from storage (the SQLite
adapter does, without decoding records); the ports' defaults derive them from records.
"""

from __future__ import annotations

from typing import NamedTuple

from .records import Status, StoryRecord, UserRecord

__all__ = ["AuthorLatest", "ProfileFields", "StoryAddress", "StoryHead"]


class StoryHead(NamedTuple):
    """A story's summary members (interface 2.3), its author's id and its publication time."""

    id: str
    author_id: str
    title: str
    slug: str
    description: str | None
    thumbnail: str | None
    cover: str
    created: str
    updated: str
    status: Status
    published: str | None  # a feed's entry says when (docs/feeds.md)
    private: bool  # last: SQLite's rows hold it as 0 or 1, which its adapter turns back

    @classmethod
    def of(cls, story: StoryRecord) -> StoryHead:
        """The head of a whole record."""
        return cls(
            story.id,
            story.author_id,
            story.title,
            story.slug,
            story.description,
            story.thumbnail,
            story.cover,
            story.created,
            story.updated,
            story.status,
            story.published,
            story.private,
        )


class ProfileFields(NamedTuple):
    """A user's public profile members (interface 2.2)."""

    username: str
    name: str
    bio: str
    location: str
    website: str
    avatar: str

    @classmethod
    def of(cls, user: UserRecord) -> ProfileFields:
        """The profile members of a whole record."""
        return cls(user.username, user.name, user.bio, user.location, user.website, user.avatar)


class StoryAddress(NamedTuple):
    """What a sitemap names of a story (docs/api.md#crawlers): where it lives and when it last
    changed."""

    author_id: str
    slug: str
    updated: str


class AuthorLatest(NamedTuple):
    """An author of some stories and the latest change among them (``updated``): what a
    sitemap names of an author page."""

    author_id: str
    updated: str
