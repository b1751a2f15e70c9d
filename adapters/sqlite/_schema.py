"""The SQLite schema, as forward migrations. Migration N brings a database to version N.

Each is a SQL script, run statement by statement in one transaction. No migration recomputes
what the core derives: the core does, through the ports, when it opens a store whose derivation
(``store_meta``, from migration 8) is older or unknown.

Public lists read partial indexes (``WHERE public = 1``) in their sort order, so a page is an
index walk; a user's list reads ``(author_id, ...)``. Tags, topics and element permalinks have
their own tables for the filters. ``story_search`` (FTS5) holds each story's normalized tokens
and its author's: a public story's under its search key, which follows (publication, id) and
which ``search_order`` maps to the story, any other story's under the negative of its rowid
(``_sqlite_search``, from migration 9).
"""

from __future__ import annotations

__all__ = ["INDEXED", "MIGRATIONS"]

_SORT_COLUMNS = (
    "published",
    "created",
    "updated",
    "popularity",
    "views",
    "title_key",
    "featured_at",
)

#: The label tables of the list filters, and the column each holds.
_LABELS = (("story_tags", "tag"), ("story_topics", "topic"))

_V1 = """
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    username_key TEXT NOT NULL UNIQUE,
    search_text TEXT NOT NULL,
    record TEXT NOT NULL
);
CREATE TABLE apps (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    key_digest TEXT NOT NULL UNIQUE,
    record TEXT NOT NULL
);
CREATE TABLE tokens (
    digest TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
    created TEXT NOT NULL,
    expires TEXT NOT NULL
);
CREATE INDEX tokens_expires ON tokens(expires);
CREATE TABLE stories (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    author_id TEXT NOT NULL REFERENCES users(id),
    slug TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('working', 'published')),
    private INTEGER NOT NULL,
    public INTEGER NOT NULL,
    version INTEGER NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    published TEXT,
    featured_at TEXT,
    title_key TEXT NOT NULL,
    views INTEGER NOT NULL DEFAULT 0,
    likes INTEGER NOT NULL DEFAULT 0,
    comments INTEGER NOT NULL DEFAULT 0,
    element_comments INTEGER NOT NULL DEFAULT 0,
    popularity INTEGER NOT NULL DEFAULT 0,
    record TEXT NOT NULL,
    UNIQUE (author_id, slug)
);
CREATE INDEX stories_author_published ON stories(author_id, published, id);
CREATE INDEX stories_author_stats ON stories(author_id, public, created, views, featured_at);
CREATE TABLE elements (
    story_rowid INTEGER NOT NULL REFERENCES stories(rowid) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    permalink TEXT,
    record TEXT NOT NULL,
    PRIMARY KEY (story_rowid, position)
) WITHOUT ROWID;
CREATE INDEX elements_permalink ON elements(permalink, story_rowid) WHERE permalink IS NOT NULL;
CREATE TABLE aliases (
    author_id TEXT NOT NULL,
    slug TEXT NOT NULL,
    story_rowid INTEGER NOT NULL REFERENCES stories(rowid) ON DELETE CASCADE,
    PRIMARY KEY (author_id, slug)
) WITHOUT ROWID;
CREATE INDEX aliases_story ON aliases(story_rowid);
CREATE TABLE embeds (
    story_rowid INTEGER NOT NULL REFERENCES stories(rowid) ON DELETE CASCADE,
    href TEXT NOT NULL,
    views INTEGER NOT NULL,
    PRIMARY KEY (story_rowid, href)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE story_search USING fts5(
    story, author, tokenize = 'unicode61 remove_diacritics 2'
);
"""
_V1 += "".join(
    f"""CREATE TABLE {table} (
    {column} TEXT NOT NULL,
    story_rowid INTEGER NOT NULL REFERENCES stories(rowid) ON DELETE CASCADE,
    PRIMARY KEY ({column}, story_rowid)
) WITHOUT ROWID;
CREATE INDEX {table}_story ON {table}(story_rowid);
"""
    for table, column in _LABELS
)
_V1 += "".join(
    f"CREATE INDEX stories_public_{column} ON stories({column}, id) WHERE public = 1;\n"
    for column in _SORT_COLUMNS
)

