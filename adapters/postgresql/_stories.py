"""Stories, their elements, aliases, counters and search on PostgreSQL.

A story is a row: its JSON ``record``, beside the columns lists filter and sort on and the
members ``replace`` keeps (``KEPT_BY_REPLACE``), which live in their columns alone: counters are
added to in place and a replacement never writes them. ``words`` holds the story's search words
and ``search`` those and its author's ``search_tokens``, which a GIN index serves.

Locks are taken in one order, so that writers wait and never deadlock: an author before their
stories, stories in id order (``add_views``, an author's new search tokens).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Iterator, MutableMapping, Sequence
from typing import Any

import orjson

from storycore.errors import Missing, StaleVersion
from storycore.model import records
from storycore.model.counters import pages_dropped, popularity
from storycore.model.events import Event
from storycore.model.heads import AuthorLatest, StoryAddress, StoryHead
from storycore.model.queries import StoryQuery
from storycore.model.records import AuthorStats, Element, EmbedCount, Stored, StoryRecord
from storycore.model.revisions import RevisionMark
from storycore.ports import (
    KEPT_BY_REPLACE,
    NewStory,
    SearchIndex,
    StoryRead,
    StoryRepository,
)
from storycore.rules.usernames import username_key

from .._sql.accounts import load_user
from ._database import Connection, Database, Part
from ._events import logged
from ._revisions import KEEP, keep_parameters
from ._schema import INDEXED

__all__ = ["DUE", "PostgreSQLSearch", "PostgreSQLStories", "read_story"]

_KEPT = tuple(sorted(KEPT_BY_REPLACE))
#: The columns a replacement writes (besides ``public`` and ``record``).
_REPLACED = (
    *("slug", "title", "description", "thumbnail", "cover", "status", "private", "version"),
    *("created", "updated", "published", "title_key", "tags", "topic_keys"),
    *("element_permalinks", "publish_at", "not_indexed"),
)
_COLUMNS = ("id", *_REPLACED, *_KEPT, "public", "record")
_STORY = ", ".join(("record", *_KEPT))  # what a whole read selects, for ``_story``
_HEAD = ", ".join(StoryHead._fields)  # every member of a head is a column
#: The elements of story ``id`` from their ``documents``, in order.
_ELEMENTS = (
    "INSERT INTO elements (story_id, position, document) SELECT %(id)s, n - 1, document"
    " FROM unnest(%(documents)s::text[]) WITH ORDINALITY AS e(document, n)"
)
#: A new story in one statement: its row, its elements, and an alias at its slug gone. The
#: elements' foreign key is checked at the end of the statement, when the story is there.
_ADD_CLAUSES = (
    f"WITH story AS (INSERT INTO stories ({', '.join(_COLUMNS)}, words, search)"
    f" VALUES ({', '.join(f'%({name})s' for name in _COLUMNS)}, %(words)s::text[],"
    " %(words)s::text[] || (SELECT search_tokens FROM users WHERE id = %(author_id)s FOR SHARE)))"
    ", freed AS (DELETE FROM aliases WHERE author_id = %(author_id)s AND slug = %(slug)s)"
)
_ADD = f"{_ADD_CLAUSES} {_ELEMENTS}"
_WORDS = ", words = %(words)s::text[], search = %(words)s::text[] || %(tokens)s::text[]"
_ORDER = ("ASC NULLS FIRST", "ASC"), ("DESC NULLS LAST", "DESC")
_LARGE_LOAD = 1000  # stories: a bulk load after which ``add_many`` runs VACUUM (ANALYZE)
#: The working stories due at ``now``, earliest first: a walk of ``stories_due``, the partial
#: index of scheduled stories (migration 4), which stops at the first one not due.
DUE = (
    f"SELECT {_STORY} FROM stories WHERE publish_at IS NOT NULL AND publish_at <= %(now)s"
    " AND status = 'working' ORDER BY publish_at, id LIMIT %(limit)s"
)


#: A story read in one round trip (``Store.read_story``): the user by their username's key, their
#: story at the slug, and a window of its element documents.
_READ = (
    f"SELECT u.record, {', '.join(f's.{name}' for name in ('record', *_KEPT))},"
    " array(SELECT document FROM elements e WHERE e.story_id = s.id ORDER BY position"
    " LIMIT %s OFFSET %s) FROM users u LEFT JOIN stories s ON s.author_id = u.id AND s.slug = %s"
    " WHERE u.username_key = %s"
)


def read_story(db: Database, username: str, slug: str, offset: int, limit: int) -> StoryRead:
    """``Store.read_story`` in one statement."""
    row = db.row(_READ, (max(limit, 0), max(offset, 0), slug, username_key(username)))
    if row is None:
        return StoryRead(None, None, [])
    story = None if row[1] is None else _story(row[1:-1])
    return StoryRead(load_user(row[0]), story, row[-1] if story is not None else [])


def _stored(row: Sequence[Any]) -> dict[str, Any]:
    """The members of a row of ``_STORY``: its record, and the kept members' columns."""
    data: dict[str, Any] = orjson.loads(row[0])
    data.update(zip(_KEPT, row[1:], strict=True))
    return data


