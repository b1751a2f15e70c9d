"""Stories, their elements, aliases, counters and search on SQLite.

A story is a row: its JSON ``record`` beside the columns lists filter and sort on, and the
members ``replace`` keeps (``KEPT_BY_REPLACE``), which live in their columns alone: counters are
added to in place, and a replacement never writes them. A replacement with a ``RevisionMark``
first copies the row and its element documents into ``revisions``, in the database
(``_keep_revision``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable, Iterator, MutableMapping, Sequence
from typing import Any

import orjson

from storycore.errors import Missing, StaleVersion
from storycore.model.counters import pages_dropped, popularity
from storycore.model.events import Event
from storycore.model.heads import AuthorLatest, StoryAddress, StoryHead
from storycore.model.queries import StoryQuery
from storycore.model.records import (
    AuthorStats,
    Element,
    EmbedCount,
    Stored,
    StoryRecord,
    element_document,
    element_of,
    stored_story,
    trusted_story,
)
from storycore.model.revisions import RevisionMark
from storycore.model.trusted import construct_trusted
from storycore.ports import KEPT_BY_REPLACE, NewStory, SearchIndex, StoryRepository
from storycore.rules.searchtext import token_text

from ._connection import Repository, insert, marks, update
from ._events import log
from ._schema import INDEXED
from ._search import COUNT, SEARCH, index, unindex

__all__ = ["SQLiteSearch", "SQLiteStories"]

#: The members ``replace`` keeps, in their columns alone and out of ``record``.
_KEPT = tuple(sorted(KEPT_BY_REPLACE))
_RECORD_EXCLUDE = set(KEPT_BY_REPLACE)
#: The columns of a story's row besides ``public`` and ``record``: what lists filter and sort on,
#: and the kept members.
_COLUMNS = (
    "id",
    "slug",
    "status",
    "private",
    "version",
    "created",
    "updated",
    "published",
    "title_key",
    "publish_at",
    "not_indexed",
    "title",
    "description",
    "thumbnail",
    "cover",
    *_KEPT,
)
_UNREPLACED = KEPT_BY_REPLACE | {"id"}  # the columns a replacement leaves as stored
#: What a whole read selects, for ``_story``.
_STORY = "s.record, " + ", ".join(f"s.{name}" for name in _KEPT)
#: What a list reads of a story, without decoding its record in Python (``_head``).
_HEAD = ", ".join(
    f"s.{name}" if name in _COLUMNS else f"json_extract(s.record, '$.{name}')"
    for name in StoryHead._fields
)


def _row(story: StoryRecord) -> dict[str, Any]:
    row = {name: getattr(story, name) for name in _COLUMNS}
    row.update(public=story.is_public, record=story.model_dump_json(exclude=_RECORD_EXCLUDE))
    return row


def _stored(row: Sequence[Any]) -> dict[str, Any]:
    """The members of a row of ``_STORY``: its record, and the kept members' columns."""
    data: dict[str, Any] = orjson.loads(row[0])
    data.update(zip(_KEPT, row[1:], strict=True))
    return data


def _story(row: Sequence[Any]) -> StoryRecord:
    return trusted_story(_stored(row))


def _head(row: tuple[Any, ...]) -> StoryHead:
    return StoryHead._make((*row[:-1], bool(row[-1])))  # ``private`` is stored as 0 or 1


def _write_rows(
    conn: sqlite3.Connection,
    rowid: int,
    story: StoryRecord,
    elements: Sequence[Element] | None,
    *,
    replacing: bool,
) -> None:
    """Write the rows beside the story's own, in the caller's transaction: its tags and topics,
    each with the story's sort key (so a label's public list is one index walk), and
    ``elements`` when given. ``replacing`` removes the old ones.
    """
    if replacing:
        owned = ["story_tags", "story_topics"]
        if elements is not None:
            owned.append("elements")
        for table in owned:
            conn.execute(f"DELETE FROM {table} WHERE story_rowid = ?", (rowid,))
    keys = (rowid, story.is_public, story.published, story.id)
    for table, column, values in (
        ("story_tags", "tag", story.tags),
        ("story_topics", "topic", story.topic_keys),
    ):
        conn.executemany(
            f"INSERT OR IGNORE INTO {table}"
            f" ({column}, story_rowid, public, published, story_id) VALUES (?, ?, ?, ?, ?)",
            [(value, *keys) for value in values],
        )
    if elements is not None:
        conn.executemany(
            "INSERT INTO elements (story_rowid, position, permalink, record) VALUES (?, ?, ?, ?)",
            [
                (rowid, position, element.permalink, element_document(element))
                for position, element in enumerate(elements)
            ],
        )


