"""The storycore pytest plugin: fixtures for a host application's tests.

pytest loads it by itself once storycore is installed (entry point ``pytest11``, name
``storycore``); where plugin autoloading is off, pass ``-p storycore`` (the entry point's name,
which also works with autoloading on; ``-p storycore.testing.plugin`` would then register the
plugin twice). It asks nothing of a test that uses none of its fixtures.

Storage: every test that uses ``store_factory``, ``store`` or ``service`` runs once per storage
URL listed in the ``storycore_store_urls`` ini value (one per line, or a TOML list), or given
with ``--storycore-store-url URL`` (repeatable; replaces the ini value). The default is
``sqlite://`` (SQLite in memory). In a URL, ``{dir}`` becomes a fresh temporary directory and
``{name}`` a fresh unique name, so each store opened is a new, empty one. A database named so
on a MongoDB server is dropped after the test. A schema named so on a PostgreSQL server is
emptied after the test (every row deleted, its tables kept) and opened again by the next store
on that URL, since making a schema runs every migration; each is dropped when the session ends::

    [tool.pytest.ini_options]
    storycore_store_urls = ["sqlite://", "sqlite:///{dir}/stories.db"]

A ``conftest.py`` may add URLs at start-up (say, a real MongoDB when a variable names one)::

    def pytest_configure(config):
        if os.environ.get("MONGODB_URI"):
            config.addinivalue_line("storycore_store_urls", os.environ["MONGODB_URI"] + "_{name}")

A test (or a module, through ``pytestmark``) may name its own storage URLs with the marker of
the same name, which wins over the ini value and the option::

    pytestmark = pytest.mark.storycore_store_urls("memory://")

Fixtures (each may be overridden by a fixture of the same name in a ``conftest.py``):

============================  =================================================================
``storycore_store_url``       the storage URL of this run of the test (parametrized)
``store_factory``             opens fresh, empty stores on that URL; closes them after the test
``store``                     a fresh, empty store
``storycore_settings``        the ``Settings`` of ``service`` (scrypt at a low cost, for speed)
``service``                   a ``Service`` on ``store``
``storycore_users``           ``Users``: alice, bob, an editor (ed), a curator (cora)
``storycore_app``             ``AppKeys``: an application's api key, and credentials per user
``storycore_asgi_app``        the ASGI application under test: ``StorycoreASGI(service)``;
                              override it to test a host application with storycore mounted
``storycore_client``          an ``httpx.Client`` over ``storycore_asgi_app``, in process
============================  =================================================================

The plugin imports storycore, httpx and hypothesis only inside its fixtures.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    import httpx

    from storycore.ports import Store
    from storycore.service import Service
    from storycore.settings import Settings
    from storycore.visibility import Viewer

    from .client import ASGIApp

__all__ = [
    "DEFAULT_STORE_URLS",
    "AppKeys",
    "Users",
    "service",
    "store",
    "store_factory",
    "store_id",
    "store_urls",
    "storycore_app",
    "storycore_asgi_app",
    "storycore_client",
    "storycore_settings",
    "storycore_store_url",
    "storycore_users",
]

DEFAULT_STORE_URLS = ("sqlite://",)
_URL_FIXTURE = "storycore_store_url"
_INI = "storycore_store_urls"


# -- configuration ----------------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--storycore-store-url`` and the ``storycore_store_urls`` ini value."""
    group = parser.getgroup("storycore", "storycore testing kit")
    group.addoption(
        "--storycore-store-url",
        action="append",
        dest=_INI,
        default=None,
        metavar="URL",
        help="a storage URL to run storycore store tests on (repeatable; replaces the "
        f"{_INI} ini value); {{dir}} is a fresh directory, {{name}} a fresh name",
    )
    parser.addini(
        _INI,
        type="linelist",
        default=[],
        help="storage URLs to run storycore store tests on (default: sqlite://)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``storycore_store_urls`` marker."""
    config.addinivalue_line(
        "markers",
        f"{_INI}(*urls): run this test's store fixtures on these storage URLs only, whatever "
        f"the {_INI} ini value or --storycore-store-url say",
    )


def store_urls(config: pytest.Config) -> list[str]:
    """The storage URLs the store fixtures run on: the command line's, else the ini value's,
    else ``DEFAULT_STORE_URLS``.
    """
    given: list[str] = config.getoption(_INI) or config.getini(_INI)
    return [url.strip() for url in given if url.strip()] or list(DEFAULT_STORE_URLS)


def store_id(url: str) -> str:
    """The test id of a storage URL: ``sqlite-memory``, ``sqlite-file``, else its scheme."""
    scheme = url.split(":", 1)[0].lower() if "://" in url else "store"
    if scheme == "sqlite":
        return "sqlite-memory" if url.rstrip("/") == "sqlite:" else "sqlite-file"
    return scheme


def _parametrized_by_hand(metafunc: pytest.Metafunc) -> bool:
    for marker in metafunc.definition.iter_markers("parametrize"):
        names: Any = marker.args[0] if marker.args else marker.kwargs.get("argnames", ())
        if isinstance(names, str):
            names = [name.strip() for name in names.split(",")]
        if _URL_FIXTURE in names:
            return True
    return False


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test that needs a store once per storage URL: those of its
    ``storycore_store_urls`` marker, else the configured ones (unless it parametrizes
    ``storycore_store_url`` itself).
    """
    if _URL_FIXTURE not in metafunc.fixturenames or _parametrized_by_hand(metafunc):
        return
    chosen = metafunc.definition.get_closest_marker(_INI)
    urls = list(chosen.args) if chosen and chosen.args else store_urls(metafunc.config)
    metafunc.parametrize(_URL_FIXTURE, urls, ids=[store_id(url) for url in urls], indirect=True)


# -- storage and service ----------------------------------------------------------------------


@pytest.fixture
def storycore_store_url(request: pytest.FixtureRequest) -> str:
    """The storage URL this run of the test uses (``{dir}`` and ``{name}`` not yet filled)."""
    return str(getattr(request, "param", store_urls(request.config)[0]))


#: Emptied PostgreSQL schemas of this session, by the URL (with ``{name}``) they were named for.
_EMPTIED = pytest.StashKey[dict[str, list[str]]]()


@pytest.fixture
def store_factory(
    storycore_store_url: str, tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> Iterator[Callable[[], Store]]:
    """Opens fresh, empty stores on ``storycore_store_url``; closes them all after the test.

    Call it once per hypothesis example for a stateful or property test that needs a new store
    each time.
    """
    from storycore.adapters import open_store

    emptied = pytestconfig.stash.setdefault(_EMPTIED, {}).setdefault(storycore_store_url, [])
    opened: list[Store] = []
    named: list[str] = []

    def open_fresh() -> Store:
        url = storycore_store_url
        if "{dir}" in url:
            url = url.replace("{dir}", str(tmp_path_factory.mktemp("store")))
        if "{name}" in url:
            if emptied:
                url = emptied.pop()
            else:
                url = url.replace("{name}", f"storycore_{uuid.uuid4().hex[:12]}")
            named.append(url)
        store: Store = open_store(url)
        opened.append(store)
        return store

    yield open_fresh
    for store in reversed(opened):
        store.close()
    for url in named:
        if _postgresql(url) and _empty_schema(url):
            emptied.append(url)  # for the next store on this URL
        else:
            _drop_server_database(url)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Drop the PostgreSQL schemas the session emptied to open again."""
    for urls in session.config.stash.get(_EMPTIED, {}).values():
        while urls:
            _drop_server_database(urls.pop())


def _postgresql(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def _empty_schema(url: str) -> bool:
    from storycore.adapters.postgresql import empty_schema

    return empty_schema(url)


def _drop_server_database(url: str) -> None:
    """Drop the database a ``{name}`` URL made on a MongoDB server, or the schema it made on a
    PostgreSQL server (other stores go with their connection or their temporary directory).
    """
    if _postgresql(url):
        from storycore.adapters.postgresql import drop_schema

        drop_schema(url)
    if not url.startswith(("mongodb://", "mongodb+srv://")):
        return
    import pymongo

    client: pymongo.MongoClient[dict[str, Any]]
    with pymongo.MongoClient(url, serverSelectionTimeoutMS=5000) as client:
        client.drop_database(client.get_default_database())


@pytest.fixture
def store(store_factory: Callable[[], Store]) -> Store:
    """A fresh, empty store on ``storycore_store_url``."""
    return store_factory()


@pytest.fixture
def storycore_settings() -> Settings:
    """The ``Settings`` of ``service``: the defaults, with scrypt at a low cost so that
    creating users and authenticating stay fast (the hash format and checks are the same).
    """
    from storycore.settings import Settings

    return Settings(password_cost=2**4)


@pytest.fixture
def service(store: Store, storycore_settings: Settings) -> Iterator[Service]:
    """A ``Service`` on a fresh ``store``, closed after the test (which writes its views)."""
    from storycore.service import Service

    with Service(store, storycore_settings) as made:
        yield made


# -- users and an application -----------------------------------------------------------------


@dataclass(frozen=True)
class Users:
    """Four users of ``service``, as the viewers a host application passes to it.

    ``alice`` and ``bob`` are plain users, ``editor`` (ed) may act on every story, ``curator``
    (cora) may feature stories. Each user's password is ``password(username)``.
    """

    alice: Viewer
    bob: Viewer
    editor: Viewer
    curator: Viewer

    @staticmethod
    def password(username: str) -> str:
        """The password the fixture gave ``username``: ``"<username>-password"``."""
        return f"{username}-password"


@pytest.fixture
def storycore_users(service: Service) -> Users:
    """``Users``: alice, bob, ed (an editor) and cora (may feature stories), made on ``service``."""
    accounts = service.accounts
    for username, name, editor, can_feature in (
        ("alice", "Alice Liddell", False, False),
        ("bob", "Bob Builder", False, False),
        ("ed", "Ed Itor", True, False),
        ("cora", "Cora", False, True),
    ):
        accounts.create_user(
            username, Users.password(username), name=name, editor=editor, can_feature=can_feature
        )
    return Users(
        alice=accounts.as_user("alice"),
        bob=accounts.as_user("bob"),
        editor=accounts.as_user("ed"),
        curator=accounts.as_user("cora"),
    )


@dataclass
class AppKeys:
    """An application of ``service`` and its ``api_key``; ``credentials`` authenticates users."""

    service: Service
    api_key: str
    tokens: dict[str, str] = field(default_factory=dict)

    def credentials(self, username: str, password: str | None = None) -> dict[str, str]:
        """``api_key``, ``username`` and ``_token`` of ``username``, as an authenticated request
        carries them. The token is made on first use, with ``password`` (by default the one
        ``storycore_users`` gave the user).
        """
        if username not in self.tokens:
            grant = self.service.accounts.authenticate(
                self.api_key, username, password or Users.password(username)
            )
            self.tokens[username] = grant.token
        return {"api_key": self.api_key, "username": username, "_token": self.tokens[username]}


@pytest.fixture
def storycore_app(service: Service) -> AppKeys:
    """``AppKeys``: an application ``storycore-tests`` of ``service`` with its api key."""
    return AppKeys(service, service.accounts.create_app("storycore-tests").api_key)


# -- HTTP -------------------------------------------------------------------------------------


@pytest.fixture
def storycore_asgi_app(service: Service) -> ASGIApp:
    """The ASGI application ``storycore_client`` calls: storycore's own, on ``service``.

    Override it to test a host application that mounts storycore (it may use ``service``).
    """
    from storycore.contrib.asgi import StorycoreASGI

    app: ASGIApp = StorycoreASGI(service)
    return app


@pytest.fixture
def storycore_client(storycore_asgi_app: ASGIApp) -> Iterator[httpx.Client]:
    """An ``httpx.Client`` over ``storycore_asgi_app``, in process, at ``http://testserver``."""
    from .client import asgi_client

    with asgi_client(storycore_asgi_app) as client:
        yield client