def _story(row: Sequence[Any]) -> StoryRecord:
    return records.trusted_story(_stored(row))


def _row(
    story: StoryRecord, words: Sequence[str] | None, elements: Sequence[Element] | None = None
) -> dict[str, Any]:
    """The parameters of the statements that write ``story`` (and its ``elements``)."""
    row = {name: getattr(story, name) for name in _COLUMNS[:-2]}
    row.update(public=story.is_public, words=words)
    row["record"] = story.model_dump_json(exclude=set(KEPT_BY_REPLACE))
    if elements is not None:
        row["documents"] = [records.element_document(element) for element in elements]
    return row


def _add_statement(new: NewStory, events: Sequence[Event]) -> tuple[str, dict[str, Any]]:
    """The statement that adds a new story with those of ``events`` that report on it
    (``_ADD``, with a ``WITH`` clause that writes them when there are any), and its
    parameters."""
    story, elements, words = new
    row = _row(story, words, elements)
    if its := [event for event in events if event.subject == story.id]:
        clause, params = logged(its)
        return f"{_ADD_CLAUSES}, {clause} {_ELEMENTS}", {**row, **params}
    return _ADD, row


class PostgreSQLStories(Part, StoryRepository):
    """Stories, kept in step with their elements, aliases and search entry."""

    def add_many(self, stories: Iterable[NewStory], *, events: Sequence[Event] = ()) -> int:
        """All in one transaction, sent in a pipeline: every story is stored, or none; one
        story alone is one statement (``_ADD``, its events a clause of it), one round
        trip. After a large load the planner's statistics are refreshed and the search index's
        pending entries merged at once, not at autovacuum's next round, so that the next lists
        and searches are planned on what is there and read no pending list."""
        pending = iter(stories)
        head = list(itertools.islice(pending, 2))
        if len(head) == 1:
            self._db.run(*_add_statement(head[0], events))
            return 1
        count = 0
        with self._db.write(pipeline=True) as conn:
            for new in itertools.chain(head, pending):
                conn.execute(*_add_statement(new, events))
                count += 1
        if count >= _LARGE_LOAD:  # and the search index's pending entries merged in
            self._db.run("VACUUM (ANALYZE) stories, elements")
        return count

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
        """The story's row is locked, its version compared, then one ``UPDATE`` writes it,
        keeping the revision (``_revisions.KEEP``) when ``revision`` keeps any, and writing
        ``events`` (``_events.logged``): ``WITH`` clauses of it, no statement more than
        without them."""
        with self._db.write() as conn:
            row = _row(story, words, elements)
            if words is not None:  # the author first, as ``UserRepository.update`` locks
                author = conn.execute(
                    "SELECT u.search_tokens FROM users u JOIN stories s ON s.author_id = u.id"
                    " WHERE s.id = %s FOR SHARE OF u",
                    (story.id,),
                ).fetchone()
                row["tokens"] = author[0] if author else []
            found = conn.execute(
                "SELECT version, slug, author_id FROM stories WHERE id = %s FOR UPDATE",
                (story.id,),
            ).fetchone()
            if found is None:
                raise Missing("story")
            version, old_slug, author_id = found
            if version != expected_version:
                raise StaleVersion(version)
            columns = [f"{name} = %({name})s" for name in (*_REPLACED, "public", "record")]
            words_sql = _WORDS if words is not None else ""
            clauses = []
            if revision is not None and revision.keep > 0:
                clauses.append(KEEP)
                row.update(keep_parameters(revision, version))
            if events:
                clause, params = logged(events)
                clauses.append(clause)
                row.update(params)
            with_sql = f"WITH {', '.join(clauses)} " if clauses else ""
            conn.execute(
                f"{with_sql}UPDATE stories SET {', '.join(columns)}{words_sql} WHERE id = %(id)s",
                row,
            )
            if old_slug != story.slug:
                conn.execute(
                    "DELETE FROM aliases WHERE author_id = %s AND slug = %s",
                    (author_id, story.slug),
                )
                conn.execute(
                    "INSERT INTO aliases (author_id, slug, story_id) VALUES (%s, %s, %s)"
                    " ON CONFLICT (author_id, slug) DO UPDATE SET story_id = excluded.story_id",
                    (author_id, old_slug, story.id),
                )
            if elements is not None:
                conn.execute("DELETE FROM elements WHERE story_id = %s", (story.id,))
                conn.execute(_ELEMENTS, row)

    def due(self, now: str, limit: int) -> list[StoryRecord]:
        rows = self._db.rows(DUE, {"now": now, "limit": max(limit, 0)})
        return [_story(row) for row in rows]

    def remove(self, story_id: str, *, events: Sequence[Event] = ()) -> bool:
        """Its elements, aliases, embed pages and revisions go with it (``ON DELETE CASCADE``),
        and ``events`` are written when it was there: one statement."""
        if not events:
            return self._db.run("DELETE FROM stories WHERE id = %s", (story_id,)) > 0
        # one statement, which answers how many stories went (0 or 1)
        clause, params = logged(events, when="EXISTS (SELECT FROM gone)")
        found = self._db.row(
            "WITH gone AS (DELETE FROM stories WHERE id = %(id)s RETURNING id),"
            f" {clause} SELECT count(*) FROM gone",
            {"id": story_id, **params},
        )
        return bool(found and found[0])

    def set_featured(self, story_id: str, featured_at: str | None) -> None:
        self._db.run("UPDATE stories SET featured_at = %s WHERE id = %s", (featured_at, story_id))

    def add_views(
        self,
        views: MutableMapping[str, int],
        embeds: MutableMapping[tuple[str, str], int],
        *,
        max_embed_pages: int,
    ) -> None:
        """One transaction. Each story's row is locked (by adding its views, perhaps none) in
        id order before its pages change, so writers counting the same stories queue. The
        popularity grows by what the core says those views make (``counters.popularity``)."""
        pages: dict[str, list[tuple[str, int]]] = {}
        for (story_id, href), loads in embeds.items():
            pages.setdefault(story_id, []).append((href, loads))
        ids = sorted(views.keys() | pages.keys())
        with self._db.write() as conn:
            # every lock first, stories then their authors' counters, each in key order: a
            # writer holding an author's counters never waits for a story (no deadlock)
            present = conn.execute(
                "SELECT id FROM stories WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (ids,)
            ).fetchall()
            conn.execute(
                "SELECT 1 FROM author_stats WHERE author_id IN (SELECT author_id FROM stories"
                " WHERE id = ANY(%s) AND public) ORDER BY author_id FOR UPDATE",
                (ids,),
            )
            for (story_id,) in present:  # the others are gone
                for href, loads in pages.get(story_id, ()):
                    self._count_page(conn, story_id, href, loads, max_embed_pages)
                count = views.get(story_id, 0)
                conn.execute(
                    "UPDATE stories SET views = views + %s, popularity = popularity + %s"
                    + (
                        ", embed_views = (SELECT coalesce(sum(views), 0) FROM embeds"
                        " WHERE story_id = stories.id)"  # the kept pages', for the counters
                        if story_id in pages
                        else ""
                    )
                    + " WHERE id = %s",
                    (count, popularity(count), story_id),
                )

    @staticmethod
    def _count_page(conn: Connection, story_id: str, href: str, loads: int, most: int) -> None:
        """Add loads to a page kept; a new page comes after the pages the core drops for it
        (``counters.pages_dropped``) go. A story holds at most ``most`` pages: a handful."""
        counted = conn.execute(
            "UPDATE embeds SET views = views + %s WHERE story_id = %s AND href = %s",
            (loads, story_id, href),
        )
        if counted.rowcount == 0:
            kept = conn.execute("SELECT href, views FROM embeds WHERE story_id = %s", (story_id,))
            if dropped := pages_dropped(dict(kept.fetchall()), most):
                conn.execute(
                    "DELETE FROM embeds WHERE story_id = %s AND href = ANY(%s::text[])",
                    (story_id, dropped),
                )
            conn.execute(
                "INSERT INTO embeds (story_id, href, views) VALUES (%s, %s, %s)",
                (story_id, href, loads),
            )

    def get(self, story_id: str) -> StoryRecord | None:
        row = self._db.row(f"SELECT {_STORY} FROM stories WHERE id = %s", (story_id,))
        return _story(row) if row else None

    def get_by_slug(self, author_id: str, slug: str) -> StoryRecord | None:
        """One statement: the live story, else the one the alias at ``slug`` leads to."""
        row = self._db.row(
            f"SELECT {_STORY} FROM stories WHERE id = coalesce("
            "(SELECT id FROM stories WHERE author_id = %s AND slug = %s),"
            " (SELECT story_id FROM aliases WHERE author_id = %s AND slug = %s))",
            (author_id, slug, author_id, slug),
        )
        return _story(row) if row else None

    def taken_slugs(self, author_id: str, slugs: Collection[str]) -> set[str]:
        rows = self._db.rows(
            "SELECT slug FROM stories WHERE author_id = %s AND slug = ANY(%s::text[])",
            (author_id, list(slugs)),
        )
        return {row[0] for row in rows}

    def element_documents(self, story_id: str, offset: int, limit: int) -> list[str]:
        rows = self._db.rows(
            "SELECT document FROM elements WHERE story_id = %s ORDER BY position"
            " LIMIT %s OFFSET %s",
            (story_id, max(limit, 0), max(offset, 0)),
        )
        return [row[0] for row in rows]

    def find(self, query: StoryQuery) -> list[StoryHead]:
        where, params = _where(query)
        nulls, direction = _ORDER[query.descending]
        rows = self._db.rows(
            f"SELECT {_HEAD} FROM stories WHERE {where}"
            f" ORDER BY {query.sort} {nulls}, id {direction} LIMIT %s OFFSET %s",
            (*params, max(query.limit, 0), max(query.offset, 0)),
        )
        return [StoryHead._make(row) for row in rows]

    def count(self, query: StoryQuery) -> int:
        where, params = _where(query)
        row = self._db.row(f"SELECT count(*) FROM stories WHERE {where}", params)
        return int(row[0]) if row else 0

    def addresses(self, query: StoryQuery) -> list[StoryAddress]:
        """An index-only scan of ``stories_sitemap`` (migration 9) for a sitemap's query."""
        where, params = _where(query)
        rows = self._db.rows(
            f"SELECT author_id, slug, updated FROM stories WHERE {where}"
            " ORDER BY author_id, id LIMIT %s OFFSET %s",
            (*params, max(query.limit, 0), max(query.offset, 0)),
        )
        return [StoryAddress(*row) for row in rows]

    def authors(self, query: StoryQuery) -> list[AuthorLatest]:
        where, params = _where(query)
        rows = self._db.rows(
            f"SELECT author_id, max(updated) FROM stories WHERE {where}"
            " GROUP BY author_id ORDER BY author_id LIMIT %s OFFSET %s",
            (*params, max(query.limit, 0), max(query.offset, 0)),
        )
        return [AuthorLatest(*row) for row in rows]

    def count_authors(self, query: StoryQuery) -> int:
        where, params = _where(query)
        row = self._db.row(f"SELECT count(DISTINCT author_id) FROM stories WHERE {where}", params)
        return int(row[0]) if row else 0

    def embeds(self, story_ids: Iterable[str]) -> dict[str, list[EmbedCount]]:
        result: dict[str, list[EmbedCount]] = {}
        for story_id, href, views in self._db.rows(
            "SELECT story_id, href, views FROM embeds WHERE story_id = ANY(%s::text[])"
            " ORDER BY story_id, views DESC, href",
            (list(set(story_ids)),),
        ):
            result.setdefault(story_id, []).append(EmbedCount(href=href, views=views))
        return result

    def author_stats(self, author_ids: Iterable[str]) -> dict[str, AuthorStats]:
        """The counters of migration 3, and the newest creation and features by index seeks,
        in one statement."""
        result = {author_id: AuthorStats() for author_id in author_ids}
        for author_id, *figures in self._db.rows(
            "SELECT a.author_id, a.stories, a.views, a.embeds,"
            " (SELECT max(created) FROM stories s WHERE s.author_id = a.author_id AND public),"
            " f.* FROM author_stats a, LATERAL (SELECT max(featured_at), coalesce(array_agg(id"
            " ORDER BY featured_at DESC, id DESC), '{}') FROM stories s"
            " WHERE s.author_id = a.author_id AND public AND featured_at IS NOT NULL) f"
            " WHERE a.author_id = ANY(%s::text[]) AND a.stories > 0",
            (list(result),),
        ):
            names = ("stories", "views", "embeds", "last_story", "featured", "featured_stories")
            result[author_id] = AuthorStats.model_construct(
                **dict(zip(names, figures, strict=True))
            )
        return result

    def iter_all(self) -> Iterator[tuple[StoryRecord, list[Element]]]:
        """Pages of stories in id order, each read with its elements in one statement."""
        after = ""
        while rows := self._db.rows(
            f"SELECT {_STORY}, array(SELECT document FROM elements WHERE story_id = s.id"
            " ORDER BY position) FROM stories s WHERE id > %s ORDER BY id LIMIT 100",
            (after,),
        ):
            for *row, documents in rows:
                story = _story(row)
                after = story.id
                yield story, [records.element_of(document) for document in documents]


