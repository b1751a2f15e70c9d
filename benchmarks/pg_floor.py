"""The PostgreSQL floor: the fastest hand-written code for the same answers, on the same schema.

Raw psycopg 3 queries on one connection in autocommit (psycopg prepares a statement on the
server after its fifth run, as it does for storycore's pooled connections), over the tables
and indexes the adapter made (``adapters/postgresql/_schema.py``). Each read is one statement where
SQL can say it in one (a story read: its author, its row and its first page of elements; a
user's list: the author's id and the page), reads the columns it answers rather than whole
records, and builds its answer with ``_floor_json``, shared with the SQLite floor, passing the
stored element documents through unchanged. Views are counted as storycore counts them on
every backend (docs/decisions.md#serving): in memory, added to the database once a second.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import orjson
import psycopg

from benchmarks._floor_json import Fragment, answer, full, new_stats, page, summary
from benchmarks.floors import COUNTERS
from storycore.model.derived import story_words
from storycore.model.records import Element, StoryRecord, UserRecord, element_document

__all__ = ["PostgreSQLFloor"]

#: The members the adapter's stored record leaves out: they live in their columns alone.
_KEPT = {*COUNTERS, "author_id"}
#: The summary's members, each a column of ``stories``.
_NAMES = ("id", "title", "slug", "description", "thumbnail", "cover", "created", "updated",
          "status", "private")  # fmt: skip
_SUMMARY = ", ".join(f"s.{name}" for name in _NAMES)
_ORDER = "ORDER BY s.published DESC NULLS LAST, s.id DESC"  # stories_public_published's order
_COLUMNS = (
    "id, author_id, slug, title, description, thumbnail, cover, status, private, public,"
    " version, created, updated, published, featured_at, title_key, views, likes, comments,"
    " element_comments, popularity, tags, topic_keys, element_permalinks, words, search, record"
)
_INSERT = (
    f"WITH story AS (INSERT INTO stories ({_COLUMNS}) VALUES"
    f" ({', '.join(f'%({name})s' for name in _COLUMNS.split(', '))}))"
    " INSERT INTO elements (story_id, position, document) SELECT %(id)s, n - 1, document"
    " FROM unnest(%(documents)s::text[]) WITH ORDINALITY AS e(document, n)"
)
_VIEWS_SECONDS = 1.0


def _conninfo(url: str) -> str:
    """libpq's connection string for a storage URL: its ``schema`` as the search path."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query)
    schema = dict(query).get("schema", "public")
    rest = urlencode([(key, value) for key, value in query if key != "schema"])
    return psycopg.conninfo.make_conninfo(
        urlunsplit(parts._replace(query=rest)), options=f"-c search_path={schema}"
    )


