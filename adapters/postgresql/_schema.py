"""The PostgreSQL schema, as forward migrations: migration N brings a schema to version N.

Each runs in one transaction with the ``schema_version`` row that records it. Unique and
foreign-key constraints are named after the storage key or the reference they guard
(``"story.slug"``, ``"story.author"``), so a refused row names its key. Columns that lists
compare, sort or join on use the "C" collation: code-point order, as the core and every
backend compare, whatever the database's locale, and one collation on both sides of a join so
that its indexes serve it. ``docs/postgresql.md`` has the plans.
"""

from __future__ import annotations

__all__ = ["INDEXED", "MIGRATIONS", "TABLES"]

_C = 'text COLLATE "C"'
#: The sort keys of lists (``storycore.model.queries``) as migration 1 knew them: a migration never
#: changes once released, so a later key comes with a migration of its own.
_AUTHOR_SORTS = ("published", "created", "updated", "popularity", "views", "title_key")
_PUBLIC_SORTS = (*_AUTHOR_SORTS, "featured_at")

_V1 = f"""
CREATE TABLE users (
    id {_C} CONSTRAINT "user.id" PRIMARY KEY,
    username_key {_C} NOT NULL CONSTRAINT "user.username" UNIQUE,
    search_tokens text[] NOT NULL,
    record text NOT NULL
);
CREATE TABLE apps (
    id {_C} CONSTRAINT "app.id" PRIMARY KEY,
    name {_C} NOT NULL CONSTRAINT "app.name" UNIQUE,
    key_digest {_C} NOT NULL CONSTRAINT "app.key_digest" UNIQUE,
    record text NOT NULL
);
CREATE TABLE tokens (
    digest {_C} CONSTRAINT "token.digest" PRIMARY KEY,
    user_id {_C} NOT NULL CONSTRAINT "token.user" REFERENCES users,
    app_id {_C} NOT NULL CONSTRAINT "token.app" REFERENCES apps,
    created {_C} NOT NULL, expires {_C} NOT NULL
);
CREATE INDEX tokens_expires ON tokens (expires);
CREATE TABLE identities (
    provider {_C} NOT NULL, external_id {_C} NOT NULL,
    user_id {_C} NOT NULL REFERENCES users,
    CONSTRAINT identity PRIMARY KEY (provider, external_id)
);
CREATE TABLE stories (
    id {_C} CONSTRAINT "story.id" PRIMARY KEY,
    author_id {_C} NOT NULL CONSTRAINT "story.author" REFERENCES users,
    slug {_C} NOT NULL, status {_C} NOT NULL, private boolean NOT NULL, public boolean NOT NULL,
    title text NOT NULL, description text, thumbnail text, cover text NOT NULL,
    version integer NOT NULL, created {_C} NOT NULL, updated {_C} NOT NULL,
    published {_C}, featured_at {_C}, title_key {_C} NOT NULL,
    views bigint NOT NULL, likes bigint NOT NULL, comments bigint NOT NULL,
    element_comments bigint NOT NULL, popularity bigint NOT NULL,
    tags text[] NOT NULL, topic_keys text[] NOT NULL, element_permalinks text[] NOT NULL,
    words text[] NOT NULL, search text[] NOT NULL,
    record text NOT NULL,
    CONSTRAINT "story.slug" UNIQUE (author_id, slug)
);
CREATE INDEX stories_tags ON stories USING gin (tags);
CREATE INDEX stories_topics ON stories USING gin (topic_keys);
CREATE INDEX stories_elements ON stories USING gin (element_permalinks);
CREATE INDEX stories_search ON stories USING gin (search) WHERE public;
CREATE TABLE elements (
    story_id {_C} NOT NULL REFERENCES stories ON DELETE CASCADE,
    position integer NOT NULL,
    document text NOT NULL,
    PRIMARY KEY (story_id, position)
);
CREATE TABLE aliases (
    author_id {_C} NOT NULL, slug {_C} NOT NULL,
    story_id {_C} NOT NULL REFERENCES stories ON DELETE CASCADE,
    PRIMARY KEY (author_id, slug)
);
CREATE INDEX aliases_story ON aliases (story_id);
CREATE TABLE embeds (
    story_id {_C} NOT NULL REFERENCES stories ON DELETE CASCADE,
    href {_C} NOT NULL,
    views bigint NOT NULL,
    PRIMARY KEY (story_id, href)
);
CREATE TABLE store_meta (name text PRIMARY KEY, value integer NOT NULL);
"""
# Every list walks one index in its order: the public lists one per sort key (partial, public
# stories only), an author's lists one per sort key a caller may choose. Ascending order walks
# the same index backwards (NULLS FIRST ascending is NULLS LAST descending reversed).
_V1 += "".join(
    f"CREATE INDEX stories_public_{key} ON stories ({key} DESC NULLS LAST, id DESC) WHERE public;\n"
    for key in _PUBLIC_SORTS
)
_V1 += "".join(
    f"CREATE INDEX stories_author_{key} ON stories (author_id, {key} DESC NULLS LAST, id DESC);\n"
    for key in _AUTHOR_SORTS
)

