"""The shapes of docs/api.md#shapes, exactly: key sets, ``null`` versus ``""``, timestamps.

These are what the service returns and what the HTTP layer serializes. Names follow the
interface (``canEdit``, ``_access``), not Python habits, so a dump is the wire format.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.json_schema import SkipJsonSchema

from .element_kinds import ELEMENT_CLASSES, AnyElement
from .kept import NOTHING_KEPT, KeptPictures
from .records import CoverPhoto, CreatedWith, Element, EmbedCount, Quoted, Status, UserSettings

# N815: the interface's mixed-case names are kept as they are.
# ruff: noqa: N815

__all__ = [
    "KEPT_ELEMENT_CLASSES",
    "AuthorDates",
    "AuthorFull",
    "AuthorStatsShape",
    "DelegatedCreated",
    "DeliveryItem",
    "Kept",
    "KeptCopyShape",
    "Page",
    "RevisionItem",
    "Revoked",
    "SearchItem",
    "SlugChanged",
    "StoryCreated",
    "StoryDates",
    "StoryDeleted",
    "StoryDetail",
    "StoryFull",
    "StoryMeta",
    "StoryStats",
    "StorySummary",
    "TokenGrant",
    "UserProfile",
    "WebhookCreated",
    "WebhookRemoved",
    "WebhookShape",
]

T = TypeVar("T")


class _Shape(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, serialize_by_alias=True)

    def to_json_dict(self) -> dict[str, Any]:
        """The shape as JSON-ready data, with the interface's key names."""
        return self.model_dump(mode="json", by_alias=True)


class KeptCopyShape(_Shape):
    """The copy storycore keeps of a picture an answer shows (docs/api.md#kept-pictures):
    its address on the web host, and its width and height in pixels."""

    url: str
    width: int
    height: int


#: An answer's ``kept``: the kept copy of each picture it shows, by the path of the member
#: that holds the picture's source address (``thumbnail``, ``avatar``, ``data.image.src``, ...).
Kept = dict[str, KeptCopyShape]


def _absent(value: object) -> bool:
    return value is None


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def _kept() -> Any:
    """The ``kept`` member of a shape: absent while none of its pictures is kept."""
    return Field(
        default=None,
        exclude_if=_absent,
        json_schema_extra=_no_default,
        description=(
            "The copies storycore keeps of the pictures this object shows, by the path of the "
            "member holding each picture's source address; absent while none is kept."
        ),
    )


class UserProfile(_Shape):
    """User profile, public shape (2.2)."""

    username: str
    name: str
    bio: str
    location: str
    website: str
    avatar: str
    kept: Kept | SkipJsonSchema[None] = _kept()


class TokenGrant(UserProfile):
    """The answer of ``POST /v1/auth``: the profile plus a fresh ``_token``."""

    token: str = Field(alias="_token")


class Revoked(_Shape):
    """The answer of ``POST /v1/auth/revoke`` (docs/api.md#credentials)."""

    revoked: Literal[True] = True


class StoryCreated(_Shape):
    """The create result: the story summary without ``author`` (2.3)."""

    id: str
    title: str
    slug: str
    description: str
    thumbnail: str
    created: str
    updated: str
    status: Status
    private: bool


class StorySummary(StoryCreated):
    """Story summary, as in list items (2.3)."""

    author: UserProfile


class StoryDetail(StorySummary):
    """Story detail with one page of its elements (2.4), and what a save needs (docs/decisions.md):
    the ``version`` to send back, and where the story lives."""

    version: int
    permalink: str
    shortlink: str
    #: when a working story is to be published (docs/api.md#scheduled-publishing), else null: only
    #: its
    #: author and editors see a working story, so only they ever see a time here
    publish_at: str | None
    page: int
    per_page: int
    elements: list[Element]
    kept: Kept | SkipJsonSchema[None] = _kept()


def _with_kept(kind: type[AnyElement]) -> type[AnyElement]:
    """``kind`` with a ``kept`` member."""
    return cast(
        "type[AnyElement]",
        create_model(kind.__name__, __base__=kind, __module__=__name__, kept=(Kept, ...)),
    )


#: Each kind of element as an answer shows it once a picture it shows is kept: its members and
#: ``kept``. Answers only: a client's ``kept`` is no member of an element it writes.
KEPT_ELEMENT_CLASSES = {name: _with_kept(kind) for name, kind in ELEMENT_CLASSES.items()}


