"""What storage holds: the records behind every shape of the interface.

Records are written by the service after validation, so adapters may rebuild them from their
own rows with ``model_construct`` and skip validating them again.
"""

from __future__ import annotations

from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field

from .element_kinds import (
    ELEMENT_CLASSES,
    ELEMENT_TYPES,
    Attribution,
    Element,
    ElementType,
    Source,
)
from .trusted import construct_trusted, filled

__all__ = [
    "ELEMENT_TYPES",
    "AppRecord",
    "Attribution",
    "AuthorStats",
    "CoverPhoto",
    "CreatedWith",
    "Element",
    "ElementType",
    "EmbedCount",
    "Notifications",
    "Plan",
    "Quoted",
    "Source",
    "Status",
    "Stored",
    "StoryRecord",
    "TokenRecord",
    "UserRecord",
    "UserSettings",
    "element_document",
    "element_of",
    "stored_story",
    "stored_user",
    "trusted_element",
    "trusted_story",
    "trusted_user",
]

#: A record's members as JSON-ready data, as its model holds them (``stored_story``,
#: ``stored_user``): what an answer made as a document reads of a record
#: (docs/architecture.md#answers) without a model for it and for each of its nested members.
Stored = dict[str, Any]

Status = Literal["working", "published"]
Plan = Literal["free", "enterprise"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class Quoted(_Record):
    """An author quoted by a story (``meta.quoted``)."""

    username: str
    name: str
    userid: str
    avatar: str
    source: str
    notified_at: str | None = None


class CreatedWith(_Record):
    """The application that created a story (``meta.created_with``)."""

    href: str = ""
    appname: str = ""
    name: str = ""


class EmbedCount(_Record):
    """A page that loaded a story's embed, and how often (``stats.embeds``)."""

    href: str
    views: int


class StoryRecord(_Record):
    """A story as stored. Derived members are computed by the service on every write; its
    search words are derived with them but stored beside it (``StoryRepository.add``), not read
    back."""

    id: str
    author_id: str
    title: str
    slug: str
    description: str | None = None
    thumbnail: str | None = None
    cover: str = ""
    status: Status
    private: bool = False
    version: int = 1
    modified: bool = False
    not_indexed: bool = False
    created: str
    updated: str
    published: str | None = None
    featured_at: str | None = None
    #: When a working story is to be published (docs/api.md#scheduled-publishing), else None.
    publish_at: str | None = None
    topics: list[str] = Field(default_factory=list)
    topic_keys: list[str] = Field(default_factory=list)
    hashtags: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    quoted: list[Quoted] = Field(default_factory=list)
    created_with: CreatedWith = Field(default_factory=CreatedWith)
    element_counts: dict[str, int] = Field(default_factory=dict)
    element_permalinks: list[str] = Field(default_factory=list)
    title_key: str = ""
    views: int = 0
    likes: int = 0
    comments: int = 0
    element_comments: int = 0
    popularity: int = 0

    @property
    def is_public(self) -> bool:
        """Whether the story belongs on public lists: published and not private."""
        return self.status == "published" and not self.private


class Notifications(_Record):
    """Which notifications a user receives."""

    newsletter: bool = True
    digest: bool = True
    likes: bool = True
    comments: bool = True
    follower: bool = True
    quoted: bool = True
    friend_quoted: bool = True
    autoshare: bool = False
    element_comment: bool = True
    element_like: bool = True
    story_comment: bool = True
    story_like: bool = True


class UserSettings(_Record):
    """A user's settings (full author shape)."""

    comments: str = "socialA"
    socialA_autoshare: bool = False  # noqa: N815 - the interface's name
    socialA_quoteimg: bool = True  # noqa: N815
    socialA_post: bool = False  # noqa: N815
    socialB_post: bool = False  # noqa: N815
    notifications: Notifications = Field(default_factory=Notifications)


class CoverPhoto(_Record):
    """A user's cover photo."""

    url: str = ""
    width: int = 0
    height: int = 0


class UserRecord(_Record):
    """A user as stored. ``password_hash`` is None for users made by delegated creation."""

    id: str
    username: str
    name: str = ""
    bio: str = ""
    location: str = ""
    website: str = ""
    avatar: str = ""
    email: str = ""
    password_hash: str | None = None
    plan: Plan = "free"
    editor: bool = False
    can_feature: bool = False
    lang: str = "en"
    settings: UserSettings = Field(default_factory=UserSettings)
    cover_photo: CoverPhoto = Field(default_factory=CoverPhoto)
    created: str
    updated: str
    last_seen: str | None = None
    search_tokens: list[str] = Field(default_factory=list)


class AuthorStats(_Record):
    """Figures about an author's stories, computed by storage in one query per page."""

    stories: int = 0
    views: int = 0
    embeds: int = 0
    last_story: str | None = None
    featured: str | None = None
    featured_stories: list[str] = Field(default_factory=list)


class AppRecord(_Record):
    """An application: it holds an api key (stored as its SHA-256 digest)."""

    id: str
    name: str
    href: str = ""
    key_digest: str
    delegation: bool = False
    created: str


class TokenRecord(_Record):
    """A user token (stored as its SHA-256 digest), bound to one user and one application."""

    digest: str
    user_id: str
    app_id: str
    created: str
    expires: str


def element_document(element: Element) -> str:
    """An element as JSON: the element shape of answers, and the form adapters store."""
    return element.model_dump_json()


def trusted_element(data: dict[str, Any]) -> Element:
    """An element rebuilt from storage without validating it again (it was, when written):
    the class of its ``type``, holding its ``data`` as stored."""
    source, attribution = data.get("source"), data.get("attribution")
    return construct_trusted(
        ELEMENT_CLASSES[data["type"]],
        {
            **data,
            "source": construct_trusted(Source, source) if source else None,
            "attribution": construct_trusted(Attribution, attribution) if attribution else None,
        },
    )


def trusted_story(data: dict[str, Any]) -> StoryRecord:
    """A story rebuilt from storage without validating it again (it was, when written)."""
    return construct_trusted(
        StoryRecord,
        {
            **data,
            "quoted": [construct_trusted(Quoted, q) for q in data.get("quoted", ())],
            "created_with": construct_trusted(CreatedWith, data.get("created_with", {})),
        },
    )


def trusted_user(data: dict[str, Any]) -> UserRecord:
    """A user rebuilt from storage without validating it again (it was, when written)."""
    settings = dict(data.get("settings") or {})
    settings["notifications"] = construct_trusted(Notifications, settings.get("notifications", {}))
    return construct_trusted(
        UserRecord,
        {
            **data,
            "settings": construct_trusted(UserSettings, settings),
            "cover_photo": construct_trusted(CoverPhoto, data.get("cover_photo", {})),
        },
    )


def stored_story(data: dict[str, Any]) -> Stored:
    """A story's stored members (``data``, changed and returned) as ``trusted_story``'s model
    holds them: each member it and its nested members lack set to its default, in the same
    order, so that the JSON of either is the same."""
    data["quoted"] = [filled(Quoted, quoted) for quoted in data.get("quoted", ())]
    data["created_with"] = filled(CreatedWith, data.get("created_with", {}))
    return filled(StoryRecord, data)


def stored_user(data: dict[str, Any]) -> Stored:
    """A user's stored members (``data``, changed and returned) as ``trusted_user``'s model
    holds them (``stored_story``)."""
    settings = dict(data.get("settings") or {})
    settings["notifications"] = filled(Notifications, settings.get("notifications", {}))
    data["settings"] = filled(UserSettings, settings)
    data["cover_photo"] = filled(CoverPhoto, data.get("cover_photo", {}))
    return filled(UserRecord, data)


def element_of(document: str | bytes) -> Element:
    """An element from its stored JSON document (``element_document``), trusted as written."""
    return trusted_element(orjson.loads(document))
