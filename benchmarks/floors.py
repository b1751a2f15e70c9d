"""The floor: the fastest hand-written code for the same answers, on the same SQLite file.

Raw ``sqlite3`` queries, the stored JSON passed through as ``orjson.Fragment`` wherever the
answer holds it unchanged, and ``orjson`` for the rest (``_floor_json``, shared with the
PostgreSQL floor in ``pg_floor.py``). Each read returns the very bytes storycore's HTTP layer
sends (the harness compares them), so the ratio of the two throughputs measures storycore's
own cost.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, Protocol

import orjson

from benchmarks._floor_json import Fragment, answer, full, new_stats, page, summary
from storycore.adapters.sqlite._search import free_key
from storycore.model.derived import story_words
from storycore.model.records import Element, StoryRecord, UserRecord
from storycore.rules.searchtext import token_text

__all__ = ["COUNTERS", "Floor", "SQLiteFloor"]

#: The members a story's stored record leaves out: they live in their columns alone.
COUNTERS = {"views", "likes", "comments", "element_comments", "popularity", "featured_at"}


class Floor(Protocol):
    """What the harness asks of a floor, on any backend."""

    def read_story(self, username: str, slug: str) -> bytes: ...
    def latest(self, page: int) -> bytes: ...
    def by_tag(self, tag: str) -> bytes: ...
    def user_list(self, username: str) -> bytes: ...
    def search(self, words: list[str], number: int = 1) -> bytes: ...

    def prepare_story(
        self, record: StoryRecord, elements: Sequence[Element], author: UserRecord
    ) -> Any:
        """The rows a hand-written create writes for a new story (made before timing)."""

    def insert_story(self, rows: Any, story_id: str, slug: str) -> None:
        """Insert prepared rows as the story ``story_id`` at ``slug``, in one transaction."""

    def update_story(self, story: StoryRecord, changed: StoryRecord) -> None:
        """Replace ``story`` (as stored) with ``changed``, checking its version."""

    def close(self) -> None:
        """Write what the floor holds back, and close its connection."""


class SQLiteFloor:
    """Hand-written queries over one storycore SQLite file."""

    def __init__(self, path: str, web_url: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA synchronous = NORMAL")  # the durability storycore's writes have
        self.web_url = web_url

    def close(self) -> None:
        self.db.close()

    def _user(self, user_id: str) -> dict[str, Any]:
        row = self.db.execute("SELECT record FROM users WHERE id = ?", (user_id,)).fetchone()
        return orjson.loads(row[0])  # type: ignore[no-any-return]

    def read_story(self, username: str, slug: str) -> bytes:
        user_row = self.db.execute(
            "SELECT id, record FROM users WHERE username_key = ?", (username.lower(),)
        ).fetchone()
        row = self.db.execute(
            "SELECT rowid, record, public FROM stories WHERE author_id = ? AND slug = ?",
            (user_row[0], slug),
        ).fetchone()
        assert row[2] == 1
        elements = self.db.execute(
            "SELECT record FROM elements WHERE story_rowid = ? ORDER BY position LIMIT 21",
            (row[0],),
        ).fetchall()
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute(
            "UPDATE stories SET views = views + 1, popularity = popularity + 1 WHERE rowid = ?",
            (row[0],),
        )
        self.db.execute("COMMIT")
        story, author = orjson.loads(row[1]), orjson.loads(user_row[1])
        content = summary(story, author)
        content.update(
            version=story["version"],
            permalink=f"{self.web_url}/{author['username']}/{story['slug']}",
            shortlink=f"{self.web_url}/s/{story['id']}",
            publish_at=story["publish_at"],
            page=1,
            per_page=20,
            elements=[Fragment(e[0]) for e in elements[:20]],
        )
        return answer(content)

    def _list(
        self,
        where: str,
        params: tuple[Any, ...],
        number: int,
        tables: str = "stories s",
        order: str = "s.published DESC, s.id DESC",
    ) -> bytes:
        # the author's record is looked up for the page's rows only, not joined for the scan
        rows = self.db.execute(
            "SELECT s.record, (SELECT u.record FROM users u WHERE u.id = s.author_id)"
            f" FROM {tables} WHERE {where} ORDER BY {order} LIMIT 21 OFFSET ?",
            (*params, (number - 1) * 20),
        ).fetchall()
        return page(number, [summary(orjson.loads(s), orjson.loads(u)) for s, u in rows[:20]])

    def latest(self, page: int) -> bytes:
        return self._list("s.public = 1", (), page)

    def by_tag(self, tag: str) -> bytes:
        # the tag's rows carry the sort key: one walk of the tag's partial index
        return self._list(
            "l.tag = ? AND l.public = 1 AND s.rowid = l.story_rowid",
            (tag,),
            1,
            tables="story_tags l, stories s",
            order="l.published DESC, l.story_id DESC",
        )

    def user_list(self, username: str) -> bytes:
        user_id = self.db.execute(
            "SELECT id FROM users WHERE username_key = ?", (username.lower(),)
        ).fetchone()[0]
        return self._list("s.public = 1 AND s.author_id = ?", (user_id,), 1)

    def search(self, words: list[str], number: int = 1) -> bytes:
        # FTS5 rowids follow (publication, id): the walk stops after the page
        rows = self.db.execute(
            "WITH hits AS (SELECT rowid AS key FROM story_search WHERE story_search MATCH ?"
            " AND rowid > 0 ORDER BY rowid DESC LIMIT 21 OFFSET ?)"
            " SELECT s.record, s.views, s.likes, s.comments, s.element_comments, s.popularity,"
            " s.author_id FROM hits JOIN search_order o ON o.key = hits.key"
            " JOIN stories s ON s.rowid = o.story_rowid ORDER BY hits.key DESC",
            (" AND ".join(f'"{w}"' for w in words), (number - 1) * 20),
        ).fetchall()[:20]
        authors = {a: self._user(a) for a in {r[6] for r in rows}}
        stats = self._author_stats(list(authors))
        embeds = self._embeds([orjson.loads(r[0])["id"] for r in rows]) if rows else {}
        stories = [full(r, authors[r[6]], stats[r[6]], embeds, self.web_url) for r in rows]
        return page(number, stories)

    def _author_stats(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        marks = ",".join("?" * len(ids))
        stats = new_stats(ids)
        for author, count, views, embeds, last in self.db.execute(
            "SELECT a.author_id, a.stories, a.views, a.embeds, (SELECT max(s.created) FROM"
            " stories s WHERE s.author_id = a.author_id AND s.public = 1) FROM author_stats a"
            f" WHERE a.author_id IN ({marks}) AND a.stories > 0",
            ids,
        ):
            stats[author].update(stories=count, views=views, embeds=embeds, last=last)
        for author, story_id, featured in self.db.execute(
            "SELECT author_id, id, featured_at FROM stories WHERE public = 1"
            f" AND featured_at IS NOT NULL AND author_id IN ({marks})"
            " ORDER BY featured_at DESC, id DESC",
            ids,
        ):
            stats[author]["featured"] = stats[author]["featured"] or featured
            stats[author]["ids"].append(story_id)
        return stats

    def _embeds(self, story_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = {}
        for story_id, href, views in self.db.execute(
            "SELECT s.id, e.href, e.views FROM embeds e JOIN stories s ON s.rowid = e.story_rowid"
            f" WHERE s.id IN ({','.join('?' * len(story_ids))})"
            " ORDER BY s.id, e.views DESC, e.href",
            story_ids,
        ):
            found.setdefault(story_id, []).append({"href": href, "views": views})
        return found

    # -- writes: the same rows, prepared beforehand; only the SQL is timed ----------------------

    def prepare_story(
        self, record: StoryRecord, elements: Sequence[Element], author: UserRecord
    ) -> dict[str, Any]:
        return {
            "story": (record.id, author.id, record.slug, record.status, int(record.private),
                      int(record.is_public), 1, record.created, record.updated, record.published,
                      None, record.title_key, record.model_dump_json(exclude=COUNTERS)),
            "elements": [(p, e.permalink, e.model_dump_json()) for p, e in enumerate(elements)],
            "tags": record.tags,
            "topics": record.topic_keys,
            "tokens": token_text(story_words(record, elements)),
            "author_tokens": token_text(author.search_tokens),
        }  # fmt: skip

    def insert_story(self, rows: dict[str, Any], story_id: str, slug: str) -> None:
        # the record names the row's id and slug, as storycore's would: storycore reads the
        # stories the floor wrote (its pages are measured after the writes)
        record = {**orjson.loads(rows["story"][-1]), "id": story_id, "slug": slug}
        story = (
            story_id,
            rows["story"][1],
            slug,
            *rows["story"][3:-1],
            orjson.dumps(record).decode(),
        )
        self.db.execute("BEGIN IMMEDIATE")
        cursor = self.db.execute(
            "INSERT INTO stories (id, author_id, slug, status, private, public, version, created,"
            " updated, published, featured_at, title_key, record)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            story,
        )
        rowid = cursor.lastrowid
        assert rowid is not None  # an INSERT sets it
        self.db.executemany(
            "INSERT INTO elements (story_rowid, position, permalink, record) VALUES (?,?,?,?)",
            [(rowid, *element) for element in rows["elements"]],
        )
        public, published = story[5], story[9]
        for table, column, member in (
            ("story_tags", "tag", "tags"),
            ("story_topics", "topic", "topics"),
        ):
            self.db.executemany(
                f"INSERT INTO {table} ({column}, story_rowid, public, published, story_id)"
                " VALUES (?, ?, ?, ?, ?)",
                [(label, rowid, public, published, story_id) for label in rows[member]],
            )
        key = -rowid  # the search row's place: a key in publication order when public
        if public:
            key = free_key(self.db, published, story_id)
            self.db.execute(
                "INSERT INTO search_order (key, story_rowid, published, story_id)"
                " VALUES (?, ?, ?, ?)",
                (key, rowid, published, story_id),
            )
        self.db.execute(
            "INSERT INTO story_search (rowid, story, author) VALUES (?, ?, ?)",
            (key, rows["tokens"], rows["author_tokens"]),
        )
        self.db.execute("COMMIT")

    def update_story(self, story: StoryRecord, changed: StoryRecord) -> None:
        """The record and version in one transaction. The floor leaves the search words out
        (an empty search entry), as it did when the read path left them out."""
        record = changed.model_dump_json(exclude=COUNTERS).encode()
        self.db.execute("BEGIN IMMEDIATE")
        row = self.db.execute(
            "SELECT rowid FROM stories WHERE id = ? AND version = ?", (story.id, story.version)
        ).fetchone()
        self.db.execute(
            "UPDATE stories SET record = ?, version = ?, updated = ? WHERE rowid = ?",
            (record, story.version + 1, "2026-01-01T00:00:00.000Z", row[0]),
        )
        self.db.execute(
            "UPDATE story_search SET story = ?"
            " WHERE rowid = (SELECT key FROM search_order WHERE story_rowid = ?)",
            ("", row[0]),
        )
        self.db.execute("COMMIT")
