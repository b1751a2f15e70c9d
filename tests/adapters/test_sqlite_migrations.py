"""The SQLite schema moves forward from every earlier version, keeping the data. What the core
derives is recomputed by the core, when the migrated database is brought up to date (a
migration leaves the derivation unknown), as every command does before it opens a service: the
tests of earlier rules open one so (``_opened``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from storycore import Service
from storycore.adapters import open_store
from storycore.adapters.sqlite._schema import MIGRATIONS
from storycore.model.events import Event
from storycore.model.heads import ProfileFields, StoryHead
from storycore.model.queries import StoryQuery
from storycore.model.revisions import RevisionMark
from storycore.rules.ids import new_event_id
from storycore.usecases.reindex import bring_up_to_date
from tests.conftest import TEST_SETTINGS
from tests.contract._factories import add_story, add_user, at, changed, make_element


def _opened(url: str) -> Service:
    """A service on the store at ``url``, brought up to date first, as every command and
    ``serve`` open one (``storycore.contrib.compose``)."""
    store = open_store(url)
    bring_up_to_date(store)
    return Service(store, TEST_SETTINGS)


def _database_at(path: Path, version: int) -> None:
    """A database whose schema stops at ``version``, made as that version made it."""
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    for number, migration in enumerate(MIGRATIONS[:version], start=1):
        if isinstance(migration, str):
            connection.executescript(migration)
        else:
            migration(connection)
        connection.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
    connection.commit()
    connection.close()


def test_opening_an_older_database_migrates_it_and_search_still_finds_its_stories(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    _database_at(path, 1)
    with _opened(f"sqlite:///{path}") as service:
        service.accounts.create_user("alice", name="Alice Old")
        alice = service.accounts.as_user("alice")
        service.stories.create("alice", {"title": "Harbour tales"}, viewer=alice, publish=True)
    _rewind(path, to=2)
    with _opened(f"sqlite:///{path}") as service:
        assert [s.title for s in service.catalog.search("harbour old").items] == ["Harbour tales"]
    version = sqlite3.connect(path).execute("SELECT MAX(version) FROM schema_version").fetchone()
    assert version == (len(MIGRATIONS),)


#: What undoes a migration that cannot run twice (earlier ones can, over their own result).
_UNDO = {
    10: """
    DROP TRIGGER author_stats_in; DROP TRIGGER author_stats_out;
    DROP TRIGGER author_stats_changed; DROP TABLE author_stats; DROP INDEX stories_featured;
    ALTER TABLE stories DROP COLUMN embed_views;
    """,
    11: """
    DROP TABLE revisions; DROP INDEX stories_due;
    ALTER TABLE stories DROP COLUMN publish_at;
    """,
    12: "DROP TABLE deliveries; DROP TABLE webhooks; DROP TABLE events;",
    13: "ALTER TABLE webhooks DROP COLUMN private;",
    14: "DROP TABLE sign_in_failures;",
    15: "DROP TABLE kept_names; DROP TABLE kept_sources; DROP TABLE kept_files;",
    16: "DROP INDEX stories_sitemap; ALTER TABLE stories DROP COLUMN not_indexed;",
    17: "ALTER TABLE kept_sources DROP COLUMN wanted_by;",
    18: "ALTER TABLE stories DROP COLUMN title; ALTER TABLE stories DROP COLUMN description;"
    " ALTER TABLE stories DROP COLUMN thumbnail; ALTER TABLE stories DROP COLUMN cover;",
    19: "".join(
        f"ALTER TABLE users DROP COLUMN {name};"
        for name in ("username", "name", "bio", "location", "website", "avatar")
    ),
}


def _rewind(path: Path, to: int) -> None:
    """Make the database look as if the migrations after ``to`` never ran, the data kept."""
    connection = sqlite3.connect(path)
    for number in sorted(_UNDO, reverse=True):
        if number > to:
            connection.executescript(_UNDO[number])
    connection.execute("DELETE FROM schema_version WHERE version > ?", (to,))
    connection.commit()
    connection.close()


def test_migrating_twice_changes_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'twice.db'}"
    open_store(url).close()
    open_store(url).close()
    rows = sqlite3.connect(tmp_path / "twice.db").execute("SELECT version FROM schema_version")
    assert [row[0] for row in rows] == list(range(1, len(MIGRATIONS) + 1))


def test_migrating_recomputes_the_search_tokens_and_tags_of_earlier_rules(tmp_path: Path) -> None:
    path = tmp_path / "rules.db"
    with _opened(f"sqlite:///{path}") as service:
        service.accounts.create_user("alice")
        alice = service.accounts.as_user("alice")
        story = {"title": "हिन्दी", "hashtags": ["foo"]}
        service.stories.create("alice", story, viewer=alice, publish=True)
    connection = sqlite3.connect(path)  # what the rules before version 5 wrote
    connection.execute("UPDATE story_search SET story = 'ह नद foo'")
    connection.execute("UPDATE story_tags SET tag = ' foo'")
    connection.commit()
    connection.close()
    _rewind(path, to=4)
    with _opened(f"sqlite:///{path}") as service:
        assert [s.title for s in service.catalog.search("हिन्दी").items] == ["हिन्दी"]
        assert service.catalog.search("नद").items == []
        assert [s.title for s in service.catalog.stories(tag="foo").items] == ["हिन्दी"]


def test_migrating_gives_hash_words_the_tags_of_the_word_rule(tmp_path: Path) -> None:
    path = tmp_path / "tags.db"
    with _opened(f"sqlite:///{path}") as service:
        service.accounts.create_user("alice")
        alice = service.accounts.as_user("alice")
        service.stories.create("alice", {"title": "Notes #हिन्दी"}, viewer=alice, publish=True)
    connection = sqlite3.connect(path)  # what the hashtag rule before version 7 wrote
    connection.execute("UPDATE story_tags SET tag = 'ह'")
    connection.commit()
    connection.close()
    _rewind(path, to=6)
    with _opened(f"sqlite:///{path}") as service:
        assert [s.title for s in service.catalog.stories(tag="हिन्दी").items] == ["Notes #हिन्दी"]
        assert service.catalog.stories(tag="ह").items == []


def test_migrating_keeps_the_100_most_viewed_embed_pages_of_a_story(tmp_path: Path) -> None:
    path = tmp_path / "embeds.db"
    with _opened(f"sqlite:///{path}") as service:
        service.accounts.create_user("alice")
        alice = service.accounts.as_user("alice")
        story = service.stories.create("alice", {"title": "Seen"}, viewer=alice, publish=True)
    connection = sqlite3.connect(path)  # what storycore before version 7 kept: every page
    connection.executemany(
        "INSERT INTO embeds (story_rowid, href, views)"
        " SELECT rowid, ?, ? FROM stories WHERE id = ?",
        [(f"https://p.example/{n:03d}", n, story.id) for n in range(150)],
    )
    connection.commit()
    connection.close()
    _rewind(path, to=6)
    with _opened(f"sqlite:///{path}") as service:
        embeds = service.catalog.search("seen").items[0].stats.embeds
    assert [e.views for e in embeds] == list(range(149, 49, -1))


def test_a_database_migrated_from_an_earlier_version_leaves_its_derivation_unknown(
    tmp_path: Path,
) -> None:
    path = tmp_path / "unknown.db"
    with _opened(f"sqlite:///{path}") as service:
        service.accounts.create_user("alice")
    _rewind(path, to=8)  # migration 9 is the last to change what the core derives
    store = open_store(f"sqlite:///{path}")
    try:
        assert store.derivation() is None
    finally:
        store.close()


def _as_version_8(path: Path) -> None:
    """Lay the search index out as migration 8 left it: each story's row under its rowid, and
    ``search_order`` by story rowid."""
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE VIRTUAL TABLE search_v8 USING fts5(story, author, tokenize = 'ascii');
        INSERT INTO search_v8 (rowid, story, author)
            SELECT coalesce(o.story_rowid, -f.rowid), f.story, f.author
            FROM story_search f LEFT JOIN search_order o ON o.key = f.rowid;
        DROP TABLE story_search;
        ALTER TABLE search_v8 RENAME TO story_search;
        DROP TABLE search_order;
        CREATE TABLE search_order (
            story_rowid INTEGER PRIMARY KEY REFERENCES stories(rowid) ON DELETE CASCADE,
            published TEXT NOT NULL,
            story_id TEXT NOT NULL
        );
        INSERT INTO search_order SELECT rowid, published, id FROM stories WHERE public = 1;
        """
    )
    connection.commit()
    connection.close()
    _rewind(path, to=8)


