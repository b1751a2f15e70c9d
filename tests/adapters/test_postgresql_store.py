"""PostgreSQL stores beyond the contract: URLs, unreachable servers, the schema parameter,
migrations, sessions the server ended, bulk loads and the missing extra.

The contract suite runs on PostgreSQL through the shared ``store`` fixture; this file covers what
happens before a store exists, around its connections, and what the ports cannot see. The
server is the session's (``tests/_postgresql.py``).
"""

from __future__ import annotations

import hashlib
import re
import socket
import time
import traceback
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg.rows import TupleRow

from storycore import Service
from storycore.adapters import open_store
from storycore.adapters.postgresql import drop_schema, empty_schema
from storycore.adapters.postgresql._schema import MIGRATIONS
from storycore.contrib.cli import main
from storycore.errors import ConfigurationError, Unavailable
from storycore.model.events import Event
from storycore.model.kept import KeptCopy, KeptFile
from storycore.model.queries import StoryQuery
from storycore.model.revisions import RevisionMark
from storycore.model.webhooks import Delivery, WebhookRecord
from storycore.ports import Store
from storycore.testing.stores import fresh_store
from storycore.usecases.reindex import bring_up_to_date
from tests import _postgresql
from tests._missing_driver import opening_without
from tests.conftest import TEST_SETTINGS
from tests.contract._factories import add_story, add_user, at, make_story, make_user
from tests.testing.test_testing_plugin import _run_pytest

pytestmark = pytest.mark.postgresql

SECRET = "s3cret-Pa55word"
#: The ceiling of an open that meets no answer: the adapter gives up after its connect timeout
#: (4 s), where libpq alone would wait for ever; far above it, so that a busy machine keeps it.
NEVER_WAITING = 60


def _everything_said(exc: BaseException) -> str:
    """Every line a traceback of ``exc`` would print, its causes included."""
    return "".join(traceback.format_exception(exc))


def _with_schema(uri: str, schema: str) -> str:
    return urlunsplit(urlsplit(uri)._replace(query=f"schema={schema}"))


@pytest.fixture
def schema() -> Iterator[str]:
    """A fresh schema name on the session's server, dropped after the test."""
    name = f"storycore_open_{uuid.uuid4().hex[:12]}"
    yield name
    drop_schema(_with_schema(_postgresql.server_uri(), name))


@pytest.fixture
def url(schema: str) -> str:
    """The storage URL of a fresh schema on the session's server."""
    return _with_schema(_postgresql.server_uri(), schema)


def _server() -> psycopg.Connection[TupleRow]:
    return psycopg.connect(_postgresql.server_uri(), autocommit=True)


# -- malformed URLs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        "postgresql://localhost:notaport/db",
        "postgresql://localhost/db?noSuchOption=1",
        "postgres://localhost/db?schema=Bad-Name",
        "postgresql://localhost/db?schema=",
        "postgresql://localhost/db?schema=" + "x" * 64,
        "postgresql://[::1/db",
    ],
)
def test_a_malformed_url_fails_at_open_with_a_configuration_error(bad: str) -> None:
    # refused by storycore's reading of the URL, or by libpq's before it reaches any server
    with pytest.raises(ConfigurationError) as caught:
        open_store(bad)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "bad",
    [
        "postgresql://u@localhost:notaport/app",
        "postgresql://localhost:0/app",
        "postgresql://localhost:65536/app",
        "postgresql://localhost:-1/app",
        "postgresql://localhost:+5432/app",
        "postgresql://one:5432,two:x/app",
        "postgresql://localhost/app?port=x",
        "postgresql://localhost/app?connect_timeout=soon",
    ],
)
def test_a_port_or_timeout_that_is_no_number_is_refused_as_malformed(bad: str) -> None:
    with pytest.raises(ConfigurationError, match=r"^malformed PostgreSQL URL .*: the") as caught:
        open_store(bad)
    assert "resolve" not in str(caught.value)