def _where(query: StoryQuery) -> tuple[str, list[Any]]:
    """The condition of a list query and its parameters."""
    where, params = ["public" if query.audience == "public" else "TRUE"], []
    for condition, value in (
        ("status = %s", query.status if query.audience == "owner" else None),
        ("author_id = %s", query.author_id),
        ("slug = %s", query.slug),
        ("tags @> ARRAY[%s]::text[]", query.tag),
        ("topic_keys @> ARRAY[%s]::text[]", query.topic),
        ("element_permalinks @> ARRAY[%s]::text[]", query.containing_element),
    ):
        if value is not None:
            where.append(condition)
            params.append(value)
    if query.featured:
        where.append("featured_at IS NOT NULL")
    if query.indexed:
        where.append(INDEXED)  # as ``stories_sitemap`` holds it
    return " AND ".join(where), params


class PostgreSQLSearch(Part, SearchIndex):
    """Every word in the story's search array (its words and its author's tokens)."""

    def search(self, words: Sequence[str], offset: int, limit: int) -> list[StoryRecord]:
        return [_story(row) for row in self._found(words, offset, limit)]

    def search_stored(self, words: Sequence[str], offset: int, limit: int) -> list[Stored]:
        return [records.stored_story(_stored(row)) for row in self._found(words, offset, limit)]

    def _found(self, words: Sequence[str], offset: int, limit: int) -> list[tuple[Any, ...]]:
        if not words:
            return []
        return self._db.rows(
            f"SELECT {_STORY} FROM stories WHERE public AND search @> %s::text[]"
            " ORDER BY published DESC NULLS LAST, id DESC LIMIT %s OFFSET %s",
            (list(words), max(limit, 0), max(offset, 0)),
        )

    def count(self, words: Sequence[str]) -> int:
        if not words:
            return 0
        row = self._db.row(
            "SELECT count(*) FROM stories WHERE public AND search @> %s::text[]", (list(words),)
        )
        return int(row[0]) if row else 0