def test_a_database_of_version_8_searches_newest_first_and_keeps_unpublished_words(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'v8.db'}"
    with _opened(url) as service:
        service.accounts.create_user("alice")
        alice = service.accounts.as_user("alice")
        for title in ("Harbour one", "Harbour two", "Harbour three"):
            service.stories.create("alice", {"title": title}, viewer=alice, publish=True)
        service.stories.create("alice", {"title": "Harbour draft"}, viewer=alice)
    _as_version_8(tmp_path / "v8.db")
    with _opened(url) as service:
        found = [s.title for s in service.catalog.search("harbour").items]
        newest_first = [s.title for s in service.catalog.latest().items]  # publication, id
        assert found == newest_first
        assert sorted(found) == ["Harbour one", "Harbour three", "Harbour two"]
        service.stories.publish("alice", "harbour-draft", viewer=service.accounts.as_user("alice"))
        assert service.catalog.search("draft").items[0].title == "Harbour draft"


def test_migrating_counts_each_authors_public_stories_views_and_embed_loads(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'counted.db'}"
    store = open_store(url)
    author = add_user(store, "alice")
    seen = add_story(store, author.id, "seen", views=3)
    add_story(store, author.id, "hidden", views=100, private=True)
    store.stories.add_views({seen.id: 2}, {(seen.id, "https://p.example/"): 1}, max_embed_pages=9)
    store.close()
    _rewind(tmp_path / "counted.db", to=9)  # before the counters
    store = open_store(url)
    try:
        stats = store.stories.author_stats([author.id])[author.id]
    finally:
        store.close()
    assert (stats.stories, stats.views, stats.embeds) == (1, 5, 1)