_V2 = """
CREATE TABLE identities (
    provider TEXT NOT NULL,
    external_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (provider, external_id)
) WITHOUT ROWID;
"""

# Search entries hold tokens the core already normalized, so the index must split on spaces
# and nothing else: unicode61 treated 21 rare letters as separators. ``ascii`` keeps every
# non-ASCII character inside its token and our ASCII characters are all letters and digits.
_V3 = """
CREATE VIRTUAL TABLE story_search_v3 USING fts5(story, author, tokenize = 'ascii');
INSERT INTO story_search_v3 (rowid, story, author) SELECT rowid, story, author FROM story_search;
DROP TABLE story_search;
ALTER TABLE story_search_v3 RENAME TO story_search;
"""

# Tag and topic rows copy their story's public flag and publication order, so that a public
# list of one tag or topic walks one index in order instead of sorting every story it holds.
_V4 = "".join(
    f"""
CREATE TABLE {table}_v4 (
    {column} TEXT NOT NULL,
    story_rowid INTEGER NOT NULL REFERENCES stories(rowid) ON DELETE CASCADE,
    public INTEGER NOT NULL,
    published TEXT,
    story_id TEXT NOT NULL,
    PRIMARY KEY ({column}, story_rowid)
) WITHOUT ROWID;
INSERT INTO {table}_v4 ({column}, story_rowid, public, published, story_id)
    SELECT l.{column}, l.story_rowid, s.public, s.published, s.id
    FROM {table} l JOIN stories s ON s.rowid = l.story_rowid;
DROP TABLE {table};
ALTER TABLE {table}_v4 RENAME TO {table};
CREATE INDEX {table}_story ON {table}(story_rowid);
CREATE INDEX {table}_public ON {table}({column}, published, story_id) WHERE public = 1;
"""
    for table, column in _LABELS
)

# Words with spacing marks (हिन्दी) became one token, and ``# foo`` the tag ``foo``: the tokens,
# title keys and tags written before are recomputed, now by the core
# (``storycore.usecases.reindex``) when it opens the database: a database migrated through here
# reaches migration 8, which leaves its derivation unknown.
_V5 = ""

# Search sorts its matches by publication. Reading that key from each match's row in
# ``stories`` (records and all) cost most of a search; this table holds the key alone, for
# public stories only, so a match's lookup reads a few bytes.
_V6 = """
DROP TABLE IF EXISTS search_order;
CREATE TABLE search_order (
    story_rowid INTEGER PRIMARY KEY REFERENCES stories(rowid) ON DELETE CASCADE,
    published TEXT NOT NULL,
    story_id TEXT NOT NULL
);
INSERT INTO search_order (story_rowid, published, story_id)
    SELECT rowid, published, id FROM stories WHERE public = 1;
"""

# Hashtags follow search's word rule (``#हिन्दी`` was stored as the tag ``ह``): recomputed by the
# core, as for migration 5. A story keeps at most 100 embed pages, the most viewed: the pages
# past them go.
_V7 = """
DELETE FROM embeds WHERE (story_rowid, href) IN (
    SELECT story_rowid, href FROM (
        SELECT story_rowid, href,
               ROW_NUMBER() OVER (PARTITION BY story_rowid ORDER BY views DESC, href) AS place
        FROM embeds
    ) WHERE place > 100
)
"""

# What the core records about the stored data (``Store.derivation``): ``derivation``, the
# version of the rules that derived it. Made anew and empty, so a database migrated here from an
# earlier version has an unknown derivation and the core recomputes it at the next open.
_V8 = """
DROP TABLE IF EXISTS store_meta;
CREATE TABLE store_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
"""