class PostgreSQLFloor:
    """Hand-written queries over one storycore PostgreSQL schema, on one connection."""

    def __init__(self, url: str, web_url: str) -> None:
        self.db = psycopg.connect(_conninfo(url), autocommit=True)
        self.web_url = web_url
        self._views: Counter[str] = Counter()
        self._counted = time.monotonic()

    def close(self) -> None:
        self._add_views()
        self.db.close()

    def vacuum(self) -> None:
        """Bring the loaded tables to the state autovacuum leaves them in within a minute of a
        bulk load, so that no measurement depends on when it runs: the GIN indexes' pending
        lists merged (every search scans them), the visibility map set, statistics fresh."""
        self.db.execute("VACUUM (ANALYZE) stories, elements, users")

    def server(self) -> str:
        """The server's version and the settings that weigh on the figures."""
        names = ("fsync", "synchronous_commit", "full_page_writes", "wal_level", "shared_buffers")
        row = self.db.execute(
            "SELECT current_setting('server_version'), "
            + ", ".join(f"current_setting('{name}')" for name in names)
        ).fetchone()
        assert row is not None
        settings = ", ".join(f"{name}={value}" for name, value in zip(names, row[1:], strict=True))
        return f"PostgreSQL {row[0]}; {settings}"

    # -- reads ----------------------------------------------------------------------------

    def read_story(self, username: str, slug: str) -> bytes:
        row = self.db.execute(
            f"SELECT {_SUMMARY}, s.public, u.record, array(SELECT document FROM elements"
            " WHERE story_id = s.id ORDER BY position LIMIT 21), s.version, s.publish_at"
            " FROM users u JOIN stories s ON s.author_id = u.id"
            " WHERE u.username_key = %s AND s.slug = %s",
            (username.lower(), slug),
        ).fetchone()
        assert row is not None
        assert row[10]  # public
        self._count_view(row[0])
        author = orjson.loads(row[11])
        content = summary(dict(zip(_NAMES, row, strict=False)), author)
        content.update(
            version=row[13],
            permalink=f"{self.web_url}/{author['username']}/{row[2]}",
            shortlink=f"{self.web_url}/s/{row[0]}",
            publish_at=row[14],
            page=1,
            per_page=20,
            elements=[Fragment(e) for e in row[12][:20]],
        )
        return answer(content)

    def _count_view(self, story_id: str) -> None:
        self._views[story_id] += 1
        if time.monotonic() - self._counted >= _VIEWS_SECONDS:
            self._add_views()

    def _add_views(self) -> None:
        """The views counted since the last time, in one statement (the popularity too)."""
        views, self._views, self._counted = self._views, Counter(), time.monotonic()
        if views:
            self.db.execute(
                "UPDATE stories s SET views = s.views + v.n, popularity = s.popularity + v.n"
                " FROM unnest(%s::text[], %s::bigint[]) AS v(id, n) WHERE s.id = v.id",
                (list(views), list(views.values())),
            )

    def _list(self, where: str, params: tuple[Any, ...], number: int) -> bytes:
        """A page of public stories: the page's rows first, then their authors' records (an
        index probe for each row of the page, none for the rows an offset skips)."""
        rows = self.db.execute(
            "SELECT s.*, (SELECT record FROM users u WHERE u.id = s.author_id)"
            f" FROM (SELECT {_SUMMARY}, s.author_id FROM stories s WHERE s.public AND {where}"
            f" {_ORDER} LIMIT 21 OFFSET %s) s",
            (*params, (number - 1) * 20),
        ).fetchall()
        authors: dict[str, Any] = {}  # each author's record parsed once a page
        stories = []
        for row in rows[:20]:
            author = authors.get(row[10])
            if author is None:
                author = authors[row[10]] = orjson.loads(row[11])
            stories.append(summary(dict(zip(_NAMES, row, strict=False)), author))
        return page(number, stories)

    def latest(self, page: int) -> bytes:
        return self._list("TRUE", (), page)

    def by_tag(self, tag: str) -> bytes:
        return self._list("s.tags @> ARRAY[%s]::text[]", (tag,), 1)

    def user_list(self, username: str) -> bytes:
        return self._list(
            "s.author_id = (SELECT id FROM users WHERE username_key = %s)", (username.lower(),), 1
        )

    def search(self, words: list[str], number: int = 1) -> bytes:
        rows = self.db.execute(
            "SELECT s.record, s.views, s.likes, s.comments, s.element_comments, s.popularity,"
            " s.author_id, s.id FROM stories s WHERE s.public AND s.search @> %s::text[]"
            f" {_ORDER} LIMIT 21 OFFSET %s",
            (words, (number - 1) * 20),
        ).fetchall()[:20]
        if not rows:
            return page(number, [])
        author_ids = list({row[6] for row in rows})
        authors, stats = self._authors(author_ids)
        embeds = self._embeds([row[7] for row in rows])
        stories = [full(r, authors[r[6]], stats[r[6]], embeds, self.web_url) for r in rows]
        return page(number, stories)

    def _authors(self, ids: list[str]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """The authors' records and stats (over their public stories), in one statement."""
        stats = new_stats(ids)
        users = {}
        for author, record, count, views, embeds, last, featured, featured_ids in self.db.execute(
            "SELECT u.id, u.record, a.stories, a.views, a.embeds,"
            " (SELECT max(created) FROM stories s WHERE s.author_id = u.id AND public), f.*"
            " FROM users u LEFT JOIN author_stats a ON a.author_id = u.id,"
            " LATERAL (SELECT max(featured_at), array_agg(id ORDER BY featured_at DESC, id DESC)"
            " FROM stories s WHERE s.author_id = u.id AND public AND featured_at IS NOT NULL) f"
            " WHERE u.id = ANY(%s::text[])",
            (ids,),
        ):
            users[author] = orjson.loads(record)
            if count:
                stats[author].update(stories=count, views=views, last=last, featured=featured)
                stats[author].update(ids=featured_ids or [], embeds=embeds)
        return users, stats

    def _embeds(self, story_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = {}
        for story_id, href, views in self.db.execute(
            "SELECT story_id, href, views FROM embeds WHERE story_id = ANY(%s::text[])"
            " ORDER BY story_id, views DESC, href",
            (story_ids,),
        ):
            found.setdefault(story_id, []).append({"href": href, "views": views})
        return found

    # -- writes: the same rows, prepared beforehand; only the SQL is timed ----------------------

    def prepare_story(
        self, record: StoryRecord, elements: Sequence[Element], author: UserRecord
    ) -> dict[str, Any]:
        words = list(story_words(record, elements))
        computed = {"public", "words", "search", "record"}
        return {
            **{
                name: getattr(record, name) for name in _COLUMNS.split(", ") if name not in computed
            },
            "public": record.is_public,
            "words": words,
            "search": [*words, *author.search_tokens],
            "record": record.model_dump_json(exclude=_KEPT),
            "documents": [element_document(element) for element in elements],
        }

    def insert_story(self, rows: dict[str, Any], story_id: str, slug: str) -> None:
        """The story's row and its elements in one statement (one transaction). The record names
        the row's id and slug, as storycore's would: storycore reads the stories the floor wrote
        (its pages are measured after the writes)."""
        record = orjson.dumps({**orjson.loads(rows["record"]), "id": story_id, "slug": slug})
        self.db.execute(_INSERT, {**rows, "id": story_id, "slug": slug, "record": record.decode()})

    def update_story(self, story: StoryRecord, changed: StoryRecord) -> None:
        """The record and the columns that changed, at the version read, in one statement. The
        floor leaves the search words as they were (the SQLite floor leaves them out)."""
        self.db.execute(
            "UPDATE stories SET record = %s, version = %s, updated = %s, description = %s"
            " WHERE id = %s AND version = %s",
            (changed.model_dump_json(exclude=_KEPT), changed.version,
             "2026-01-01T00:00:00.000Z", changed.description, story.id, story.version),
        )  # fmt: skip