def test_a_database_of_version_10_migrates_with_its_stories_unscheduled_and_without_revisions(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'v10.db'}"
    store = open_store(url)
    author = add_user(store, "alice")
    story = add_story(store, author.id, "tale", status="working", elements=[make_element()])
    store.close()
    _rewind(tmp_path / "v10.db", to=10)
    connection = sqlite3.connect(tmp_path / "v10.db")  # records as version 10 wrote them
    connection.execute("UPDATE stories SET record = json_remove(record, '$.publish_at')")
    connection.commit()
    connection.close()
    store = open_store(url)
    try:
        stored = store.stories.get(story.id)
        assert stored is not None
        assert stored.publish_at is None
        assert store.stories.due(at(10**6), 10) == []
        assert store.revisions.count(story.id) == 0
        documents = tuple(store.stories.element_documents(story.id, 0, 10))
        mark = RevisionMark(at(5), "someone", 50)
        store.stories.replace(changed(stored, []), expected_version=1, elements=[], revision=mark)
        assert [(r.version, r.elements) for r in store.revisions.of_story(story.id)] == [
            (1, documents)
        ]
    finally:
        store.close()


def test_a_database_of_version_11_migrates_to_an_empty_event_log_and_no_webhooks(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'v11.db'}"
    store = open_store(url)
    author = add_user(store, "alice")
    story = add_story(store, author.id, "tale")
    store.close()
    _rewind(tmp_path / "v11.db", to=11)
    store = open_store(url)
    try:
        assert store.stories.get(story.id) == story
        assert (store.events.end(), store.events.after(None, 10)) == (None, [])
        assert store.webhooks.find(0, 10) == []
        event = Event(new_event_id(), "story.deleted", at(5), story.id, "{}")
        assert store.stories.remove(story.id, events=[event])
        assert [logged.event for logged in store.events.after(None, 10)] == [event]
    finally:
        store.close()


