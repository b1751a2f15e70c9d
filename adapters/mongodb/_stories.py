"""Stories on MongoDB: their documents, elements, aliases, embed counts, lists and search.

No write here needs a transaction. A story's change is one update of its document, conditional
on what was read (``version``, ``slug``, the elements' generation, the author tokens' version),
so a concurrent change makes it match nothing instead of being overwritten. Other documents are
written in an order that never lets a crash leave a reference to something missing:

- ``add_many``, for each story in turn: the elements, then the story (its slug's uniqueness is
  decided here), then the alias that held the slug stops.
- ``replace``: the new elements, as a new generation (a fresh ``rev``); the old slug's alias
  (inert while the story still lives there); with a ``RevisionMark``, the revision document;
  the story's one conditional update, which switches members, slug, elements
  (``elements_rev``) and revisions at once; then other stories' aliases at the new slug stop,
  and the old generation goes unless a revision shows it (``_revisions`` has the details).
- ``remove``: the story first (gone for every read at once), then its aliases, revisions,
  elements and embed counts. With events, or when its outbox holds events not logged yet, the
  story becomes a tombstone first, in one update that carries its events (``_outbox``), and
  the relay deletes the rest (``_relay``), at once.

Each write that reports a change carries its events in the story's document (``_outbox``): the
insert of ``add_many``, the one conditional update of ``replace``, the tombstone of ``remove``.

A crash between two steps leaves only documents no read reaches: a generation no story shows,
a revision document no story names, an alias at its own story's live slug, what a removed
story left; ``get_by_slug`` and
``embeds`` check the story behind what they find. A read of elements that comes back short (a
save switched generations meanwhile) starts again from the story.

Search: a story's ``search`` holds its own words (``search_tokens``) and its author's tokens
(``author_tokens``, copied in with their version on the user), so "every word, each in the
story or in its author" is one ``$all`` over a multikey array. Each write of ``search`` reads
the author's tokens from the document itself or is conditional on their version, and newer
tokens never give way to older ones: concurrent writes of a user and of their stories end with
every story holding the user's latest tokens.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, MutableMapping, Sequence

from pymongo import ASCENDING, DESCENDING
from pymongo.collection import Collection as Documents
from pymongo.errors import DuplicateKeyError

from storycore.errors import DuplicateKey, Missing, StaleVersion
from storycore.model.counters import pages_dropped, popularity
from storycore.model.events import Event
from storycore.model.heads import AuthorLatest, StoryAddress, StoryHead
from storycore.model.queries import StoryQuery
from storycore.model.records import (
    AuthorStats,
    Element,
    EmbedCount,
    StoryRecord,
    element_document,
    trusted_element,
)
from storycore.model.revisions import RevisionMark
from storycore.ports import KEPT_BY_REPLACE, NewStory, SearchIndex, StoryRepository
from storycore.rules.ids import new_id

from ._documents import HEAD, STORY, Document, document, refused
from ._elements import read_generation, write_generation
from ._outbox import FIRST, carried, live, pushed, tombstone
from ._relay import RELAY_AT, Relay, delete_parts
from ._revisions import (
    READ_WHOLE,
    Unnamed,
    collect_unnamed,
    entries_after,
    entry_of,
    revision_document,
)
from ._schema import Collections

__all__ = ["MongoSearch", "MongoStories", "copy_author_tokens"]

_ATTEMPTS = 5  # reads of elements, and conditional updates, tried again when raced
_EXPORT_BATCH = 100
_NEWEST = [("published", DESCENDING), ("_id", DESCENDING)]
_FEATURED = [("featured_at", DESCENDING), ("_id", DESCENDING)]
_DUE = [("publish_at", ASCENDING), ("_id", ASCENDING)]
# What a replace finds unchanged when it writes; what it reads (the tokens, the revisions'
# entries besides), or the whole story when it keeps a revision (``READ_WHOLE``).
_UNCHANGED = ("_id", "version", "slug", "elements_rev", "author_tokens_version")
_READ_BY_REPLACE = dict.fromkeys(
    (
        *_UNCHANGED,
        "author_tokens",
        "revisions",
        "unnamed_revisions",
        "unnamed_elements",
        "outbox.id",
    ),
    1,
)
_READ_WHOLE = {**READ_WHOLE, "outbox.id": 1}


def copy_author_tokens(
    stories: Documents[Document], selector: Document, tokens: Sequence[str], version: int
) -> None:
    """Give the stories ``selector`` finds (an author's, or one of them) version ``version`` of
    their author's tokens where they hold an older one; each in one update that keeps its words.
    """
    given = {"$literal": list(tokens)}
    copied = {
        "author_tokens": given,
        "author_tokens_version": {"$literal": version},
        "search": {"$setUnion": ["$search_tokens", given]},
    }
    older = {**selector, "author_tokens_version": {"$lt": version}}
    stories.update_many(older, [{"$set": copied}])


#: A sitemap's order (``addresses``): by author, then id, as the ``sitemap`` index holds them.
_BY_AUTHOR = [("author_id", ASCENDING), ("_id", ASCENDING)]


class MongoStories(StoryRepository):
    """Stories: one document each, elements apart, kept in step with aliases and embeds."""

    def __init__(self, collections: Collections) -> None:
        self._collections, self._relay = collections, Relay(collections)
        self._stories, self._elements = live(collections.stories), collections.elements
        self._aliases, self._embeds = collections.aliases, collections.embeds
        self._users, self._revisions = collections.users, collections.revisions

    # -- writes --------------------------------------------------------------------------

    def add_many(self, stories: Iterable[NewStory], *, events: Sequence[Event] = ()) -> int:
        """One by one, each as the module docstring says: the stories before a failure stay.
        Each story's document carries the events whose subject it is."""
        count = 0
        for story, elements, words in stories:
            self._add(story, elements, words, [e for e in events if e.subject == story.id])
            count += 1
        return count

    def _add(
        self,
        story: StoryRecord,
        elements: Sequence[Element],
        words: Sequence[str],
        events: Sequence[Event],
    ) -> None:
        tokens, version = self._author_tokens(story.author_id)
        rev = self._write_elements(story.id, elements)
        stored = self._collections.stories  # a tombstone holds its id too
        try:
            with refused(stored, "story.slug", ("story.id", {"_id": story.id})):
                self._stories.insert_one(
                    {
                        **document(story),
                        "public": story.is_public,
                        "search_tokens": list(words),
                        "search": sorted({*words, *tokens}),
                        "author_tokens": tokens,
                        "author_tokens_version": version,
                        "elements_rev": rev,
                        "element_total": len(elements),
                        "embed_views": 0,
                        **carried(events),
                    }
                )
        except DuplicateKey:  # refused, so never shown: its elements go too
            self._elements.delete_many({"story_id": story.id, "rev": rev})
            raise
        self._aliases.delete_one({"author_id": story.author_id, "slug": story.slug})
        # The author's tokens may have changed since they were read: copy the newer ones.
        newer, newer_version = self._author_tokens(story.author_id)
        if newer_version != version:
            one = {"author_id": story.author_id, "_id": story.id}  # the shard key targets it
            copy_author_tokens(self._stories, one, newer, newer_version)

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
        revision: RevisionMark | None = None,
        events: Sequence[Event] = (),
    ) -> None:
        """The story's one conditional update carries ``events`` (``_outbox``)."""
        fields = story.model_dump(exclude={"id", *KEPT_BY_REPLACE})
        fields["public"] = story.is_public
        if words is not None:
            fields["search_tokens"] = list(words)
        if elements is not None:
            fields["elements_rev"] = self._write_elements(story.id, elements)
            fields["element_total"] = len(elements)
        mark = revision if revision is not None and revision.keep > 0 else None
        revision_id = new_id() if mark else ""
        push = pushed(events)
        try:
            found, unnamed = self._switch(
                story, expected_version, fields, words, (mark, revision_id), push
            )
        except (Missing, StaleVersion, DuplicateKey):
            if elements is not None:  # refused, so the story never showed them
                self._elements.delete_many({"story_id": story.id, "rev": fields["elements_rev"]})
            if mark is not None:  # nor named its revision (when it was written at all)
                self._revisions.delete_one({"story_id": story.id, "_id": revision_id})
            raise
        if found["slug"] != story.slug:
            self._aliases.delete_many(
                {"author_id": story.author_id, "slug": story.slug, "story_id": {"$ne": story.id}}
            )
        unnamed.delete(self._collections, story.id)
        if push and len(found.get("outbox", ())) >= RELAY_AT:
            self._relay.run(wait=False)

    def _switch(
        self,
        story: StoryRecord,
        expected_version: int,
        fields: Document,
        words: Sequence[str] | None,
        keeping: tuple[RevisionMark | None, str],
        push: Document,
    ) -> tuple[Document, Unnamed]:
        """Set ``fields`` in one update, conditional on the story being as read, with the
        entry of its revision among its entries when ``keeping`` has a mark (the revision
        written first, under the id ``keeping`` names), and with ``push`` (its events); the
        story as read, and what it left unnamed that it did not list (``_revisions``)."""
        mark, revision_id = keeping
        for _ in range(_ATTEMPTS):
            found = self._stories.find_one(
                {"_id": story.id}, _READ_WHOLE if mark else _READ_BY_REPLACE
            )
            if found is None:
                raise Missing("story")
            if found["version"] != expected_version:
                raise StaleVersion(found["version"])
            if found["slug"] != story.slug:
                self._retire(story, found["slug"])
            if words is not None:
                fields["search"] = sorted({*words, *found.get("author_tokens", [])})
            unchanged = {key: found[key] for key in _UNCHANGED if key in found}
            changes, entries = fields, found.get("revisions", [])
            if mark is not None:
                kept = revision_document(revision_id, found, mark)
                self._revisions.replace_one(
                    {"story_id": story.id, "_id": revision_id}, kept, upsert=True
                )
                entries = entries_after(entries, entry_of(kept), mark.keep)
                changes = {**fields, "revisions": entries}
                # an import's entry may join meanwhile: then this matches nothing, and reads again
                unchanged["revisions"] = found.get("revisions")
            shown: str = fields.get("elements_rev") or found["elements_rev"]
            listing, left = collect_unnamed(self._collections, found, shown, entries, revision_id)
            changes = {**changes, **listing}
            with refused(self._stories, "story.slug"):
                if self._stories.update_one(unchanged, {"$set": changes, **push}).matched_count:
                    return found, left
            # Something else changed the story since it was read: read it again.
        raise StaleVersion()  # it kept changing

    def _retire(self, story: StoryRecord, old_slug: str) -> None:
        """Make ``old_slug`` an alias of the story, which moves to ``story.slug``. First
        ``DuplicateKey`` when another story lives there (the unique index decides races; this
        spares them the inert alias a refused move would leave).
        """
        taken = {"author_id": story.author_id, "slug": story.slug, "_id": {"$ne": story.id}}
        if self._stories.find_one(taken, {"_id": 1}) is not None:
            raise DuplicateKey("story.slug")
        alias, points = {"author_id": story.author_id, "slug": old_slug}, {"story_id": story.id}
        try:
            self._aliases.update_one(alias, {"$set": points}, upsert=True)
        except DuplicateKeyError:  # a concurrent upsert came first
            self._aliases.update_one(alias, {"$set": points})

    def _write_elements(self, story_id: str, elements: Sequence[Element]) -> str:
        """Store ``elements`` as a new generation of the story's elements; its ``rev``."""
        return write_generation(self._elements, story_id, [e.model_dump() for e in elements])

    def remove(self, story_id: str, *, events: Sequence[Event] = ()) -> bool:
        """With ``events``, or when the story's outbox holds events not logged yet: the story
        becomes a tombstone, hidden from every read, in one update that carries ``events``;
        the relay, run at once, logs them and deletes the tombstone with the story's other
        documents (``_relay``). Else the story is deleted as ever: it, then the others."""
        if not events and self._delete(story_id):
            return True
        change = {"$set": tombstone(story_id), **pushed(events)}
        if self._stories.update_one({"_id": story_id}, change).matched_count == 0:
            return False
        self._relay.run(wait=True)
        return True

    def _delete(self, story_id: str) -> bool:
        """Delete the story, then its other documents, if its outbox holds no event."""
        gone = self._stories.delete_one({"_id": story_id, FIRST: {"$exists": False}})
        if gone.deleted_count == 0:
            return False
        delete_parts(self._collections, story_id)
        return True

    def due(self, now: str, limit: int) -> list[StoryRecord]:
        """A walk of the ``due`` index, which holds the scheduled stories only: the selector
        holds its partial filter (``publish_at`` a string), without which the planner may not
        use it."""
        due: Document = {"publish_at": {"$type": "string", "$lte": now}, "status": "working"}
        return STORY.page(self._stories, due, _DUE, 0, limit)

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
            counts = {
                "views": count,
                "popularity": popularity(count),  # what those views make (``counters``)
                "embed_views": sum(n for _, n in loaded),
            }
            done = self._stories.update_one({"_id": story_id}, {"$inc": counts})
            for page, loads in loaded if done.matched_count else ():
                selector = {"story_id": story_id, "href": page}
                if self._embeds.update_one(selector, {"$inc": {"views": loads}}).matched_count == 0:
                    self._add_page(story_id, page, loads, max_embed_pages)
            views.pop(story_id, None)  # stored: what is left after an error was not
            for page, _ in loaded:
                embeds.pop((story_id, page), None)

    def _add_page(self, story_id: str, href: str, loads: int, max_pages: int) -> None:
        """The first loads of a page: the pages the core drops for it go
        (``counters.pages_dropped``), their loads leaving ``embed_views`` with them, then it
        comes. A story holds about ``max_pages`` pages, so this reads a bounded handful.
        """
        kept = self._embeds.find({"story_id": story_id}, {"href": 1, "views": 1, "_id": 0})
        dropped_views = 0
        for other in pages_dropped({found["href"]: found["views"] for found in kept}, max_pages):
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
        return STORY.one(self._stories, {"_id": story_id})

    def get_by_slug(self, author_id: str, slug: str) -> StoryRecord | None:
        """The live story; else the alias's, checked: its story is there, and the author's."""
        story = STORY.one(self._stories, {"author_id": author_id, "slug": slug})
        if story is not None:
            return story
        alias = self._aliases.find_one({"author_id": author_id, "slug": slug}, {"story_id": 1})
        if alias is None:
            return None
        return STORY.one(self._stories, {"_id": alias["story_id"], "author_id": author_id})

    def taken_slugs(self, author_id: str, slugs: Collection[str]) -> set[str]:
        found = self._stories.find(
            {"author_id": author_id, "slug": {"$in": list(slugs)}}, {"slug": 1, "_id": 0}
        )
        return {taken["slug"] for taken in found}

    def element_documents(self, story_id: str, offset: int, limit: int) -> list[str]:
        return [element_document(e) for e in self._read_elements(story_id, offset, limit)]

    def _read_elements(self, story_id: str, offset: int, limit: int) -> list[Element]:
        """A slice of the elements the story shows, in story order."""
        found: list[Element] = []
        for _ in range(_ATTEMPTS):
            story = self._stories.find_one(
                {"_id": story_id}, {"elements_rev": 1, "element_total": 1}
            )
            if story is None:
                return []
            expected = max(0, min(limit, story["element_total"] - offset))
            if expected == 0:
                return []
            rev = story["elements_rev"]
            page = read_generation(self._elements, story_id, rev, offset, expected)
            found = [trusted_element(element) for element in page]
            if len(found) == expected:
                break
        return found

    def find(self, query: StoryQuery) -> list[StoryHead]:
        direction = DESCENDING if query.descending else ASCENDING
        order = [(query.sort, direction), ("_id", direction)]
        return HEAD.page(self._stories, _selector(query), order, query.offset, query.limit)

    def count(self, query: StoryQuery) -> int:
        return int(self._stories.count_documents(_selector(query)))

    def addresses(self, query: StoryQuery) -> list[StoryAddress]:
        """A walk of the ``sitemap`` index (author, id) over the query's stories."""
        if query.limit <= 0:  # to MongoDB, a limit of 0 means none
            return []
        found = self._stories.find(
            _selector(query),
            {"author_id": 1, "slug": 1, "updated": 1},
            sort=_BY_AUTHOR,
            skip=max(query.offset, 0),
            limit=query.limit,
        )
        return [StoryAddress(f["author_id"], f["slug"], f["updated"]) for f in found]

    def authors(self, query: StoryQuery) -> list[AuthorLatest]:
        if query.limit <= 0:
            return []
        pipeline: list[Document] = [
            {"$match": _selector(query)},
            {"$group": {"_id": "$author_id", "updated": {"$max": "$updated"}}},
            {"$sort": {"_id": ASCENDING}},
        ]
        if query.offset > 0:
            pipeline.append({"$skip": query.offset})
        pipeline.append({"$limit": query.limit})
        return [
            AuthorLatest(row["_id"], row["updated"]) for row in self._stories.aggregate(pipeline)
        ]

    def count_authors(self, query: StoryQuery) -> int:
        rows = list(
            self._stories.aggregate(
                [
                    {"$match": _selector(query)},
                    {"$group": {"_id": "$author_id"}},
                    {"$count": "authors"},
                ]
            )
        )
        return int(rows[0]["authors"]) if rows else 0

    def embeds(self, story_ids: Iterable[str]) -> dict[str, list[EmbedCount]]:
        result: dict[str, list[EmbedCount]] = {}
        if not (ids := list(set(story_ids))):
            return result
        # Counts of a story removed meanwhile may linger for a moment: only live stories count.
        live = [story["_id"] for story in self._stories.find({"_id": {"$in": ids}}, {"_id": 1})]
        for found in self._embeds.find(
            {"story_id": {"$in": live}},
            {"story_id": 1, "href": 1, "views": 1, "_id": 0},
            sort=[("story_id", ASCENDING), ("views", DESCENDING), ("href", ASCENDING)],
        ):
            count = EmbedCount(href=found["href"], views=found["views"])
            result.setdefault(found["story_id"], []).append(count)
        return result

    def author_stats(self, author_ids: Iterable[str]) -> dict[str, AuthorStats]:
        result = {author_id: AuthorStats() for author_id in author_ids}
        if not result:
            return result
        public: Document = {"public": True, "author_id": {"$in": list(result)}}
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
        for story in self._stories.find(
            {**public, "featured_at": {"$ne": None}}, {"author_id": 1}, sort=_FEATURED
        ):
            result[story["author_id"]].featured_stories.append(story["_id"])
        return result

    def iter_all(self) -> Iterator[tuple[StoryRecord, list[Element]]]:
        after = ""
        while batch := STORY.many(
            self._stories, {"_id": {"$gt": after}}, sort=[("_id", ASCENDING)], limit=_EXPORT_BATCH
        ):
            for story in batch:
                yield story, self._read_elements(story.id, 0, 2**31)
            after = batch[-1].id


def _selector(query: StoryQuery) -> Document:
    """The filter of a list query (``public``, as the partial indexes of public lists hold)."""
    wanted = {
        "public": True if query.audience == "public" else None,
        "status": query.status if query.audience == "owner" else None,
        "author_id": query.author_id,
        "slug": query.slug,
        "tags": query.tag,
        "topic_keys": query.topic,
        "element_permalinks": query.containing_element,
        "featured_at": {"$ne": None} if query.featured else None,
        "not_indexed": {"$ne": True} if query.indexed else None,
    }
    return {field: value for field, value in wanted.items() if value is not None}


class MongoSearch(SearchIndex):
    """Public stories holding every word, newest publication first."""

    def __init__(self, collections: Collections) -> None:
        self._stories = live(collections.stories)

    def search(self, words: Sequence[str], offset: int, limit: int) -> list[StoryRecord]:
        if not words:
            return []
        return STORY.page(self._stories, _holding(words), _NEWEST, offset, limit)

    def count(self, words: Sequence[str]) -> int:
        return int(self._stories.count_documents(_holding(words))) if words else 0


def _holding(words: Sequence[str]) -> Document:
    """The public stories holding every one of ``words``."""
    return {"public": True, "search": {"$all": list(words)}}