def _keep_revision(conn: sqlite3.Connection, rowid: int, version: int, mark: RevisionMark) -> None:
    """Keep the story of ``rowid``, stored at ``version``, as a revision, in the caller's
    transaction and before it replaces the story: the revisions past the newest ``keep - 1``
    go, then the row and its element documents (a JSON array, in story order) are copied in the
    database (nothing is read into Python). A revision at ``version`` or later, which only an
    inconsistent import could have left, goes too, so the copy never collides with it.
    """
    conn.execute(
        "DELETE FROM revisions WHERE story_rowid = ?1 AND (version >= ?2 OR version <= ("
        "SELECT version FROM revisions WHERE story_rowid = ?1 AND version < ?2"
        " ORDER BY version DESC LIMIT 1 OFFSET ?3))",
        (rowid, version, mark.keep - 1),
    )
    conn.execute(
        "INSERT INTO revisions (story_rowid, version, replaced, replaced_by, title, status,"
        " elements, record, element_documents)"
        " SELECT rowid, version, ?2, ?3, json_extract(record, '$.title'), status,"
        " (SELECT count(*) FROM elements WHERE story_rowid = ?1), record,"
        " (SELECT json_group_array(record) FROM"
        " (SELECT record FROM elements WHERE story_rowid = ?1 ORDER BY position))"
        " FROM stories WHERE rowid = ?1",
        (rowid, mark.replaced, mark.by),
    )


def _add_page(
    conn: sqlite3.Connection, story_id: str, href: str, loads: int, max_pages: int
) -> None:
    """The first loads of a page of a story's embed, in the caller's transaction: the pages the
    core drops for it go (``counters.pages_dropped``), then it comes. A story holds at most
    ``max_pages`` rows, so this reads a bounded handful.
    """
    found = conn.execute("SELECT rowid FROM stories WHERE id = ?", (story_id,)).fetchone()
    if found is None:
        return
    kept = conn.execute("SELECT href, views FROM embeds WHERE story_rowid = ?", (found[0],))
    conn.executemany(
        "DELETE FROM embeds WHERE story_rowid = ? AND href = ?",
        [(found[0], dropped) for dropped in pages_dropped(dict(kept.fetchall()), max_pages)],
    )
    conn.execute(
        "INSERT INTO embeds (story_rowid, href, views) VALUES (?, ?, ?)", (found[0], href, loads)
    )