def test_a_database_of_version_12_migrates_with_its_webhooks_not_private(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'v12.db'}"
    open_store(url).close()
    _rewind(tmp_path / "v12.db", to=12)
    connection = sqlite3.connect(tmp_path / "v12.db")
    connection.execute(
        "INSERT INTO webhooks (id, url, events, secret, created, created_by)"
        " VALUES ('hook', 'https://h.example/', '[\"*\"]', 's', ?, 'ed')",
        (at(1),),
    )
    connection.commit()
    connection.close()
    store = open_store(url)
    try:
        found = store.webhooks.get("hook")
        assert found is not None
        assert found.private is False
    finally:
        store.close()


def test_a_database_of_version_13_migrates_with_no_failed_sign_ins(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'v13.db'}"
    open_store(url).close()
    _rewind(tmp_path / "v13.db", to=13)
    store = open_store(url)
    try:
        assert store.sign_in_failures.since("user:alice", at(0), 10) == []
        store.sign_in_failures.add(["user:alice"], at(1))
        assert store.sign_in_failures.since("user:alice", at(0), 10) == [at(1)]
    finally:
        store.close()


def test_a_database_of_version_14_migrates_with_no_kept_pictures(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'v14.db'}"
    open_store(url).close()
    _rewind(tmp_path / "v14.db", to=14)
    store = open_store(url)
    try:
        assert store.kept_files.scan(None, 10) == []
        assert store.kept_sources.want(["https://pictures.example/a.png"], at(1)) == 1
    finally:
        store.close()


def test_a_database_of_version_15_migrates_with_its_not_indexed_stories_left_out_of_a_sitemap(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'v15.db'}"
    store = open_store(url)
    author = add_user(store, "alice")
    add_story(store, author.id, "shown")
    add_story(store, author.id, "hidden", not_indexed=True)
    store.close()
    _rewind(tmp_path / "v15.db", to=15)
    store = open_store(url)
    try:
        found = store.stories.addresses(StoryQuery(offset=0, limit=10, indexed=True))
    finally:
        store.close()
    assert [address.slug for address in found] == ["shown"]


def test_a_database_of_version_16_keeps_its_wanted_pictures_with_no_story_noted(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'v16.db'}"
    address = "https://pictures.example/a.png"
    store = open_store(url)
    store.kept_sources.want([address], at(1))
    store.close()
    _rewind(tmp_path / "v16.db", to=16)
    store = open_store(url)
    try:
        assert store.kept_sources.get_many([address])[address].wanted_by is None
        store.kept_sources.want([address], at(2), story="st_1")
        assert store.kept_sources.get_many([address])[address].wanted_by == "st_1"
    finally:
        store.close()


def test_a_database_of_version_17_lists_its_stories_with_their_titles_and_pictures(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'v17.db'}"
    store = open_store(url)
    author = add_user(store, "alice")
    image = make_element("a view", kind="image")
    first = add_story(store, author.id, "first", title="First", description="A", elements=[image])
    second = add_story(store, author.id, "second", title="Second", thumbnail="https://p.example/t")
    store.close()
    _rewind(tmp_path / "v17.db", to=17)
    store = open_store(url)
    try:
        found = store.stories.find(StoryQuery(offset=0, limit=10))
    finally:
        store.close()
    assert first.cover  # its image's
    assert sorted(found) == sorted(StoryHead.of(story) for story in (first, second))


def test_a_database_of_version_18_lists_its_authors_with_their_profiles(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'v18.db'}"
    store = open_store(url)
    alice = add_user(store, "Alice", name="Alice Liddell")
    store.users.update(alice.id, {"bio": "curious", "avatar": "https://p.example/a.png"})
    bob = add_user(store, "bob")
    store.close()
    _rewind(tmp_path / "v18.db", to=18)
    store = open_store(url)
    try:
        records = store.users.get_many([alice.id, bob.id])
        profiles = store.users.profiles([alice.id, bob.id])
    finally:
        store.close()
    assert records[alice.id].bio == "curious"
    assert profiles == {uid: ProfileFields.of(user) for uid, user in records.items()}