@pytest.mark.parametrize(
    "bad",
    [
        f"postgresql://alice:{SECRET}@localhost:notaport/db",
        f"postgresql://alice:{SECRET}@localhost/db?noSuchOption=1",
        f"postgresql://alice:{SECRET}@localhost/db?schema=Bad",
        f"postgresql://alice:{SECRET}@[::1/db",
        f"postgresql://alice:{SECRET}@localhost/db?port=x{SECRET}",
        f"postgresql://alice:{SECRET}@localhost:{SECRET}/db",
        f"postgresql://alice:{SECRET}@localhost:5432/db?connect_timeout={SECRET}",
    ],
)
def test_a_malformed_url_never_shows_its_password(bad: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        open_store(bad)
    assert SECRET not in _everything_said(caught.value)


# -- servers that refuse or do not answer ----------------------------------------------------


def test_an_unreachable_server_fails_at_open_naming_it_without_the_password() -> None:
    started = time.monotonic()
    with pytest.raises(ConfigurationError, match=r"cannot open PostgreSQL at 127\.0\.0\.1:1/db"):
        open_store(f"postgresql://alice:{SECRET}@127.0.0.1:1/db")
    assert time.monotonic() - started < NEVER_WAITING


def test_the_command_line_says_one_line_without_the_password(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--db", f"postgresql://alice:{SECRET}@127.0.0.1:1/db", "export"]) == 1
    printed = capsys.readouterr()
    assert printed.err.count("\n") == 1
    assert "cannot open PostgreSQL at 127.0.0.1:1/db" in printed.err
    assert SECRET not in printed.out + printed.err


def test_a_server_that_never_answers_fails_at_open_within_5_seconds() -> None:
    with socket.socket() as silent:  # accepts connections and says nothing
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        started = time.monotonic()
        with pytest.raises(ConfigurationError, match="cannot open PostgreSQL"):
            open_store(f"postgresql://alice:{SECRET}@127.0.0.1:{port}/db")
        assert time.monotonic() - started < NEVER_WAITING


def test_a_missing_database_fails_at_open_saying_so() -> None:
    missing = urlunsplit(urlsplit(_postgresql.server_uri())._replace(path="/no_such_db"))
    with pytest.raises(ConfigurationError, match='"no_such_db" does not exist'):
        open_store(missing)


# -- the schema parameter ------------------------------------------------------------------


def test_the_tables_live_in_the_named_schema_made_when_missing(url: str, schema: str) -> None:
    with _server() as conn:
        assert conn.execute("SELECT to_regnamespace(%s)", (schema,)).fetchone() == (None,)
    store = open_store(url)
    add_story(store, add_user(store, "alice").id, "tale")
    store.close()
    with _server() as conn:
        found = conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = %s"
            " AND table_name IN ('stories', 'users', 'elements')",
            (schema,),
        ).fetchone()
    assert found == (3,)


def test_a_postgres_url_opens_like_a_postgresql_one(url: str) -> None:
    store = open_store(url.replace("postgresql://", "postgres://", 1))
    try:
        assert store.users.find(0, 10) == []
    finally:
        store.close()


def test_stores_of_two_schemas_are_apart(url: str) -> None:
    other = f"storycore_open_{uuid.uuid4().hex[:12]}"
    first, second = open_store(url), open_store(_with_schema(_postgresql.server_uri(), other))
    try:
        add_user(first, "alice")
        assert second.users.find(0, 10) == []
    finally:
        first.close()
        second.close()
        drop_schema(_with_schema(_postgresql.server_uri(), other))


def test_every_pooled_connection_works_in_the_schema(url: str) -> None:
    store = open_store(url)
    author = add_user(store, "alice")
    try:
        with ThreadPoolExecutor(store.parallel_calls) as pool:
            found = list(pool.map(lambda _: store.users.get(author.id), range(32)))
    finally:
        store.close()
    assert found == [author] * 32


def test_a_url_without_a_schema_keeps_the_tables_in_public() -> None:
    database = f"storycore_open_{uuid.uuid4().hex[:12]}"
    with _server() as conn:
        conn.execute(f'CREATE DATABASE "{database}"')
    try:
        open_store(urlunsplit(urlsplit(_postgresql.server_uri())._replace(path=f"/{database}")))
        target = urlunsplit(urlsplit(_postgresql.server_uri())._replace(path=f"/{database}"))
        with psycopg.connect(target) as conn:
            assert conn.execute("SELECT to_regclass('public.stories')").fetchone() != (None,)
    finally:
        with _server() as conn:
            conn.execute(f'DROP DATABASE "{database}" WITH (FORCE)')


def test_the_testing_kit_drops_the_schema_of_a_store_it_named() -> None:
    with fresh_store(_postgresql.store_url()) as store:
        schema = store._db.schema  # type: ignore[attr-defined]
        with _server() as conn:
            assert conn.execute("SELECT to_regnamespace(%s)", (schema,)).fetchone() != (None,)
    with _server() as conn:
        assert conn.execute("SELECT to_regnamespace(%s)", (schema,)).fetchone() == (None,)


# -- migrations ----------------------------------------------------------------------------


def test_opening_records_every_migration(url: str, schema: str) -> None:
    open_store(url).close()
    with _server() as conn:
        found = conn.execute(f'SELECT max(version) FROM "{schema}".schema_version').fetchone()
    assert found == (len(MIGRATIONS),)


def test_reopening_finds_the_data_and_migrates_nothing_again(url: str, schema: str) -> None:
    store = open_store(url)
    story = add_story(store, add_user(store, "alice").id, "tale")
    store.close()
    again = open_store(url)
    try:
        assert again.stories.get(story.id) == story
    finally:
        again.close()
    with _server() as conn:
        found = conn.execute(f'SELECT count(*) FROM "{schema}".schema_version').fetchone()
    assert found == (len(MIGRATIONS),)


def test_stores_opened_at_once_on_a_new_schema_migrate_it_once(url: str, schema: str) -> None:
    with ThreadPoolExecutor(4) as pool:
        stores = list(pool.map(lambda _: open_store(url), range(4)))
    for store in stores:
        store.close()
    with _server() as conn:
        found = conn.execute(f'SELECT count(*) FROM "{schema}".schema_version').fetchone()
    assert found == (len(MIGRATIONS),)


# -- connections lost ----------------------------------------------------------------------


def test_connections_name_the_store_to_the_server(url: str, schema: str) -> None:
    store = open_store(url)
    try:
        add_user(store, "alice")
        with _server() as conn:
            found = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                (f"storycore {schema}",),
            ).fetchone()
    finally:
        store.close()
    assert found is not None
    assert found[0] >= 1