# An author's stats (``author_stats``: count, views, newest creation and feature, featured ids)
# from an index-only scan of their public stories, not the wide rows: at 100,000 stories the
# stats of a search page's 20 authors went from 17.7 to 5.3 ms (benchmarks/README.md).
_V2 = """
CREATE INDEX stories_author_stats ON stories (author_id) INCLUDE (views, created, featured_at, id)
    WHERE public;
"""

# Author stats kept as counters (``author_stats``): each author's public stories, their views
# and their kept embed loads, added to by a trigger as a story row comes, goes, changes its
# public flag or is counted, so a page's authors cost a key probe each. ``embed_views``, a
# story's kept embed loads, is what ``add_views`` leaves after changing its pages. The newest
# creation and feature times, and the featured ids, are index seeks; the covering index of
# migration 2, which served the sums, goes.
_V3 = f"""
ALTER TABLE stories ADD COLUMN embed_views bigint NOT NULL DEFAULT 0;
UPDATE stories s SET embed_views = e.total
    FROM (SELECT story_id, sum(views) AS total FROM embeds GROUP BY story_id) e
    WHERE s.id = e.story_id;
CREATE TABLE author_stats (
    author_id {_C} PRIMARY KEY,
    stories bigint NOT NULL, views bigint NOT NULL, embeds bigint NOT NULL
);
INSERT INTO author_stats (author_id, stories, views, embeds)
    SELECT author_id, count(*), sum(views), sum(embed_views) FROM stories WHERE public
    GROUP BY author_id;
CREATE FUNCTION count_author_stats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    author text;
    stories bigint := 0;
    views bigint := 0;
    embeds bigint := 0;
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.public THEN
        author := OLD.author_id;
        stories := -1; views := -OLD.views; embeds := -OLD.embed_views;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.public THEN
        author := NEW.author_id;
        stories := stories + 1; views := views + NEW.views; embeds := embeds + NEW.embed_views;
    END IF;
    IF author IS NOT NULL THEN
        INSERT INTO author_stats AS a (author_id, stories, views, embeds)
        VALUES (author, stories, views, embeds)
        ON CONFLICT (author_id) DO UPDATE SET stories = a.stories + excluded.stories,
            views = a.views + excluded.views, embeds = a.embeds + excluded.embeds;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER author_stats AFTER INSERT OR DELETE OR UPDATE OF public, views, embed_views
    ON stories FOR EACH ROW EXECUTE FUNCTION count_author_stats();
DROP INDEX stories_author_stats;
CREATE INDEX stories_author_public_created ON stories (author_id, created DESC) WHERE public;
CREATE INDEX stories_featured ON stories (author_id, featured_at DESC, id DESC)
    WHERE public AND featured_at IS NOT NULL;
"""

