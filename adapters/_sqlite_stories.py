"""Stories, their elements, aliases, counters and search on SQLite."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable, Iterator, MutableMapping, Sequence
from typing import Any

import orjson

from storycore.errors import DuplicateKey, Missing, StaleVersion
from storycore.heads import StoryHead
from storycore.ports import AliasRepository, NewStory, SearchIndex, StoryRepository
from storycore.queries import StoryQuery
from storycore.records import (
    AuthorStats,
    Element,
    EmbedCount,
    StoryRecord,
    element_document,
    element_of,
    trusted_story,
)
from storycore.searchtext import token_text

from ._sqlite_connection import Connection

__all__ = ["SQLiteAliases", "SQLiteSearch", "SQLiteStories"]

# Counters and featured_at live in their own columns (updated in place); the rest in ``record``.
_COLUMN_MEMBERS = ("views", "likes", "comments", "element_comments", "popularity", "featured_at")
COLUMNS = "s.record, " + ", ".join(f"s.{name}" for name in _COLUMN_MEMBERS)
_RECORD_EXCLUDE = set(_COLUMN_MEMBERS)


def story_from_row(row: Sequence[Any]) -> StoryRecord:
    data = orjson.loads(row[0])
    data.update(zip(_COLUMN_MEMBERS, row[1:], strict=True))
    return trusted_story(data)


# a story's head, read without decoding its record in Python
_HEAD_COLUMNS = (
    "s.id, s.author_id, json_extract(s.record, '$.title'), s.slug,"
    " json_extract(s.record, '$.description'), json_extract(s.record, '$.thumbnail'),"
    " json_extract(s.record, '$.cover'), s.created, s.updated, s.status, s.private"
)


def _head(row: tuple[Any, ...]) -> StoryHead:
    return StoryHead._make((*row[:-1], bool(row[-1])))  # ``private`` is stored as 0 or 1


def record_json(story: StoryRecord) -> str:
    return story.model_dump_json(exclude=_RECORD_EXCLUDE)


def _public(story: StoryRecord) -> int:
    return int(story.is_public)


def _marks(values: Collection[Any]) -> str:
    return ",".join("?" * len(values))


def _match_expression(words: Sequence[str]) -> str:
    # Tokens are letters and digits only, so quoting each as an FTS5 phrase is safe.
    return " AND ".join(f'"{word}"' for word in words)


def _add_page(
    conn: sqlite3.Connection, story_id: str, href: str, loads: int, max_pages: int
) -> None:
    """The first loads of a page of a story's embed: the story keeps its ``max_pages - 1`` first
    other pages in ``embeds`` order, then this one (``StoryRepository.add_views``). A story
    holds at most ``max_pages`` rows, so this reads a bounded handful.
    """
    found = conn.execute("SELECT rowid FROM stories WHERE id = ?", (story_id,)).fetchone()
    if found is None:
        return
    conn.execute(
        "DELETE FROM embeds WHERE story_rowid = ?1 AND href IN (SELECT href FROM embeds"
        " WHERE story_rowid = ?1 ORDER BY views DESC, href LIMIT -1 OFFSET ?2)",
        (found[0], max_pages - 1),
    )
    conn.execute(
        "INSERT INTO embeds (story_rowid, href, views) VALUES (?, ?, ?)", (found[0], href, loads)
    )


class SQLiteStories(StoryRepository):
    """Stories, kept in step with their tags, topics, element rows and search entry."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    # -- writes --------------------------------------------------------------------------

    def add(self, story: StoryRecord, elements: Sequence[Element], words: Sequence[str]) -> None:
        with self._db.write() as conn:
            self._insert(conn, story, elements, words)

    def add_many(self, stories: Iterable[NewStory]) -> int:
        """All in one transaction: every story is stored, or none. The write lock is held while
        ``stories`` is consumed, so other writers wait for the whole load.
        """
        count = 0
        with self._db.write() as conn:
            for story, elements, words in stories:
                self._insert(conn, story, elements, words)
                count += 1
        return count

    def _insert(
        self,
        conn: sqlite3.Connection,
        story: StoryRecord,
        elements: Sequence[Element],
        words: Sequence[str],
    ) -> None:
        """Insert one story inside the caller's transaction."""
        try:
            cursor = conn.execute(
                "INSERT INTO stories (id, author_id, slug, status, private, public, version,"
                " created, updated, published, featured_at, title_key, record, views, likes,"
                " comments, element_comments, popularity)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    story.id,
                    story.author_id,
                    story.slug,
                    story.status,
                    int(story.private),
                    _public(story),
                    story.version,
                    story.created,
                    story.updated,
                    story.published,
                    story.featured_at,
                    story.title_key,
                    record_json(story),
                    story.views,
                    story.likes,
                    story.comments,
                    story.element_comments,
                    story.popularity,
                ),
            )
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc
        rowid = cursor.lastrowid
        assert rowid is not None
        conn.execute(
            "DELETE FROM aliases WHERE author_id = ? AND slug = ?", (story.author_id, story.slug)
        )
        self.write_labels(conn, rowid, story, replacing=False)
        self._write_search_order(conn, rowid, story, replacing=False)
        self._write_elements(conn, rowid, elements)
        conn.execute(
            "INSERT INTO story_search (rowid, story, author)"
            " VALUES (?, ?, (SELECT search_text FROM users WHERE id = ?))",
            (rowid, token_text(words), story.author_id),
        )

    def replace(
        self,
        story: StoryRecord,
        *,
        expected_version: int,
        elements: Sequence[Element] | None = None,
        words: Sequence[str] | None = None,
    ) -> None:
        try:
            with self._db.write() as conn:
                row = conn.execute(
                    "SELECT rowid, version, slug, author_id FROM stories WHERE id = ?",
                    (story.id,),
                ).fetchone()
                if row is None:
                    raise Missing("story")
                rowid, version, old_slug, author_id = row
                if version != expected_version:
                    raise StaleVersion(version)
                if story.author_id != author_id:  # a story never changes author
                    story = story.model_copy(update={"author_id": author_id})
                conn.execute(
                    "UPDATE stories SET slug = ?, status = ?, private = ?, public = ?, version = ?,"
                    " updated = ?, published = ?, title_key = ?, record = ? WHERE rowid = ?",
                    (
                        story.slug,
                        story.status,
                        int(story.private),
                        _public(story),
                        story.version,
                        story.updated,
                        story.published,
                        story.title_key,
                        record_json(story),
                        rowid,
                    ),
                )
                if old_slug != story.slug:
                    conn.execute(
                        "DELETE FROM aliases WHERE author_id = ? AND slug = ?",
                        (story.author_id, story.slug),
                    )
                    conn.execute(
                        "INSERT INTO aliases (author_id, slug, story_rowid) VALUES (?, ?, ?)",
                        (story.author_id, old_slug, rowid),
                    )
                self.write_labels(conn, rowid, story, replacing=True)
                self._write_search_order(conn, rowid, story, replacing=True)
                if elements is not None:
                    conn.execute("DELETE FROM elements WHERE story_rowid = ?", (rowid,))
                    self._write_elements(conn, rowid, elements)
                if words is not None:
                    conn.execute(
                        "UPDATE story_search SET story = ? WHERE rowid = ?",
                        (token_text(words), rowid),
                    )
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc

    @staticmethod
    def write_labels(
        conn: sqlite3.Connection, rowid: int, story: StoryRecord, *, replacing: bool
    ) -> None:
        """Write the story's tag and topic rows inside the caller's transaction; ``replacing``
        removes those it had first (a new story has none)."""
        # each label row copies the story's sort key, so a label's public list is one index walk
        keys = (rowid, _public(story), story.published, story.id)
        for table, column, values in (
            ("story_tags", "tag", story.tags),
            ("story_topics", "topic", story.topic_keys),
        ):
            if replacing:
                conn.execute(f"DELETE FROM {table} WHERE story_rowid = ?", (rowid,))
            conn.executemany(
                f"INSERT OR IGNORE INTO {table}"
                f" ({column}, story_rowid, public, published, story_id) VALUES (?, ?, ?, ?, ?)",
                [(value, *keys) for value in values],
            )

    @staticmethod
    def _write_search_order(
        conn: sqlite3.Connection, rowid: int, story: StoryRecord, *, replacing: bool
    ) -> None:
        if replacing:
            conn.execute("DELETE FROM search_order WHERE story_rowid = ?", (rowid,))
        if story.is_public:
            conn.execute(
                "INSERT INTO search_order (story_rowid, published, story_id) VALUES (?, ?, ?)",
                (rowid, story.published, story.id),
            )

    @staticmethod
    def _write_elements(conn: sqlite3.Connection, rowid: int, elements: Sequence[Element]) -> None:
        conn.executemany(
            "INSERT INTO elements (story_rowid, position, permalink, record) VALUES (?, ?, ?, ?)",
            [
                (rowid, position, element.permalink, element_document(element))
                for position, element in enumerate(elements)
            ],
        )

    def remove(self, story_id: str) -> bool:
        with self._db.write() as conn:
            row = conn.execute("SELECT rowid FROM stories WHERE id = ?", (story_id,)).fetchone()
            if row is None:
                return False
            conn.execute("DELETE FROM story_search WHERE rowid = ?", (row[0],))
            conn.execute("DELETE FROM stories WHERE rowid = ?", (row[0],))
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
            conn.executemany(
                "UPDATE stories SET views = views + ?1, popularity = popularity + ?1 WHERE id = ?2",
                [(count, story_id) for story_id, count in views.items()],
            )
            for (story_id, page), loads in embeds.items():
                counted = conn.execute(
                    "UPDATE embeds SET views = views + ?"
                    " WHERE story_rowid = (SELECT rowid FROM stories WHERE id = ?) AND href = ?",
                    (loads, story_id, page),
                )
                if counted.rowcount == 0:
                    _add_page(conn, story_id, page, loads, max_embed_pages)

    # -- reads ---------------------------------------------------------------------------

    def get(self, story_id: str) -> StoryRecord | None:
        row = self._db.row(f"SELECT {COLUMNS} FROM stories s WHERE s.id = ?", (story_id,))
        return story_from_row(row) if row else None

    def get_by_slug(self, author_id: str, slug: str) -> StoryRecord | None:
        row = self._db.row(
            f"SELECT {COLUMNS} FROM stories s WHERE s.author_id = ? AND s.slug = ?",
            (author_id, slug),
        )
        return story_from_row(row) if row else None

    def taken_slugs(self, author_id: str, slugs: Collection[str]) -> set[str]:
        rows = self._db.rows(
            f"SELECT slug FROM stories WHERE author_id = ? AND slug IN ({_marks(slugs)})",
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
        public_only = query.audience == "public"
        labels = [
            ("story_tags", "tag", query.tag),
            ("story_topics", "topic", query.topic),
        ]
        walked = None
        if public_only and query.sort == "published":
            # a public list of one tag or topic in publication order walks that label's own index
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
        if public_only:
            where.append("s.public = 1")  # the literal form that selects the partial indexes
        conditions = [
            ("s.status = ?", query.status if not public_only else None),
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
        direction = "DESC" if query.descending else "ASC"
        sql = (
            f"SELECT {_HEAD_COLUMNS} FROM {source} WHERE {' AND '.join(where) or '1'}"
            f" ORDER BY {order.format(direction)} LIMIT ? OFFSET ?"
        )
        return [_head(row) for row in self._db.rows(sql, [*params, query.limit, query.offset])]

    def embeds(self, story_ids: Iterable[str]) -> dict[str, list[EmbedCount]]:
        ids = list(set(story_ids))
        if not ids:
            return {}
        rows = self._db.rows(
            "SELECT s.id, e.href, e.views FROM embeds e JOIN stories s ON s.rowid = e.story_rowid"
            f" WHERE s.id IN ({','.join('?' * len(ids))})"
            " ORDER BY s.id, e.views DESC, e.href",
            ids,
        )
        result: dict[str, list[EmbedCount]] = {}
        for story_id, href, views in rows:
            result.setdefault(story_id, []).append(EmbedCount(href=href, views=views))
        return result

    def author_stats(self, author_ids: Iterable[str]) -> dict[str, AuthorStats]:
        ids = list(set(author_ids))
        result = {author_id: AuthorStats() for author_id in ids}
        if not ids:
            return result
        marks = ",".join("?" * len(ids))
        for author_id, stories, views, last_story, featured in self._db.rows(
            "SELECT author_id, COUNT(*), SUM(views), MAX(created), MAX(featured_at)"
            f" FROM stories WHERE public = 1 AND author_id IN ({marks}) GROUP BY author_id",
            ids,
        ):
            stats = result[author_id]
            stats.stories, stats.views = stories, views
            stats.last_story, stats.featured = last_story, featured
        for author_id, embeds in self._db.rows(
            "SELECT s.author_id, SUM(e.views) FROM embeds e JOIN stories s"
            f" ON s.rowid = e.story_rowid WHERE s.public = 1 AND s.author_id IN ({marks})"
            " GROUP BY s.author_id",
            ids,
        ):
            result[author_id].embeds = embeds
        for author_id, story_id in self._db.rows(
            "SELECT author_id, id FROM stories WHERE public = 1 AND featured_at IS NOT NULL"
            f" AND author_id IN ({marks}) ORDER BY featured_at DESC, id DESC",
            ids,
        ):
            result[author_id].featured_stories.append(story_id)
        return result

    def iter_all(self) -> Iterator[tuple[StoryRecord, list[Element]]]:
        after = ""
        while True:
            row = self._db.row(
                "SELECT s.id FROM stories s WHERE s.id > ? ORDER BY s.id LIMIT 1", (after,)
            )
            if row is None:
                return
            after = row[0]
            story = self.get(after)
            if story is not None:  # removed meanwhile
                documents = self.element_documents(story.id, 0, 2**31)
                yield story, [element_of(document) for document in documents]


class SQLiteAliases(AliasRepository):
    """Retired slugs, pointing at the story's rowid."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def resolve(self, author_id: str, slug: str) -> str | None:
        row = self._db.row(
            "SELECT s.id FROM aliases a JOIN stories s ON s.rowid = a.story_rowid"
            " WHERE a.author_id = ? AND a.slug = ?",
            (author_id, slug),
        )
        return row[0] if row else None


class SQLiteSearch(SearchIndex):
    """FTS5 over normalized tokens; public stories only, newest publication first."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def search(self, words: Sequence[str], offset: int, limit: int) -> list[StoryRecord]:
        if not words:
            return []
        # Order the matches by the small ``search_order`` rows (public stories only) and only
        # then fetch the records of one page: reading each match's whole row to sort it cost
        # several times more.
        rows = self._db.rows(
            "WITH hits AS (SELECT o.story_rowid AS hit, o.published AS published, o.story_id AS id"
            " FROM story_search f JOIN search_order o ON o.story_rowid = f.rowid"
            " WHERE story_search MATCH ?"
            " ORDER BY o.published DESC, o.story_id DESC LIMIT ? OFFSET ?)"
            f" SELECT {COLUMNS} FROM hits JOIN stories s ON s.rowid = hits.hit"
            " ORDER BY hits.published DESC, hits.id DESC",
            (_match_expression(words), limit, offset),
        )
        return [story_from_row(row) for row in rows]


def _refused(exc: sqlite3.IntegrityError) -> Exception:
    """The storage error for a story the database refused (other faults pass through)."""
    text = str(exc)
    if "stories.author_id, stories.slug" in text:
        return DuplicateKey("story.slug")
    if "stories.id" in text:
        return DuplicateKey("story.id")
    if "FOREIGN KEY" in text:
        return Missing("user")
    return exc
