"""How stored records become the shapes of the interface.

The addresses in them (permalinks, shortlinks, kept pictures' files) come from
``storycore.rules.permalinks``. An element, a story's detail and full shapes and a user's every
shape that show a picture storycore keeps gain ``kept`` (docs/api.md#kept-pictures), made here
from what the answer's one lookup found (``KeptPictures``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel

from ..model.documents import Document, shape_of
from ..model.heads import ProfileFields, StoryHead
from ..model.kept import NOTHING_KEPT, KeptPictures
from ..model.records import AuthorStats, Element, EmbedCount, Stored, StoryRecord, UserRecord
from ..model.revisions import RevisionHead
from ..model.shapes import (
    KEPT_ELEMENT_CLASSES,
    AuthorFull,
    Kept,
    KeptCopyShape,
    RevisionItem,
    SearchItem,
    SlugChanged,
    StoryCreated,
    StoryDetail,
    StoryFull,
    StorySummary,
    UserProfile,
)
from ..model.shown_pictures import Shown, element_shown, story_shown, user_shown
from ..model.trusted import construct_trusted
from ..rules.permalinks import Permalinks
from ..rules.sites import site_name_of

__all__ = ["Presenter"]

S = TypeVar("S", bound=BaseModel)
T = TypeVar("T")


def _trusted(shape: type[S], members: Mapping[str, Any]) -> S:
    """``shape`` from members computed from stored records, which were validated when they
    were written: validating them again on every read would only cost time.
    """
    return construct_trusted(shape, dict(members))


class Presenter:
    """Builds shapes for one ``web_url``, the address of the site named ``site_name``
    (``Settings.site_name``; None names it by the address's host)."""

    def __init__(self, web_url: str, site_name: str | None = None) -> None:
        self.addresses = Permalinks.of(web_url)
        self.web_url = self.addresses.web_url
        self.site_name = site_name_of(self.web_url, site_name)
        self.permalink = self.addresses.story
        self.shortlink = self.addresses.shortlink

    def kept(self, shown: Iterable[Shown], kept: KeptPictures) -> Kept | None:
        """The ``kept`` member of an object showing the pictures ``shown`` (path, address):
        the kept copy of each of them that ``kept`` holds, its file's address and size; None
        (no member) while none is kept."""
        found = self._kept_members(shown, kept)
        if found is None:
            return None
        return {path: construct_trusted(KeptCopyShape, copy) for path, copy in found.items()}

    def _kept_members(
        self, shown: Iterable[Shown], kept: KeptPictures
    ) -> dict[str, dict[str, Any]] | None:
        if not kept:
            return None
        found: dict[str, dict[str, Any]] = {}
        for path, address in shown:
            copy = kept.original(address)
            if copy is not None:
                found[path] = {"url": self.addresses.media(copy.file_name), "width": copy.width,
                               "height": copy.height}  # fmt: skip
        return found or None

    def element(self, element: Element, kept: KeptPictures = NOTHING_KEPT) -> Element:
        """``element`` as an answer shows it: with ``kept`` when a picture it shows is kept."""
        member = self.kept(element_shown(element), kept) if kept else None
        if member is None:
            return element
        kind = KEPT_ELEMENT_CLASSES[element.type]
        return construct_trusted(kind, {**element.__dict__, "kept": member})

    def element_document(
        self, document: str, shown: Iterable[Shown], kept: KeptPictures = NOTHING_KEPT
    ) -> str:
        """A stored element document showing the pictures ``shown`` (``element_shown`` of
        it), as an answer shows it: as it is, or with ``kept`` added last when a picture it
        shows is kept."""
        member = self._kept_members(shown, kept)
        if member is None:
            return document
        added = orjson.dumps(member).decode()
        return f'{document.rstrip().removesuffix("}")},"kept":{added}}}'

    def profile(
        self, user: UserRecord | ProfileFields, kept: KeptPictures = NOTHING_KEPT
    ) -> UserProfile:
        """User profile, public shape."""
        return shape_of(UserProfile, self.profile_document(user, kept))

    def profile_document(
        self, user: UserRecord | ProfileFields, kept: KeptPictures = NOTHING_KEPT
    ) -> Document:
        """``profile`` as a document."""
        document: Document = {
            "username": user.username,
            "name": user.name,
            "bio": user.bio,
            "location": user.location,
            "website": user.website,
            "avatar": user.avatar,
        }
        return self._with_kept(document, kept, user_shown, user)

    def _with_kept(
        self, document: Document, kept: KeptPictures, shown: Callable[[T], Iterable[Shown]], of: T
    ) -> Document:
        """``document`` ending with ``kept`` when a picture it shows (``shown`` of ``of``, found
        only when something is kept) is kept."""
        found = self._kept_members(shown(of), kept) if kept else None
        if found is not None:
            document["kept"] = found
        return document

    @staticmethod
    def _summary_members(story: StoryRecord | StoryHead) -> Document:
        return {
            "id": story.id,
            "title": story.title,
            "slug": story.slug,
            "description": story.description or "",
            "thumbnail": story.thumbnail or story.cover,
            "created": story.created,
            "updated": story.updated,
            "status": story.status,
            "private": story.private,
        }

    def created(self, story: StoryRecord) -> StoryCreated:
        """The create result."""
        return _trusted(StoryCreated, self._summary_members(story))

    def summary(
        self,
        story: StoryRecord | StoryHead,
        author: UserRecord | ProfileFields,
        kept: KeptPictures = NOTHING_KEPT,
    ) -> StorySummary:
        """A list item (its author's profile with ``kept``)."""
        return shape_of(StorySummary, self.summary_document(story, author, kept))

    def summary_document(
        self,
        story: StoryRecord | StoryHead,
        author: UserRecord | ProfileFields,
        kept: KeptPictures = NOTHING_KEPT,
    ) -> Document:
        """``summary`` as a document."""
        document = self._summary_members(story)
        document["author"] = self.profile_document(author, kept)
        return document

    def detail(
        self,
        story: StoryRecord,
        author: UserRecord,
        *,
        page: int,
        per_page: int,
        elements: Sequence[Element],
        lives_at: str | None = None,
        kept: KeptPictures = NOTHING_KEPT,
    ) -> StoryDetail:
        """A story with one page of its elements; ``lives_at`` is the slug the story lives at
        when it is not ``story.slug`` (a revision's detail shows the slug it had). ``kept``
        holds the kept copies of the pictures it shows."""
        return _trusted(
            StoryDetail,
            {
                **self._summary_members(story),
                "author": self.profile(author, kept),
                "version": story.version,
                "permalink": self.permalink(author.username, lives_at or story.slug),
                "shortlink": self.shortlink(story.id),
                "publish_at": story.publish_at,
                "page": page,
                "per_page": per_page,
                "elements": [self.element(element, kept) for element in elements]
                if kept
                else list(elements),
                "kept": self.kept(story_shown(story), kept) if kept else None,
            },
        )

    def _full_document(
        self,
        story: Stored,
        username: str,
        embeds: Sequence[EmbedCount],
        kept: KeptPictures = NOTHING_KEPT,
    ) -> Document:
        """The members of the full shape (``StoryFull``) of a story (its record's members:
        ``Stored``), as a document."""
        document: Document = {
            "sid": story["id"],
            "title": story["title"],
            "slug": story["slug"],
            "status": story["status"],
            "version": story["version"],
            "permalink": self.permalink(username, story["slug"]),
            "shortlink": self.shortlink(story["id"]),
            "publish_at": story["publish_at"],
            "description": story["description"],
            "thumbnail": story["thumbnail"] or story["cover"],
            "date": {
                "created": story["created"],
                "modified": story["updated"],
                "published": story["published"],
            },
            "private": story["private"],
            "topics": story["topics"],
            "siteposts": [],
            "meta": {
                "quoted": story["quoted"],
                "hashtags": story["tags"],
                "created_with": story["created_with"],
            },
            "stats": {
                "popularity": story["popularity"],
                "views": story["views"],
                "likes": story["likes"],
                "comments": story["comments"],
                "elementComments": story["element_comments"],
                "embeds": list(embeds),
                "elements": story["element_counts"],
            },
            "modified": story["modified"],
            "deleted": False,
        }
        return self._with_kept(document, kept, story_shown, story)

    def author_full(
        self, user: UserRecord, stats: AuthorStats, kept: KeptPictures = NOTHING_KEPT
    ) -> AuthorFull:
        """The full author shape. ``_access`` is 1 for editors and 0 otherwise."""
        return shape_of(AuthorFull, self.author_full_document(user.__dict__, stats, kept))

    def author_full_document(
        self, user: Stored, stats: AuthorStats, kept: KeptPictures = NOTHING_KEPT
    ) -> Document:
        """``author_full`` of a user's record's members (``Stored``), as a document."""
        document: Document = {
            "username": user["username"],
            "_access": 1 if user["editor"] else 0,
            "name": user["name"],
            "bio": user["bio"],
            "location": user["location"],
            "website": user["website"],
            "avatar": user["avatar"],
            "permalink": self.addresses.author(user["username"]),
            "lang": user["lang"],
            "settings": user["settings"],
            "stats": {
                "views": stats.views,
                "subscriptions": 0,
                "subscribers": 0,
                "stories": stats.stories,
                "embeds": stats.embeds,
            },
            "date": {
                "updated": user["updated"],
                "last_story": stats.last_story,
                "last_seen": user["last_seen"],
                "last_email": None,
                "featured": stats.featured,
                "created": user["created"],
            },
            "coverPhoto": user["cover_photo"],
            "canFeatureStories": user["can_feature"],
            "featuredStories": stats.featured_stories,
        }
        return self._with_kept(document, kept, user_shown, user)

    def search_item(
        self,
        story: StoryRecord,
        author: UserRecord,
        stats: AuthorStats,
        embeds: Sequence[EmbedCount],
        *,
        can_edit: bool,
        kept: KeptPictures = NOTHING_KEPT,
    ) -> SearchItem:
        """A search result; ``kept`` holds the kept copies of the pictures it shows."""
        document = self.search_document(
            story.__dict__, author.__dict__, stats, embeds, can_edit=can_edit, kept=kept
        )
        return shape_of(SearchItem, document)

    def search_document(
        self,
        story: Stored,
        author: Stored,
        stats: AuthorStats,
        embeds: Sequence[EmbedCount],
        *,
        can_edit: bool,
        kept: KeptPictures = NOTHING_KEPT,
    ) -> Document:
        """``search_item`` of a story's and its author's records' members (``Stored``), as a
        document."""
        document = self._full_document(story, author["username"], embeds, kept)
        document["author"] = self.author_full_document(author, stats, kept)
        document["canEdit"] = can_edit
        return document

    @staticmethod
    def revision_item(head: RevisionHead, by: str) -> RevisionItem:
        """A revision in a list; ``by`` is the username of who replaced it."""
        return _trusted(
            RevisionItem,
            {
                "version": head.version,
                "replaced": head.replaced,
                "by": by,
                "title": head.title,
                "status": head.status,
                "elements": head.elements,
            },
        )

    def full(
        self, story: StoryRecord, username: str, embeds: Sequence[EmbedCount] = ()
    ) -> StoryFull:
        """The full shape of a story by ``username`` (what an event reports)."""
        return shape_of(StoryFull, self._full_document(story.__dict__, username, embeds))

    def slug_changed(
        self,
        story: StoryRecord,
        author: UserRecord,
        embeds: Sequence[EmbedCount],
        kept: KeptPictures = NOTHING_KEPT,
    ) -> SlugChanged:
        """The slug-change result."""
        document = self._full_document(story.__dict__, author.username, embeds, kept)
        document["not_indexed"] = story.not_indexed
        return shape_of(SlugChanged, document)
