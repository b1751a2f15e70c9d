"""Stories, their aliases, counters and lists on MongoDB.

No write here needs a transaction. Each change of a story is one update of its document, made
conditional on what was read (``version``, ``slug``, the elements' generation and the copied
author tokens' version), so a concurrent change makes it match nothing instead of being
overwritten. The documents around a story are written in an order that never lets a crash
leave a reference to something missing:

- ``add``: the elements' generation, then the story (the slug's uniqueness is decided here),
  then the alias that used to hold the slug is stopped.
- ``replace``: the new elements' generation; the old slug's alias (pointing at the story,
  which still lives there, so it is inert); the story's one conditional update, which switches
  slug, members and elements at once; then aliases of *other* stories at the new slug stop and
  the superseded generation is deleted.
- ``remove``: the story first (gone for every read at once), then its aliases, elements and
  embed counts, which nothing reaches any more.

A crash between two steps leaves only documents that no read reaches: a generation no story
shows, an alias at the live slug of its own story, or aliases, elements and embed counts of a
removed story. ``resolve`` and ``embeds`` check the story behind what they find.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, MutableMapping, Sequence
from typing import Any

from pymongo import ASCENDING, DESCENDING
from pymongo.errors import DuplicateKeyError

from storycore.errors import DuplicateKey, Missing, StaleVersion
from storycore.heads import StoryHead
from storycore.ports import KEPT_BY_REPLACE, AliasRepository, StoryRepository
from storycore.queries import StoryQuery
from storycore.records import AuthorStats, Element, EmbedCount, StoryRecord, element_document

from ._mongo_documents import (
    HEAD,
    STORY,
    Document,
    story_head,
    story_members,
    story_record,
)
from ._mongo_elements import ElementGenerations
from ._mongo_schema import Collections
from ._mongo_search import copy_author_tokens, search_array

__all__ = ["MongoAliases", "MongoStories"]

_SWITCH_ATTEMPTS = 5
_EXPORT_BATCH = 100


class MongoStories(StoryRepository):
    """Stories: one document each, elements apart, kept in step with aliases and embeds."""

    def __init__(self, collections: Collections) -> None:
        self._stories = collections.stories
        self._aliases = collections.aliases
        self._embeds = collections.embeds
        self._users = collections.users
        self._generations = ElementGenerations(collections.elements, collections.stories)

    # -- writes --------------------------------------------------------------------------

    def add(self, story: StoryRecord, elements: Sequence[Element], words: Sequence[str]) -> None:
        tokens, version = self._author_tokens(story.author_id)
        rev = self._generations.write(story.id, elements)
        document = {
            "_id": story.id,
            **story_members(story),
            "public": story.is_public,
            "search_tokens": list(words),
            "search": search_array(words, tokens),
            "author_tokens": tokens,
            "author_tokens_version": version,
            "elements_rev": rev,
            "element_total": len(elements),
            "embed_views": 0,
        }
        try:
            self._stories.insert_one(document)
        except DuplicateKeyError as exc:
            # Refused, so certainly not stored: its generation goes too.
            self._generations.discard(story.id, rev)
            if self._stories.find_one({"_id": story.id}, {"_id": 1}) is not None:
                raise DuplicateKey("story.id") from exc
            raise DuplicateKey("story.slug") from exc
        self._aliases.delete_one({"author_id": story.author_id, "slug": story.slug})
        # The author's tokens may have changed since they were read: copy the newer ones.
        newer, newer_version = self._author_tokens(story.author_id)
        if newer_version != version:
            copy_author_tokens(
                self._stories, story.author_id, newer, newer_version, story_id=story.id
            )

    def _author_tokens(self, author_id: str) -> tuple[list[str], int]:
        user = self._users.find_one({"_id": author_id}, {"search_tokens": 1, "tokens_version": 1})
        if user is None:
            return [], 0
        return list(user.get("search_tokens", [])), int(user.get("tokens_version", 0))

    def replace(
        self,
        story: StoryRecord,
        *,
        expected_version: int,
        elements: Sequence[Element] | None = None,
        words: Sequence[str] | None = None,
    ) -> None:
        rev = None if elements is None else self._generations.write(story.id, elements)
        try:
            old_slug, old_rev = self._switch(
                story, expected_version, rev, None if elements is None else len(elements), words
            )
        except (Missing, StaleVersion, DuplicateKey):
            # Refused, so the story never showed the new generation.
            if rev is not None:
                self._generations.discard(story.id, rev)
            raise
        if old_slug != story.slug:
            self._aliases.delete_many(
                {"author_id": story.author_id, "slug": story.slug, "story_id": {"$ne": story.id}}
            )
        if rev is not None:
            self._generations.discard(story.id, old_rev)

    def _switch(
        self,
        story: StoryRecord,
        expected_version: int,
        rev: str | None,
        total: int | None,
        words: Sequence[str] | None,
    ) -> tuple[str, str]:
        """Update the story document in one conditional write; its old slug and generation."""
        fields = {
            name: value
            for name, value in story_members(story).items()
            if name not in KEPT_BY_REPLACE
        }
        fields["public"] = story.is_public
        if rev is not None:
            fields["elements_rev"] = rev
            fields["element_total"] = total
        if words is not None:
            fields["search_tokens"] = list(words)
        for _ in range(_SWITCH_ATTEMPTS):
            current = self._stories.find_one(
                {"_id": story.id},
                {
                    "version": 1,
                    "slug": 1,
                    "elements_rev": 1,
                    "author_tokens": 1,
                    "author_tokens_version": 1,
                },
            )
            if current is None:
                raise Missing("story")
            if current["version"] != expected_version:
                raise StaleVersion(current["version"])
            old_slug: str = current["slug"]
            if old_slug != story.slug:
                self._check_slug_free(story)
                self._retire(story.author_id, old_slug, story.id)
            if words is not None:
                fields["search"] = search_array(words, current["author_tokens"])
            try:
                done = self._stories.update_one(
                    {
                        "_id": story.id,
                        "version": expected_version,
                        "slug": old_slug,
                        "elements_rev": current["elements_rev"],
                        "author_tokens_version": current["author_tokens_version"],
                    },
                    {"$set": fields},
                )
            except DuplicateKeyError as exc:
                raise DuplicateKey("story.slug") from exc
            if done.matched_count == 1:
                return old_slug, current["elements_rev"]
            # Something else changed the story since it was read: read it again.
        raise StaleVersion()  # it kept changing

    def _check_slug_free(self, story: StoryRecord) -> None:
        """``DuplicateKey`` when another live story of the author is at ``story.slug`` (the unique
        index decides races; this spares them the inert alias a refused move would leave).
        """
        taken = self._stories.find_one(
            {"author_id": story.author_id, "slug": story.slug, "_id": {"$ne": story.id}},
            {"_id": 1},
        )
        if taken is not None:
            raise DuplicateKey("story.slug")

    def _retire(self, author_id: str, slug: str, story_id: str) -> None:
        """Make ``slug`` an alias of the story (upserted; a concurrent upsert may win first)."""
        selector = {"author_id": author_id, "slug": slug}
        try:
            self._aliases.update_one(selector, {"$set": {"story_id": story_id}}, upsert=True)
        except DuplicateKeyError:
            self._aliases.update_one(selector, {"$set": {"story_id": story_id}})

    def remove(self, story_id: str) -> bool:
        if self._stories.delete_one({"_id": story_id}).deleted_count == 0:
            return False
        self._aliases.delete_many({"story_id": story_id})
        self._generations.remove_all(story_id)
        self._embeds.delete_many({"story_id": story_id})
        return True

    def set_featured(self, story_id: str, featured_at: str | None) -> None:
        self._stories.update_one({"_id": story_id}, {"$set": {"featured_at": featured_at}})

    def add_views(
        self,
        views: MutableMapping[str, int],
        embeds: MutableMapping[tuple[str, str], int],
        *,
        max_embed_pages: int,
    ) -> None:
        pages: dict[str, list[tuple[str, int]]] = {}
        for (story_id, page), loads in embeds.items():
            pages.setdefault(story_id, []).append((page, loads))
        for story_id in list(dict.fromkeys([*views, *pages])):
            count, loaded = views.get(story_id, 0), pages.get(story_id, [])
            counts = {"views": count, "popularity": count, "embed_views": sum(n for _, n in loaded)}
            done = self._stories.update_one({"_id": story_id}, {"$inc": counts})
            for page, loads in loaded if done.matched_count else ():
                selector = {"story_id": story_id, "href": page}
                if self._embeds.update_one(selector, {"$inc": {"views": loads}}).matched_count == 0:
                    self._add_page(story_id, page, loads, max_embed_pages)
            views.pop(story_id, None)  # stored: what is left after an error was not
            for page, _ in loaded:
                embeds.pop((story_id, page), None)

    def _add_page(self, story_id: str, href: str, loads: int, max_pages: int) -> None:
        """The first loads of a page of a story's embed: the story keeps its ``max_pages - 1``
        first other pages in ``embeds`` order, then this one (``StoryRepository.add_views``).
        The loads of a dropped page leave the story's ``embed_views`` with it. A story holds
        about ``max_pages`` documents, so this reads a bounded handful.
        """
        beyond = self._embeds.find(
            {"story_id": story_id},
            {"href": 1, "_id": 0},
            sort=[("views", DESCENDING), ("href", ASCENDING)],
            skip=max(max_pages - 1, 0),
        )
        dropped_views = 0
        for other in [document["href"] for document in beyond]:
            gone = self._embeds.find_one_and_delete(
                {"story_id": story_id, "href": other}, {"views": 1, "_id": 0}
            )
            dropped_views += gone["views"] if gone else 0
        if dropped_views:
            self._stories.update_one({"_id": story_id}, {"$inc": {"embed_views": -dropped_views}})
        page = {"story_id": story_id, "href": href}
        try:
            self._embeds.insert_one({**page, "views": loads})
        except DuplicateKeyError:  # two first loads of a page raced: the other one inserted
            self._embeds.update_one(page, {"$inc": {"views": loads}})

    # -- reads ---------------------------------------------------------------------------

    def get(self, story_id: str) -> StoryRecord | None:
        found = self._stories.find_one({"_id": story_id}, STORY)
        return story_record(found) if found else None

    def get_by_slug(self, author_id: str, slug: str) -> StoryRecord | None:
        found = self._stories.find_one({"author_id": author_id, "slug": slug}, STORY)
        return story_record(found) if found else None

    def taken_slugs(self, author_id: str, slugs: Collection[str]) -> set[str]:
        found = self._stories.find(
            {"author_id": author_id, "slug": {"$in": list(slugs)}}, {"slug": 1, "_id": 0}
        )
        return {document["slug"] for document in found}

    def element_documents(self, story_id: str, offset: int, limit: int) -> list[str]:
        return [element_document(e) for e in self._generations.page(story_id, offset, limit)]

    def find(self, query: StoryQuery) -> list[StoryHead]:
        if query.limit <= 0:  # to MongoDB, a limit of 0 means none
            return []
        direction = DESCENDING if query.descending else ASCENDING
        found = self._stories.find(
            _selector(query),
            HEAD,
            sort=[(query.sort, direction), ("_id", direction)],
            skip=query.offset,
            limit=query.limit,
        )
        return [story_head(document) for document in found]

    def embeds(self, story_ids: Iterable[str]) -> dict[str, list[EmbedCount]]:
        ids = list(set(story_ids))
        if not ids:
            return {}
        # Counts of a story removed meanwhile may linger for a moment: only live stories count.
        live = [s["_id"] for s in self._stories.find({"_id": {"$in": ids}}, {"_id": 1})]
        found = self._embeds.find(
            {"story_id": {"$in": live}},
            {"story_id": 1, "href": 1, "views": 1, "_id": 0},
            sort=[("story_id", ASCENDING), ("views", DESCENDING), ("href", ASCENDING)],
        )
        result: dict[str, list[EmbedCount]] = {}
        for document in found:
            result.setdefault(document["story_id"], []).append(
                EmbedCount(href=document["href"], views=document["views"])
            )
        return result

    def author_stats(self, author_ids: Iterable[str]) -> dict[str, AuthorStats]:
        ids = list(set(author_ids))
        result = {author_id: AuthorStats() for author_id in ids}
        if not ids:
            return result
        public: Document = {"public": True, "author_id": {"$in": ids}}
        for row in self._stories.aggregate(
            [
                {"$match": public},
                {
                    "$group": {
                        "_id": "$author_id",
                        "stories": {"$sum": 1},
                        "views": {"$sum": "$views"},
                        "embeds": {"$sum": "$embed_views"},
                        "last_story": {"$max": "$created"},
                        "featured": {"$max": "$featured_at"},
                    }
                },
            ]
        ):
            stats = result[row["_id"]]
            stats.stories, stats.views, stats.embeds = row["stories"], row["views"], row["embeds"]
            stats.last_story, stats.featured = row["last_story"], row["featured"]
        for document in self._stories.find(
            {**public, "featured_at": {"$ne": None}},
            {"author_id": 1},
            sort=[("featured_at", DESCENDING), ("_id", DESCENDING)],
        ):
            result[document["author_id"]].featured_stories.append(document["_id"])
        return result

    def iter_all(self) -> Iterator[tuple[StoryRecord, list[Element]]]:
        after = ""
        while True:
            batch = [
                story_record(document)
                for document in self._stories.find(
                    {"_id": {"$gt": after}},
                    STORY,
                    sort=[("_id", ASCENDING)],
                    limit=_EXPORT_BATCH,
                )
            ]
            if not batch:
                return
            for story in batch:
                yield story, self._generations.page(story.id, 0, 2**31)
            after = batch[-1].id


def _selector(query: StoryQuery) -> Document:
    """The filter of a list query."""
    selector: Document = {}
    if query.audience == "public":
        selector["public"] = True  # the form the partial indexes of public lists answer
    optional: dict[str, Any] = {
        "status": query.status if query.audience == "owner" else None,
        "author_id": query.author_id,
        "slug": query.slug,
        "tags": query.tag,
        "topic_keys": query.topic,
        "element_permalinks": query.containing_element,
    }
    selector.update({field: value for field, value in optional.items() if value is not None})
    if query.featured:
        selector["featured_at"] = {"$ne": None}
    return selector


class MongoAliases(AliasRepository):
    """Retired slugs; each answer is checked against the stories as they are now."""

    def __init__(self, collections: Collections) -> None:
        self._aliases = collections.aliases
        self._stories = collections.stories

    def resolve(self, author_id: str, slug: str) -> str | None:
        alias = self._aliases.find_one({"author_id": author_id, "slug": slug}, {"story_id": 1})
        if alias is None:
            return None
        if self._stories.find_one({"author_id": author_id, "slug": slug}, {"_id": 1}):
            return None  # a live story holds the slug: the alias stopped
        story = self._stories.find_one(
            {"_id": alias["story_id"], "author_id": author_id}, {"_id": 1}
        )
        return None if story is None else str(story["_id"])