class RevisionItem(_Shape):
    """A revision in the list of a story's revisions (docs/api.md#revisions): the version the
    story had, when it was replaced and by whom (a username), its title, status and how many
    elements it held."""

    version: int
    replaced: str
    by: str
    title: str
    status: Status
    elements: int


class StoryDates(_Shape):
    """``date`` of the full shape."""

    created: str
    modified: str
    published: str | None


class StoryMeta(_Shape):
    """``meta`` of the full shape."""

    quoted: list[Quoted]
    hashtags: list[str]
    created_with: CreatedWith


class StoryStats(_Shape):
    """``stats`` of the full shape."""

    popularity: int
    views: int
    likes: int
    comments: int
    elementComments: int
    embeds: list[EmbedCount]
    elements: dict[str, int]


class StoryFull(_Shape):
    """Story, full shape (2.5), without the members that only some results carry."""

    sid: str
    title: str
    slug: str
    status: Status
    version: int
    permalink: str
    shortlink: str
    publish_at: str | None
    description: str | None
    thumbnail: str
    date: StoryDates
    private: bool
    topics: list[str]
    siteposts: list[Any]
    meta: StoryMeta
    stats: StoryStats
    modified: bool
    deleted: bool
    kept: Kept | SkipJsonSchema[None] = _kept()


class AuthorStatsShape(_Shape):
    """``stats`` of the full author shape."""

    views: int
    subscriptions: int
    subscribers: int
    stories: int
    embeds: int


class AuthorDates(_Shape):
    """``date`` of the full author shape."""

    updated: str
    last_story: str | None
    last_seen: str | None
    last_email: str | None
    featured: str | None
    created: str


class AuthorFull(_Shape):
    """Author, full shape (2.6)."""

    username: str
    access: int = Field(alias="_access")
    name: str
    bio: str
    location: str
    website: str
    avatar: str
    permalink: str
    lang: str
    settings: UserSettings
    stats: AuthorStatsShape
    date: AuthorDates
    coverPhoto: CoverPhoto
    canFeatureStories: bool
    featuredStories: list[str]
    kept: Kept | SkipJsonSchema[None] = _kept()


class SearchItem(StoryFull):
    """A search result: the full shape with the full author and ``canEdit``."""

    author: AuthorFull
    canEdit: bool


class SlugChanged(StoryFull):
    """The slug-change result: the full shape with ``not_indexed``."""

    not_indexed: bool


class DelegatedCreated(_Shape):
    """The answer of delegated creation."""

    sid: str
    permalink: str
    shortlink: str


class StoryDeleted(_Shape):
    """The delete result."""

    sid: str
    deleted: bool


class Page(_Shape, Generic[T]):
    """One page of a list. ``has_next`` tells whether a further page exists; ``total`` is the
    number of items on every page, counted only when asked (docs/decisions.md). ``kept``
    holds the kept copies of the pictures its items show, for the pages that draw them
    (docs/media.md#where-kept-pictures-show); it is no member of an answer."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    page: int
    per_page: int
    items: list[T]
    has_next: bool
    total: int | None = None
    kept: KeptPictures = Field(default=NOTHING_KEPT, exclude=True)


class WebhookShape(_Shape):
    """A webhook (docs/webhooks.md): where its events go, which, and whether it is
    disabled (the time its deliveries had failed for 5 days in a row, or null). ``failing``
    is the time of its first failed attempt since its last success, or null. ``private``: it
    is told of private and working stories in full, where others get their summary."""

    id: str
    url: str
    events: list[str]
    private: bool
    created: str
    failing: str | None
    disabled: str | None


class WebhookCreated(WebhookShape):
    """A new webhook, with its signing secret: shown this once, never again."""

    secret: str


class DeliveryItem(_Shape):
    """One event's delivery to a webhook, in its list (newest first): the event, its type,
    ``pending``, ``delivered`` or ``failed``, the attempts made, the last answer's status (null
    when none came: refused, dropped, too slow) and what went wrong, and when the next attempt
    is due (null once delivered or failed)."""

    event: str
    type: str
    created: str
    state: str
    attempts: int
    last_status: int | None
    last_error: str | None
    last_attempt: str | None
    next_attempt: str | None


class WebhookRemoved(_Shape):
    """The answer to a webhook's removal."""

    id: str
    deleted: bool