# Search walks its index newest first and stops after a page (``_sqlite_search``): a public
# story's row moves under a key that follows (publication, id), any other story's under
# -rowid. The keys are given as the core rewrites each story: the derivation is made unknown,
# and the next open reindexes, which moves every public story's row under its key.
_V9 = """
CREATE VIRTUAL TABLE story_search_v9 USING fts5(story, author, tokenize = 'ascii');
INSERT INTO story_search_v9 (rowid, story, author) SELECT -rowid, story, author FROM story_search;
DROP TABLE story_search;
ALTER TABLE story_search_v9 RENAME TO story_search;
DROP TABLE search_order;
CREATE TABLE search_order (
    key INTEGER PRIMARY KEY,
    story_rowid INTEGER NOT NULL UNIQUE REFERENCES stories(rowid) ON DELETE CASCADE,
    published TEXT NOT NULL,
    story_id TEXT NOT NULL
);
DELETE FROM store_meta WHERE name = 'derivation';
"""

# Author stats (``author_stats``) kept as counters: each author's public stories, their views
# and their kept embed loads, added to by triggers as a story row comes, goes, changes its
# public flag or is counted, so a page's authors cost a key probe each, not a walk of all their
# stories. ``embed_views``, a story's kept embed loads, is what ``add_views`` leaves after
# changing its pages. The newest creation and feature times, and the featured ids, are index
# seeks (``stories_author_stats``, ``stories_featured``).
_V10 = """
ALTER TABLE stories ADD COLUMN embed_views INTEGER NOT NULL DEFAULT 0;
UPDATE stories SET embed_views = (SELECT sum(views) FROM embeds WHERE story_rowid = stories.rowid)
    WHERE rowid IN (SELECT story_rowid FROM embeds);
CREATE TABLE author_stats (
    author_id TEXT PRIMARY KEY,
    stories INTEGER NOT NULL,
    views INTEGER NOT NULL,
    embeds INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO author_stats (author_id, stories, views, embeds)
    SELECT author_id, count(*), sum(views), sum(embed_views) FROM stories WHERE public = 1
    GROUP BY author_id;
CREATE TRIGGER author_stats_in AFTER INSERT ON stories WHEN NEW.public = 1 BEGIN
    INSERT INTO author_stats (author_id, stories, views, embeds)
    VALUES (NEW.author_id, 1, NEW.views, NEW.embed_views)
    ON CONFLICT (author_id) DO UPDATE SET stories = stories + 1,
        views = views + excluded.views, embeds = embeds + excluded.embeds; END;
CREATE TRIGGER author_stats_out AFTER DELETE ON stories WHEN OLD.public = 1 BEGIN
    UPDATE author_stats SET stories = stories - 1, views = views - OLD.views,
        embeds = embeds - OLD.embed_views WHERE author_id = OLD.author_id; END;
CREATE TRIGGER author_stats_changed AFTER UPDATE OF public, views, embed_views ON stories
    WHEN OLD.public = 1 OR NEW.public = 1 BEGIN
    INSERT INTO author_stats (author_id, stories, views, embeds)
    VALUES (NEW.author_id, NEW.public - OLD.public, NEW.public * NEW.views - OLD.public * OLD.views,
        NEW.public * NEW.embed_views - OLD.public * OLD.embed_views)
    ON CONFLICT (author_id) DO UPDATE SET stories = stories + excluded.stories,
        views = views + excluded.views, embeds = embeds + excluded.embeds; END;
CREATE INDEX stories_featured ON stories(author_id, featured_at, id)
    WHERE public = 1 AND featured_at IS NOT NULL
"""