# Revisions (docs/api.md#revisions) and scheduled publishing (docs/api.md#scheduled-publishing). A
# revision is a row:
# the story's JSON record, title and status as they were, and its element documents in order as
# one array (``documents``), which the replacement copies inside the database (INSERT ... SELECT
# in its UPDATE statement, ``_revisions.KEEP``); ``element_count`` serves a list of revisions
# without reading the array. ``publish_at`` (null for the stories of earlier versions) has a
# partial index over scheduled stories only, so the due lookup is one index probe however many
# stories there are, and a few pages however many are scheduled.
_V4 = f"""
ALTER TABLE stories ADD COLUMN publish_at {_C};
CREATE INDEX stories_due ON stories (publish_at, id) WHERE publish_at IS NOT NULL;
CREATE TABLE revisions (
    story_id {_C} NOT NULL CONSTRAINT "revision.story" REFERENCES stories ON DELETE CASCADE,
    version integer NOT NULL,
    replaced {_C} NOT NULL, replaced_by {_C} NOT NULL, author_id {_C} NOT NULL,
    title text NOT NULL, status {_C} NOT NULL, element_count integer NOT NULL,
    record text NOT NULL, documents text[] NOT NULL,
    CONSTRAINT revision PRIMARY KEY (story_id, version)
);
"""

# Events, webhooks and their deliveries (docs/webhooks.md). An event is a row written by the
# statement (or transaction) of the change it reports; ``data`` is text, so it reads back byte for
# byte. ``n`` numbers events as they are written, which is not the order their writes commit in
# (a write that took n = 5 may commit after one that took n = 6): the log is read in (``xid``,
# ``n``) order, ``xid`` the writing transaction's id, and only below the oldest transaction still
# running (``_events``), which ``events_order`` serves. Deliveries are keyed by webhook and event;
# ``deliveries_due``, over pending deliveries only, is what a claim walks, earliest first, and
# ``deliveries_webhook`` a webhook's list, newest first. No foreign key ties a delivery to its
# webhook: removing a webhook deletes its deliveries in the same statement (``_webhooks``).
_V5 = f"""
CREATE TABLE events (
    id {_C} CONSTRAINT "event.id" PRIMARY KEY,
    type {_C} NOT NULL, timestamp {_C} NOT NULL, subject {_C} NOT NULL, data text NOT NULL,
    xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
    n bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX events_order ON events (xid, n);
CREATE TABLE webhooks (
    id {_C} CONSTRAINT "webhook.id" PRIMARY KEY,
    url text NOT NULL, events text[] NOT NULL, secret text NOT NULL,
    created {_C} NOT NULL, created_by {_C} NOT NULL,
    cursor text, failing_since {_C}, disabled {_C}
);
CREATE INDEX webhooks_created ON webhooks (created, id);
CREATE TABLE deliveries (
    webhook_id {_C} NOT NULL, event_id {_C} NOT NULL, event_type {_C} NOT NULL,
    created {_C} NOT NULL, state {_C} NOT NULL, attempts bigint NOT NULL, failures bigint NOT NULL,
    last_status bigint, last_error text, last_attempt {_C}, next_attempt {_C},
    leased_until {_C}, leased_by text,
    CONSTRAINT delivery PRIMARY KEY (webhook_id, event_id)
);
CREATE INDEX deliveries_due ON deliveries (next_attempt, webhook_id, event_id)
    WHERE state = 'pending';
CREATE INDEX deliveries_webhook ON deliveries (webhook_id, created, event_id);
"""

# Whether a webhook is told of private and working stories in full (docs/webhooks.md#what-a-
# webhook-is-told): false for the webhooks registered before.
_V6 = "ALTER TABLE webhooks ADD COLUMN private boolean NOT NULL DEFAULT false"