def test_calls_after_the_server_ended_the_sessions_work_at_once(url: str, schema: str) -> None:
    store = open_store(url)
    try:
        author = add_user(store, "alice")
        with _server() as conn:
            ended = f"storycore {schema}"
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = %s",
                (ended,),
            )
            for _ in range(100):  # until the sessions are gone, at most 5 s
                query = "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s"
                if conn.execute(query, (ended,)).fetchone() == (0,):
                    break
                time.sleep(0.05)
        assert store.users.get(author.id) == author
    finally:
        store.close()


def test_a_closed_store_raises_a_bug_not_unavailable(url: str) -> None:
    store = open_store(url)
    store.close()
    with pytest.raises(Exception) as caught:  # noqa: PT011 - the driver's own error
        store.users.get("x")
    assert not isinstance(caught.value, Unavailable)


# -- bulk loads ---------------------------------------------------------------------------


def test_a_large_bulk_load_refreshes_the_planner_statistics(url: str, schema: str) -> None:
    store = open_store(url)
    try:
        author = add_user(store, "alice")
        stories = [make_story(author.id, f"tale-{n}") for n in range(1000)]
        assert store.stories.add_many((story, [], ["tale"]) for story in stories) == 1000
    finally:
        store.close()
    with _server() as conn:
        analyzed = conn.execute(
            "SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables"
            " WHERE schemaname = %s AND relname = 'stories'",
            (schema,),
        ).fetchone()
    assert analyzed == (True,)


# -- missing extras ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("blocked", "scheme"), [({"psycopg"}, "postgresql"), ({"psycopg_pool"}, "postgres")]
)
def test_a_missing_driver_names_the_extra_to_install(blocked: set[str], scheme: str) -> None:
    said = opening_without(blocked, f"{scheme}://localhost/db")
    assert said.startswith("MissingDependencyError")
    assert "pip install 'storycore[postgresql]'" in said


#: What undoes each migration that cannot run twice, the data kept (as
#: ``test_sqlite_migrations`` does): a schema as an earlier version left it, for the migrations
#: after it to run on.
_UNDO = {
    3: """
    DROP TRIGGER author_stats ON stories; DROP FUNCTION count_author_stats();
    DROP TABLE author_stats; DROP INDEX stories_author_public_created; DROP INDEX stories_featured;
    ALTER TABLE stories DROP COLUMN embed_views;
    CREATE INDEX stories_author_stats ON stories (author_id)
        INCLUDE (views, created, featured_at, id) WHERE public;
    """,
    4: """
    DROP TABLE revisions; DROP INDEX stories_due; ALTER TABLE stories DROP COLUMN publish_at;
    UPDATE stories SET record = (record::jsonb - 'publish_at')::text;
    """,
    5: "DROP TABLE events; DROP TABLE webhooks; DROP TABLE deliveries;",
    6: "ALTER TABLE webhooks DROP COLUMN private;",
    7: "DROP TABLE sign_in_failures;",
    8: "DROP TABLE kept_names; DROP TABLE kept_sources; DROP TABLE kept_files;",
    9: "DROP INDEX stories_sitemap; ALTER TABLE stories DROP COLUMN not_indexed;",
    10: "ALTER TABLE kept_sources DROP COLUMN wanted_by;",
}