# Revisions (docs/api.md#revisions) and scheduled publishing (docs/api.md#scheduled-publishing). A
# revision is one row:
# its story's ``record`` as it was (the kept members out of it, as in ``stories``) and its element
# documents as one JSON array of strings, both copied in the database by the replacement that
# keeps it, after the columns a list of revisions shows, so a list decodes neither (and leaves a
# long row's overflow pages unread). One row, not a row an element: a save that keeps a revision
# then costs 1.2 times one that keeps none, against 1.5 times with the elements as rows, whose
# copies and drops doubled the b-tree writes of a save. Revisions go with their story (the
# foreign key: every connection turns them on). ``publish_at`` is a column for the due lookup,
# whose partial index holds the scheduled working stories only: when none is due, the lookup
# reads one index entry. Existing stories are not scheduled and have no revisions.
_V11 = """
ALTER TABLE stories ADD COLUMN publish_at TEXT;
CREATE INDEX stories_due ON stories(publish_at, id)
    WHERE publish_at IS NOT NULL AND status = 'working';
CREATE TABLE revisions (
    story_rowid INTEGER NOT NULL REFERENCES stories(rowid) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    replaced TEXT NOT NULL,
    replaced_by TEXT NOT NULL,
    title TEXT NOT NULL,
    status TEXT NOT NULL,
    elements INTEGER NOT NULL,
    record TEXT NOT NULL,
    element_documents TEXT NOT NULL,
    UNIQUE (story_rowid, version)
)
"""

# Events and webhooks (docs/webhooks.md). ``events`` is the log: ``seq`` is its order and
# the cursor a reader keeps (as decimal text). Every write takes SQLite's one write lock
# (``BEGIN IMMEDIATE``), so a later ``seq`` is a later commit, and a reader that sees an event
# sees every one before it. The newest event is never deleted (``_events``), so no ``seq`` is
# given twice. A webhook is a row of its members (its event types a JSON array). A delivery
# is a row keyed by webhook and event; the claim walks ``deliveries_due``, which holds the
# pending deliveries only, in the order they are due, so finished ones (most of the table, in
# time) cost it nothing. A webhook's deliveries go with it, in ``WebhookRepository.remove``'s
# transaction (no foreign key: a delivery is stored as given). Existing databases start with an
# empty log.
_V12 = """
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    subject TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    created TEXT NOT NULL,
    created_by TEXT NOT NULL,
    cursor TEXT,
    failing_since TEXT,
    disabled TEXT
);
CREATE INDEX webhooks_created ON webhooks(created, id);
CREATE TABLE deliveries (
    webhook_id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    created TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    last_status INTEGER,
    last_error TEXT,
    last_attempt TEXT,
    next_attempt TEXT,
    leased_until TEXT,
    leased_by TEXT,
    PRIMARY KEY (webhook_id, event_id)
);
CREATE INDEX deliveries_due ON deliveries(next_attempt, webhook_id, event_id)
    WHERE state = 'pending';
CREATE INDEX deliveries_newest ON deliveries(webhook_id, created, event_id)
"""

# Whether a webhook is told of private and working stories in full (docs/webhooks.md#what-a-
# webhook-is-told): 0 or 1, 0 for the webhooks registered before.
_V13 = "ALTER TABLE webhooks ADD COLUMN private INTEGER NOT NULL DEFAULT 0"

# Failed sign-ins, counted across the processes on the file (``_sql/sign_in_failures``): a row
# each, no unique key (two at one time are two); ``(key, at)`` serves a key's count over its
# window, ``at`` the pruning of what left every window. Existing databases start with none.
_V14 = """
CREATE TABLE sign_in_failures (key TEXT NOT NULL, at TEXT NOT NULL);
CREATE INDEX sign_in_failures_key ON sign_in_failures(key, at);
CREATE INDEX sign_in_failures_at ON sign_in_failures(at)
"""