# Failed sign-ins, counted across every process on the schema (``_sql/sign_in_failures``): a row
# each, no unique key (two at one time are two, and concurrent inserts never wait on each
# other); ``(key, at)`` serves a key's count over its window, ``at`` the pruning of what left
# every window.
_V7 = f"""
CREATE TABLE sign_in_failures (key {_C} NOT NULL, at {_C} NOT NULL);
CREATE INDEX sign_in_failures_key ON sign_in_failures (key, at);
CREATE INDEX sign_in_failures_at ON sign_in_failures (at);
"""

# Kept pictures (docs/media-storage.md, ``_sql/kept``): a row per file, its bytes a ``bytea``
# stored out of line uncompressed (pictures do not compress), ``at`` walked by the prune; a row
# per source address, keyed by the SHA-256 of the address (an address may be longer than a
# B-tree entry may be), ``kept_sources_due`` walked by the keeper's claims and ``seen`` by
# forgetting; ``kept_names`` repeats the names each record keeps, for the prune to look a file
# up in, and goes with its record.
_V8 = f"""
CREATE TABLE kept_files (
    name {_C} PRIMARY KEY, media_type text NOT NULL, width integer NOT NULL,
    height integer NOT NULL, size bigint NOT NULL, at {_C} NOT NULL, data bytea NOT NULL
);
ALTER TABLE kept_files ALTER COLUMN data SET STORAGE EXTERNAL;
CREATE INDEX kept_files_at ON kept_files (at, name);
CREATE TABLE kept_sources (
    key {_C} PRIMARY KEY, address text NOT NULL, seen {_C} NOT NULL, state {_C} NOT NULL,
    copies text NOT NULL, fetched bigint NOT NULL, attempts bigint NOT NULL, reason text,
    next_attempt {_C}, leased_until {_C}, leased_by text
);
CREATE INDEX kept_sources_due ON kept_sources (next_attempt, key) WHERE next_attempt IS NOT NULL;
CREATE INDEX kept_sources_seen ON kept_sources (seen);
CREATE TABLE kept_names (
    name {_C} NOT NULL, key {_C} NOT NULL REFERENCES kept_sources (key) ON DELETE CASCADE,
    PRIMARY KEY (name, key)
);
CREATE INDEX kept_names_key ON kept_names (key);
"""

#: A story search engines may index (``StoryQuery.indexed``), as the sitemap's index holds it.
INDEXED = "NOT not_indexed"

# A sitemap (docs/api.md#crawlers) names the public, indexed stories by author then id, and
# each of their authors with the latest change among them. ``not_indexed`` (a record member)
# becomes a column: a filter on the record's JSON costs a parse of every record, and the
# planner, which does not count that cost, prefers a scan to this index (2 s for 100,000
# stories, measured). ``stories_sitemap`` holds what such a read names, in its order, so a page
# of it is an index-only scan, never a read of the stories' records.
_V9 = f"""
ALTER TABLE stories ADD COLUMN not_indexed boolean NOT NULL DEFAULT false;
UPDATE stories SET not_indexed = true WHERE (record::json ->> 'not_indexed') = 'true';
CREATE INDEX stories_sitemap ON stories (author_id, id) INCLUDE (slug, updated)
    WHERE public AND {INDEXED};
"""

# The story that first wanted a kept picture (docs/media.md#limits): the one whose limit of kept
# pictures it counts against. Records wanted before have none.
_V10 = "ALTER TABLE kept_sources ADD COLUMN wanted_by text"

MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8, _V9, _V10)

#: The tables of the last migration but ``schema_version``, in an order that empties them: each
#: after the tables whose rows refer to it, and ``author_stats`` after ``stories``, whose
#: trigger writes it as stories go (``_pg_database.empty_schema``).
TABLES = (
    *("tokens", "identities", "elements", "aliases", "embeds", "revisions", "stories"),
    "author_stats",
    *("users", "apps", "store_meta", "events", "webhooks", "deliveries"),
    "sign_in_failures",
    *("kept_names", "kept_sources", "kept_files"),
)