def rewind(schema: str, to: int) -> None:
    """Make the schema look as if the migrations after ``to`` never ran, the data kept (a story's
    record as that version wrote it)."""
    assert max(_UNDO) == len(MIGRATIONS)  # a new migration comes with its undoing here
    with _server() as conn, conn.transaction():
        conn.execute(f'SET LOCAL search_path = "{schema}"')
        for number in sorted(_UNDO, reverse=True):
            if number > to:
                conn.execute(_UNDO[number])
        conn.execute("DELETE FROM schema_version WHERE version > %s", (to,))


def test_migrating_leaves_the_not_indexed_stories_out_of_a_sitemap(url: str, schema: str) -> None:
    store = open_store(url)
    author = add_user(store, "alice")
    add_story(store, author.id, "shown")
    add_story(store, author.id, "hidden", not_indexed=True)
    store.close()
    rewind(schema, to=8)  # before ``not_indexed`` was a column
    store = open_store(url)
    try:
        found = store.stories.addresses(StoryQuery(offset=0, limit=10, indexed=True))
    finally:
        store.close()
    assert [address.slug for address in found] == ["shown"]


def test_migrating_keeps_the_pictures_wanted_before_with_no_story_noted(
    url: str, schema: str
) -> None:
    address = "https://pictures.example/a.png"
    store = open_store(url)
    store.kept_sources.want([address], at(1))
    store.close()
    rewind(schema, to=9)  # before a record noted the story that wanted it
    store = open_store(url)
    try:
        store.kept_sources.want([address], at(2), story="st_1")
        found = store.kept_sources.get_many([address])[address]
    finally:
        store.close()
    assert (found.seen, found.wanted_by) == (at(2), "st_1")


def test_migrating_counts_each_authors_public_stories_views_and_embed_loads(
    url: str, schema: str
) -> None:
    store = open_store(url)
    author = add_user(store, "alice")
    seen = add_story(store, author.id, "seen", views=3)
    add_story(store, author.id, "hidden", views=100, private=True)
    store.close()
    rewind(schema, to=2)  # a schema as migration 2 left it, before the counters
    with _server() as conn:
        conn.execute(
            f'INSERT INTO "{schema}".embeds (story_id, href, views) VALUES (%s, %s, 2)',
            (seen.id, "https://p.example/"),
        )
    store = open_store(url)
    try:
        stats = store.stories.author_stats([author.id])[author.id]
    finally:
        store.close()
    assert (stats.stories, stats.views, stats.embeds) == (1, 3, 2)


def test_a_schema_of_version_7_migrates_with_no_kept_pictures(url: str, schema: str) -> None:
    open_store(url).close()
    rewind(schema, to=7)
    store = open_store(url)
    try:
        assert store.kept_files.scan(None, 10) == []
        assert store.kept_sources.want(["https://pictures.example/a.png"], at(1)) == 1
    finally:
        store.close()


def test_a_schema_of_version_6_migrates_with_no_failed_sign_ins(url: str, schema: str) -> None:
    open_store(url).close()
    rewind(schema, to=6)
    store = open_store(url)
    try:
        assert store.sign_in_failures.since("user:alice", at(0), 10) == []
        store.sign_in_failures.add(["user:alice"], at(1))
        assert store.sign_in_failures.since("user:alice", at(0), 10) == [at(1)]
    finally:
        store.close()


# -- emptied schemas, which the testing kit opens again ------------------------------------


def _row_counts(schema: str) -> dict[str, int]:
    with _server() as conn:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,)
            ).fetchall()
        ]
        return {
            table: conn.execute(f'SELECT count(*) FROM "{schema}"."{table}"').fetchone()[0]  # type: ignore[index]
            for table in tables
            if table != "schema_version"
        }


def _filled(url: str) -> None:
    """A store with a row in every table: users, an app, a token, an identity, a story with
    elements, an alias, embed counts, author stats, a revision, the derivation version, an
    event, a webhook, a delivery, a failed sign-in and a kept picture."""
    store = open_store(url)
    bring_up_to_date(store)  # the derivation version, as a command opening it records it
    with Service(store, TEST_SETTINGS) as service:
        service.accounts.create_user("alice", "a-password")
        key = service.accounts.create_app("reader").api_key
        service.accounts.authenticate(key, "alice", "a-password")
        alice = service.accounts.as_user("alice")
        story = service.stories.create(
            "alice",
            {"title": "Fog", "elements": ["https://socialA.example/bob/status/1"]},
            viewer=alice,
            publish=True,
        )
        service.stories.change_slug("alice", "fog", "harbour-fog", viewer=alice)
        pages = {(story.id, "https://host.example/"): 1}
        service.store.stories.add_views({}, pages, max_embed_pages=5)
        stored = service.store.stories.get(story.id)
        assert stored is not None
        service.store.stories.replace(
            stored.model_copy(update={"version": stored.version + 1}),
            expected_version=stored.version,
            revision=RevisionMark(stored.updated, stored.author_id, keep=50),
            events=[Event("evt_1", "story.saved", stored.updated, story.id, "{}")],
        )
        service.store.webhooks.add(
            WebhookRecord(
                id="hook",
                url="https://h.example/",
                events=("*",),
                secret="sealed",
                created=stored.updated,
                created_by=stored.author_id,
            )
        )
        service.store.deliveries.add_many([Delivery("hook", "evt_1", "story.saved", "now")])
        service.store.identities.add_user("idp", "42", make_user("bob"))
        service.store.sign_in_failures.add(["user:alice"], stored.updated)
        _keep_a_picture(service.store, stored.updated)