# Kept pictures (docs/media-storage.md, ``_sql/kept``): a row per file, its bytes last (a read
# of its members only never loads them), ``at`` walked by the prune; a row per source address,
# keyed by the SHA-256 of the address, ``kept_sources_due`` walked by the keeper's claims and
# ``seen`` by forgetting; ``kept_names`` repeats the names each record keeps, for the prune to
# look a file up in, and goes with its record. Existing databases start with none.
_V15 = """
CREATE TABLE kept_files (
    name TEXT PRIMARY KEY,
    media_type TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    size INTEGER NOT NULL,
    at TEXT NOT NULL,
    data BLOB NOT NULL
);
CREATE INDEX kept_files_at ON kept_files(at, name);
CREATE TABLE kept_sources (
    key TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    seen TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'kept', 'failed')),
    copies TEXT NOT NULL,
    fetched INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    reason TEXT,
    next_attempt TEXT,
    leased_until TEXT,
    leased_by TEXT
);
CREATE INDEX kept_sources_due ON kept_sources(next_attempt, key) WHERE next_attempt IS NOT NULL;
CREATE INDEX kept_sources_seen ON kept_sources(seen);
CREATE TABLE kept_names (
    name TEXT NOT NULL,
    key TEXT NOT NULL REFERENCES kept_sources(key) ON DELETE CASCADE,
    PRIMARY KEY (name, key)
) WITHOUT ROWID;
CREATE INDEX kept_names_key ON kept_names(key)
"""

#: A story search engines may index (``StoryQuery.indexed``), as the sitemap's index holds it.
INDEXED = "s.not_indexed = 0"

# A sitemap (docs/api.md#crawlers) names the public, indexed stories by author then id, and
# each of their authors with the latest change among them. ``not_indexed`` (a record member,
# 0 or 1) becomes a column, and ``stories_sitemap`` holds every column such a read names, in
# that order, so a page of 50,000 is a walk of the covering index alone (SQLite 3.40 covers no
# expression such as ``json_extract(record, ...)``), never a read of the stories' records.
_V16 = """
ALTER TABLE stories ADD COLUMN not_indexed INTEGER NOT NULL DEFAULT 0;
UPDATE stories SET not_indexed = 1 WHERE json_extract(record, '$.not_indexed') = 1;
CREATE INDEX stories_sitemap ON stories(author_id, id, slug, updated, public, not_indexed)
    WHERE public = 1 AND not_indexed = 0
"""

# The story that first wanted a kept picture (docs/media.md#limits): the one whose limit of kept
# pictures it counts against. Records wanted before have none.
_V17 = "ALTER TABLE kept_sources ADD COLUMN wanted_by TEXT"

# What a list item shows of a story (``StoryHead``) beside its columns: columns too, so that a
# page of a list reads its rows' columns rather than parsing each row's record four times
# (``json_extract``) for its title, description, thumbnail and cover (benchmarks/README.md).
_V18 = """
ALTER TABLE stories ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE stories ADD COLUMN description TEXT;
ALTER TABLE stories ADD COLUMN thumbnail TEXT;
ALTER TABLE stories ADD COLUMN cover TEXT NOT NULL DEFAULT '';
UPDATE stories SET title = json_extract(record, '$.title'),
    description = json_extract(record, '$.description'),
    thumbnail = json_extract(record, '$.thumbnail'),
    cover = coalesce(json_extract(record, '$.cover'), '')
"""

# A user's public profile (``ProfileFields``) in columns too, for the same reason: a list page
# reads its authors' profiles without parsing their records.
_V19 = """
ALTER TABLE users ADD COLUMN username TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN bio TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN location TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN website TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN avatar TEXT NOT NULL DEFAULT '';
UPDATE users SET username = json_extract(record, '$.username'),
    name = coalesce(json_extract(record, '$.name'), ''),
    bio = coalesce(json_extract(record, '$.bio'), ''),
    location = coalesce(json_extract(record, '$.location'), ''),
    website = coalesce(json_extract(record, '$.website'), ''),
    avatar = coalesce(json_extract(record, '$.avatar'), '')
"""

MIGRATIONS: tuple[str, ...] = (
    *(_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8, _V9, _V10, _V11, _V12),
    *(_V13, _V14, _V15, _V16, _V17, _V18, _V19),
)