class SQLiteStories(Repository, StoryRepository):
    """Stories, kept in step with their tags, topics, element rows and search entry."""

    # -- writes --------------------------------------------------------------------------

    def add_many(self, stories: Iterable[NewStory], *, events: Sequence[Event] = ()) -> int:
        """All in one transaction: every story is stored, or none. The write lock is held while
        ``stories`` is consumed, so other writers wait for the whole load. The events go in
        after the stories, in one statement, each story's in the order of the stories (and as
        given among them); an event whose subject is none of them is not stored.
        """
        by_subject: dict[str, list[Event]] = {}
        for event in events:
            by_subject.setdefault(event.subject, []).append(event)
        logged: list[Event] = []
        count = 0
        with self._db.write() as conn:
            for story, elements, words in stories:
                self._insert(conn, story, elements, words)
                logged += by_subject.pop(story.id, ())
                count += 1
            log(conn, logged)
        return count

    @staticmethod
    def _insert(
        conn: sqlite3.Connection,
        story: StoryRecord,
        elements: Sequence[Element],
        words: Sequence[str],
    ) -> None:
        rowid = insert(conn, "stories", _row(story))
        assert rowid is not None
        conn.execute(
            "DELETE FROM aliases WHERE author_id = ? AND slug = ?", (story.author_id, story.slug)
        )
        _write_rows(conn, rowid, story, elements, replacing=False)
        index(conn, rowid, story, token_text(words))

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
        with self._db.write() as conn:
            row = conn.execute(
                "SELECT rowid, version, slug, author_id FROM stories WHERE id = ?", (story.id,)
            ).fetchone()
            if row is None:
                raise Missing("story")
            rowid, version, old_slug, author_id = row
            if version != expected_version:
                raise StaleVersion(version)
            if revision is not None and revision.keep > 0:  # else not one statement more
                _keep_revision(conn, rowid, version, revision)
            changes = {
                name: value for name, value in _row(story).items() if name not in _UNREPLACED
            }
            update(conn, "stories", changes, rowid=rowid)
            if old_slug != story.slug:
                conn.execute(
                    "DELETE FROM aliases WHERE author_id = ? AND slug = ?", (author_id, story.slug)
                )
                conn.execute(
                    "INSERT INTO aliases (author_id, slug, story_rowid) VALUES (?, ?, ?)",
                    (author_id, old_slug, rowid),
                )
            _write_rows(conn, rowid, story, elements, replacing=True)
            index(conn, rowid, story, None if words is None else token_text(words))
            log(conn, events)

    def due(self, now: str, limit: int) -> list[StoryRecord]:
        """A walk of ``stories_due`` (migration 11) from its start, stopped after ``now``."""
        rows = self._db.rows(
            f"SELECT {_STORY} FROM stories s WHERE s.publish_at <= ? AND s.status = 'working'"
            " ORDER BY s.publish_at, s.id LIMIT ?",
            (now, max(limit, 0)),
        )
        return [_story(row) for row in rows]

    def remove(self, story_id: str, *, events: Sequence[Event] = ()) -> bool:
        """The story's elements, aliases, labels, embeds and revisions go with its row (foreign
        keys); its search entry is removed here."""
        with self._db.write() as conn:
            row = conn.execute("SELECT rowid FROM stories WHERE id = ?", (story_id,)).fetchone()
            if row is None:
                return False
            unindex(conn, row[0])
            conn.execute("DELETE FROM stories WHERE rowid = ?", (row[0],))
            log(conn, events)
            return True

    def set_featured(self, story_id: str, featured_at: str | None) -> None:
        with self._db.write() as conn:
            conn.execute("UPDATE stories SET featured_at = ? WHERE id = ?", (featured_at, story_id))

    def add_views(
        self,
        views: MutableMapping[str, int],
        embeds: MutableMapping[tuple[str, str], int],
        *,
        max_embed_pages: int,
    ) -> None:
        with self._db.write() as conn:
            conn.executemany(  # and the popularity those views make (``counters.popularity``)
                "UPDATE stories SET views = views + ?, popularity = popularity + ? WHERE id = ?",
                [(count, popularity(count), story_id) for story_id, count in views.items()],
            )
            for (story_id, page), loads in embeds.items():
                counted = conn.execute(
                    "UPDATE embeds SET views = views + ?"
                    " WHERE story_rowid = (SELECT rowid FROM stories WHERE id = ?) AND href = ?",
                    (loads, story_id, page),
                )
                if counted.rowcount == 0:
                    _add_page(conn, story_id, page, loads, max_embed_pages)
            conn.executemany(  # what the kept pages hold now, for the author's counters
                "UPDATE stories SET embed_views = (SELECT coalesce(sum(views), 0) FROM embeds"
                " WHERE story_rowid = stories.rowid) WHERE id = ?",
                [(story_id,) for story_id in {story_id for story_id, _ in embeds}],
            )

    # -- reads ---------------------------------------------------------------------------

    def get(self, story_id: str) -> StoryRecord | None:
        row = self._db.row(f"SELECT {_STORY} FROM stories s WHERE s.id = ?", (story_id,))
        return _story(row) if row else None

    def get_by_slug(self, author_id: str, slug: str) -> StoryRecord | None:
        """One statement: the live story, else the one the alias at ``slug`` leads to."""
        row = self._db.row(
            f"SELECT {_STORY} FROM stories s WHERE s.rowid = coalesce("
            "(SELECT rowid FROM stories WHERE author_id = ?1 AND slug = ?2),"
            " (SELECT story_rowid FROM aliases WHERE author_id = ?1 AND slug = ?2))",
            (author_id, slug),
        )
        return _story(row) if row else None

    def taken_slugs(self, author_id: str, slugs: Collection[str]) -> set[str]:
        rows = self._db.rows(
            f"SELECT slug FROM stories WHERE author_id = ? AND slug IN ({marks(slugs)})",
            (author_id, *slugs),
        )
        return {row[0] for row in rows}

    def element_documents(self, story_id: str, offset: int, limit: int) -> list[str]:
        rows = self._db.rows(
            "SELECT e.record FROM elements e JOIN stories s ON s.rowid = e.story_rowid"
            " WHERE s.id = ? ORDER BY e.position LIMIT ? OFFSET ?",
            (story_id, limit, offset),
        )
        return [row[0] for row in rows]

    def find(self, query: StoryQuery) -> list[StoryHead]:
        source, where, params, order = _listing(query)
        direction = "DESC" if query.descending else "ASC"
        sql = (
            f"SELECT {_HEAD} FROM {source} WHERE {where}"
            f" ORDER BY {order.format(direction)} LIMIT ? OFFSET ?"
        )
        return [_head(row) for row in self._db.rows(sql, [*params, query.limit, query.offset])]

    def count(self, query: StoryQuery) -> int:
        source, where, params, _ = _listing(query)
        row = self._db.row(f"SELECT count(*) FROM {source} WHERE {where}", params)
        return int(row[0]) if row else 0

    def addresses(self, query: StoryQuery) -> list[StoryAddress]:
        """A walk of ``stories_sitemap`` (migration 16) for a sitemap's query."""
        source, where, params, _ = _listing(query)
        rows = self._db.rows(
            f"SELECT s.author_id, s.slug, s.updated FROM {source} WHERE {where}"
            " ORDER BY s.author_id, s.id LIMIT ? OFFSET ?",
            [*params, query.limit, query.offset],
        )
        return [StoryAddress(*row) for row in rows]

    def authors(self, query: StoryQuery) -> list[AuthorLatest]:
        source, where, params, _ = _listing(query)
        rows = self._db.rows(
            f"SELECT s.author_id, max(s.updated) FROM {source} WHERE {where}"
            " GROUP BY s.author_id ORDER BY s.author_id LIMIT ? OFFSET ?",
            [*params, query.limit, query.offset],
        )
        return [AuthorLatest(*row) for row in rows]

    def count_authors(self, query: StoryQuery) -> int:
        source, where, params, _ = _listing(query)
        row = self._db.row(
            f"SELECT count(DISTINCT s.author_id) FROM {source} WHERE {where}", params
        )
        return int(row[0]) if row else 0

    def embeds(self, story_ids: Iterable[str]) -> dict[str, list[EmbedCount]]:
        ids = list(set(story_ids))
        rows = self._db.rows(
            "SELECT s.id, e.href, e.views FROM embeds e JOIN stories s ON s.rowid = e.story_rowid"
            f" WHERE s.id IN ({marks(ids)}) ORDER BY s.id, e.views DESC, e.href",
            ids,
        )
        result: dict[str, list[EmbedCount]] = {}
        for story_id, href, views in rows:
            result.setdefault(story_id, []).append(EmbedCount(href=href, views=views))
        return result

    def author_stats(self, author_ids: Iterable[str]) -> dict[str, AuthorStats]:
        """The counters of migration 10, and the newest creation and features by index seeks."""
        ids = list(set(author_ids))
        figures: dict[str, dict[str, Any]] = {author_id: {} for author_id in ids}
        for author_id, stories, views, embeds, last_story in self._db.rows(
            "SELECT a.author_id, a.stories, a.views, a.embeds, (SELECT max(s.created)"
            " FROM stories s WHERE s.author_id = a.author_id AND s.public = 1)"
            f" FROM author_stats a WHERE a.author_id IN ({marks(ids)}) AND a.stories > 0",
            ids,
        ):
            figures[author_id].update(
                stories=stories, views=views, embeds=embeds, last_story=last_story
            )
        for author_id, story_id, featured_at in self._db.rows(
            "SELECT author_id, id, featured_at FROM stories WHERE public = 1"
            f" AND featured_at IS NOT NULL AND author_id IN ({marks(ids)})"
            " ORDER BY featured_at DESC, id DESC",
            ids,
        ):
            found = figures[author_id]
            found.setdefault("featured", featured_at)  # the newest comes first
            found.setdefault("featured_stories", []).append(story_id)
        return {
            author_id: construct_trusted(AuthorStats, found) for author_id, found in figures.items()
        }

    def iter_all(self) -> Iterator[tuple[StoryRecord, list[Element]]]:
        after = ""
        while True:
            row = self._db.row("SELECT id FROM stories WHERE id > ? ORDER BY id LIMIT 1", (after,))
            if row is None:
                return
            after = row[0]
            story = self.get(after)
            if story is not None:  # removed meanwhile
                documents = self.element_documents(story.id, 0, 2**31)
                yield story, [element_of(document) for document in documents]