def _keep_a_picture(store: Store, now: str) -> None:
    """A kept file, and the record of the address it was kept from, naming it."""
    data = b"a picture"
    file = KeptFile(hashlib.sha256(data).hexdigest(), "image/png", 1, 1, len(data), now)
    store.kept_files.put(file, data)
    store.kept_sources.want(["https://pictures.example/a.png"], now)
    (wanted,) = store.kept_sources.claim(now, now + "1", "keeper", 1)
    kept = wanted._replace(state="kept", copies=(KeptCopy(file.name, "image/png", 1, 1),))
    assert store.kept_sources.finish(kept, "keeper")


def test_emptying_a_schema_deletes_every_row_and_keeps_its_tables(url: str, schema: str) -> None:
    _filled(url)
    assert all(_row_counts(schema).values())
    assert empty_schema(url)
    counts = _row_counts(schema)
    assert counts
    assert not any(counts.values())


def test_a_store_opened_on_an_emptied_schema_is_a_fresh_one(url: str, schema: str) -> None:
    _filled(url)
    empty_schema(url)
    store = open_store(url)
    try:
        assert store.users.find(0, 10) == []
        assert store.derivation() is None
        assert store.events.end() is None
        assert store.webhooks.find(0, 10) == []
        add_story(store, add_user(store, "alice").id, "fog")  # the slug and keys are free
    finally:
        store.close()


def test_a_schema_holding_other_tables_is_left_as_it_is(url: str, schema: str) -> None:
    _filled(url)
    with _server() as conn:
        conn.execute(f'CREATE TABLE "{schema}".host_notes (note text)')
    before = _row_counts(schema)
    assert not empty_schema(url)
    assert _row_counts(schema) == before


KIT_TESTS = """
def test_one(service, storycore_users):
    print("SCHEMA", service.store._db.schema, len(service.store.users.find(0, 10)))


def test_two(store):
    print("SCHEMA", store._db.schema, len(store.users.find(0, 10)))
"""


def test_the_testing_kit_opens_an_emptied_schema_again_and_drops_it_at_the_end(
    tmp_path: Path,
) -> None:
    (tmp_path / "test_host.py").write_text(KIT_TESTS)
    ran = _run_pytest(tmp_path, "--storycore-store-url", _postgresql.store_url())
    assert ran.returncode == 0, ran.stdout + ran.stderr
    said = [said.split() for said in re.findall(r"SCHEMA \S+ \d+", ran.stdout)]
    assert [count for _, _, count in said] == ["4", "0"]
    assert said[0][1] == said[1][1]
    with _server() as conn:
        assert conn.execute("SELECT to_regnamespace(%s)", (said[0][1],)).fetchone() == (None,)


FRESH_SERVICE_TESTS = """
from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=20, deadline=None)
@given(st.integers())
def test_each_example(fresh_service, number):
    with fresh_service() as service:
        print("SCHEMA", service.store._db.schema, len(service.store.users.find(0, 10)))
        service.accounts.create_user("alice", "a-password")
"""


def test_fresh_service_opens_one_emptied_schema_again_for_every_example(tmp_path: Path) -> None:
    (tmp_path / "test_host.py").write_text(FRESH_SERVICE_TESTS)
    url = _postgresql.store_url()
    ran = _run_pytest(tmp_path, "--storycore-store-url", url, autoload=True)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    said = [said.split() for said in re.findall(r"SCHEMA \S+ \d+", ran.stdout)]
    assert len(said) >= 20
    assert {count for _, _, count in said} == {"0"}
    assert len({schema for _, schema, _ in said}) == 1
    with _server() as conn:
        assert conn.execute("SELECT to_regnamespace(%s)", (said[0][1],)).fetchone() == (None,)