def _listing(query: StoryQuery) -> tuple[str, str, list[Any], str]:
    """The rows of a list query: what they are read from, the condition and its parameters,
    and the order (``{0}`` for its direction). A public list of one tag or topic in publication
    order walks that label's own index."""
    public = query.audience == "public"
    labels = [("story_tags", "tag", query.tag), ("story_topics", "topic", query.topic)]
    walked = None
    if public and query.sort == "published":
        walked = next((label for label in labels if label[2] is not None), None)
    where: list[str] = []
    params: list[Any] = []
    if walked is not None:
        table, column, value = walked
        source = f"{table} l JOIN stories s ON s.rowid = l.story_rowid"
        where.append(f"l.{column} = ? AND l.public = 1")
        params.append(value)
        order = "l.published {0}, l.story_id {0}"
    else:
        source = "stories s"
        order = f"s.{query.sort} {{0}}, s.id {{0}}"
    if public:
        where.append("s.public = 1")  # the literal form that selects the partial indexes
    conditions = [
        ("s.status = ?", query.status),
        ("s.author_id = ?", query.author_id),
        ("s.slug = ?", query.slug),
        *(
            (f"s.rowid IN (SELECT story_rowid FROM {table} WHERE {column} = ?)", value)
            for table, column, value in labels
            if (table, column, value) != walked
        ),
        (
            "s.rowid IN (SELECT story_rowid FROM elements WHERE permalink = ?)",
            query.containing_element,
        ),
    ]
    for condition, value in conditions:
        if value is not None:
            where.append(condition)
            params.append(value)
    if query.featured:
        where.append("s.featured_at IS NOT NULL")
    if query.indexed:
        where.append(INDEXED)  # as ``stories_sitemap`` holds it
    return source, " AND ".join(where) or "1", params, order


class SQLiteSearch(Repository, SearchIndex):
    """FTS5 over normalized tokens, walked newest publication first (``_sqlite_search``)."""

    def search(self, words: Sequence[str], offset: int, limit: int) -> list[StoryRecord]:
        return [_story(row) for row in self._found(words, offset, limit)]

    def search_stored(self, words: Sequence[str], offset: int, limit: int) -> list[Stored]:
        return [stored_story(_stored(row)) for row in self._found(words, offset, limit)]

    def _found(self, words: Sequence[str], offset: int, limit: int) -> list[tuple[Any, ...]]:
        if not words:
            return []
        return self._db.rows(SEARCH.format(columns=_STORY), (_match(words), limit, offset))

    def count(self, words: Sequence[str]) -> int:
        if not words:
            return 0
        row = self._db.row(COUNT, (_match(words),))
        return int(row[0]) if row else 0


def _match(words: Sequence[str]) -> str:
    """The FTS5 query holding every one of ``words``."""
    # tokens are letters and digits only, so quoting each as an FTS5 phrase is safe
    return " AND ".join(f'"{word}"' for word in words)
