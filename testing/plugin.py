"""The storycore pytest plugin: fixtures for a host application's tests.

pytest loads it by itself once storycore is installed (entry point ``pytest11``, name
``storycore``); where plugin autoloading is off, pass ``-p storycore`` (the entry point's name,
which also works with autoloading on; ``-p storycore.testing.plugin`` would then register the
plugin twice). It asks nothing of a test that uses none of its fixtures.

Storage: every test that uses ``store_factory``, ``store``, ``service`` or ``fresh_service``
runs once per storage URL listed in the ``storycore_store_urls`` ini value (one per line, or a
TOML list), or given with ``--storycore-store-url URL`` (repeatable; replaces the ini value).
The default is ``sqlite://`` (SQLite in memory). In a URL, ``{dir}`` becomes a fresh temporary
directory and ``{name}`` a fresh unique name, so each store opened is a new, empty one. A
database named so on a MongoDB server (or on mongomock) is dropped after the test. A schema
named so on a PostgreSQL server is emptied after the test (every row deleted, its tables kept)
and opened again by the next store on that URL, since making a schema runs every migration;
each is dropped when the session ends::

    [tool.pytest.ini_options]
    storycore_store_urls = ["sqlite://", "sqlite:///{dir}/stories.db"]

A ``conftest.py`` may add URLs at start-up (say, a real MongoDB when a variable names one)::

    def pytest_configure(config):
        if os.environ.get("MONGODB_URI"):
            config.addinivalue_line("storycore_store_urls", os.environ["MONGODB_URI"] + "_{name}")

A test (or a module, through ``pytestmark``) may name its own storage URLs with the marker of
the same name, which wins over the ini value and the option::

    pytestmark = pytest.mark.storycore_store_urls("memory://")

Fixtures (each may be overridden by a fixture of the same name in a ``conftest.py``). All but
``fresh_service`` are function-scoped: a hypothesis ``@given`` test that uses one of them gets
one store for all its examples, and hypothesis's ``function_scoped_fixture`` health check stops
it. ``fresh_service`` is session-scoped and hands out a new store per ``with``, one per example::

    @given(titles())
    def test_a_title(fresh_service, title):
        with fresh_service() as service:
            ...

============================  =================================================================
``storycore_store_url``       the storage URL of this run of the test (parametrized)
``store_factory``             opens fresh, empty stores on that URL; closes them after the test
``store``                     a fresh, empty store
``storycore_settings``        the ``Settings`` of ``service`` (scrypt at a low cost, for speed)
``storycore_clock``           the clock of ``service``: the system's; override it with a
                              ``ManualClock`` to move the service's time by hand
``service``                   a ``Service`` on ``store``, with those settings and that clock
``storycore_users``           ``Users``: alice, bob, an editor (ed), a curator (cora)
``storycore_app``             ``AppKeys``: an application's api key, and credentials per user
``storycore_asgi_app``        the ASGI application under test: ``StorycoreASGI(service)``;
                              override it to test a host application with storycore mounted
``storycore_client``          an ``httpx.Client`` over ``storycore_asgi_app``, in process
``fresh_service``             ``FreshService``: ``with fresh_service() as service`` gives a new
                              ``Service`` on a new, empty store on the run's storage URL, gone
                              after the ``with`` (session-scoped: for ``@given`` tests)
============================  =================================================================

The plugin imports storycore, httpx and hypothesis only inside its fixtures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

from ._fresh import FreshStores, check_fresh, kit_settings

if TYPE_CHECKING:
    import httpx

    from storycore.clocks import Clock
    from storycore.model.visibility import Viewer
    from storycore.ports import Store
    from storycore.service import Service
    from storycore.settings import Settings

    from .client import ASGIApp

__all__ = [
    "DEFAULT_STORE_URLS",
    "AppKeys",
    "FreshService",
    "Users",
    "fresh_service",
    "service",
    "store",
    "store_factory",
    "store_id",
    "store_urls",
    "storycore_app",
    "storycore_asgi_app",
    "storycore_client",
    "storycore_clock",
    "storycore_settings",
    "storycore_store_url",
    "storycore_users",
]

DEFAULT_STORE_URLS = ("sqlite://",)
_URL_FIXTURE = "storycore_store_url"
_FRESH_FIXTURE = "fresh_service"
_PER_URL = (_URL_FIXTURE, _FRESH_FIXTURE)  # the fixtures parametrized by storage URL
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
        if set(_PER_URL) & set(names):
            return True
    return False


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test that needs a store once per storage URL: those of its
    ``storycore_store_urls`` marker, else the configured ones (unless it parametrizes
    ``storycore_store_url`` or ``fresh_service`` itself). ``fresh_service`` and
    ``storycore_store_url``, when a test uses both, take the same URL in each run.
    """
    names = [name for name in _PER_URL if name in metafunc.fixturenames]
    if not names or _parametrized_by_hand(metafunc):
        return
    chosen = metafunc.definition.get_closest_marker(_INI)
    urls = list(chosen.args) if chosen and chosen.args else store_urls(metafunc.config)
    metafunc.parametrize(
        names,
        [(url,) * len(names) for url in urls],
        ids=[store_id(url) for url in urls],
        indirect=True,
    )


# -- storage and service ----------------------------------------------------------------------


@pytest.fixture
def storycore_store_url(request: pytest.FixtureRequest) -> str:
    """The storage URL this run of the test uses (``{dir}`` and ``{name}`` not yet filled)."""
    return str(getattr(request, "param", store_urls(request.config)[0]))


#: The session's fresh stores: for ``store_factory`` (which keeps the PostgreSQL schemas it
#: emptied for later stores) and for ``fresh_service`` (which also copies SQLite files).
_FRESH_STORES = pytest.StashKey[dict[bool, FreshStores]]()


def _fresh_stores(config: pytest.Config, *, copy_sqlite: bool) -> FreshStores:
    """The session's ``FreshStores`` that copies SQLite files (or the one that does not)."""
    made = config.stash.setdefault(_FRESH_STORES, {})
    if copy_sqlite not in made:
        made[copy_sqlite] = FreshStores(copy_sqlite=copy_sqlite)
    return made[copy_sqlite]


@pytest.fixture
def store_factory(
    storycore_store_url: str, tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> Iterator[Callable[[], Store]]:
    """Opens fresh, empty stores on ``storycore_store_url``; closes them all after the test.

    Call it once per example of a stateful test that the test runs itself
    (``run_state_machine_as_test``); a ``@given`` test takes ``fresh_service`` instead, since a
    function-scoped fixture trips hypothesis's ``function_scoped_fixture`` health check.
    """
    fresh = _fresh_stores(pytestconfig, copy_sqlite=False)
    with ExitStack() as opened:

        def open_fresh() -> Store:
            url = storycore_store_url
            directory = tmp_path_factory.mktemp("store") if "{dir}" in url else None
            return opened.enter_context(fresh.store(url, directory))

        yield open_fresh


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Drop the PostgreSQL schemas the session emptied to open again (and delete the SQLite
    files ``fresh_service`` copied)."""
    for fresh in session.config.stash.get(_FRESH_STORES, {}).values():
        fresh.close()


class FreshService:
    """What the ``fresh_service`` fixture gives: ``fresh_service()`` is a context manager
    yielding a new ``Service`` on a new, empty store on ``url``, the storage URL of this run of
    the test; the service and its store close, and the store's file, database or schema goes,
    at the end of the ``with``. ``fresh_service(settings)`` runs it with other ``Settings``
    than the kit's (those of ``storycore_settings`` as the kit defines it);
    ``fresh_service(clock=ManualClock())`` with a clock moved by hand.
    """

    def __init__(self, url: str, stores: FreshStores) -> None:
        self.url = url
        self._stores = stores

    def __call__(
        self, settings: Settings | None = None, *, clock: Clock | None = None
    ) -> AbstractContextManager[Service]:
        """A context manager yielding a new ``Service`` on a new, empty store on ``url``."""
        return self._stores.service(self.url, settings, clock=clock)

    def __repr__(self) -> str:
        return f"FreshService({self.url!r})"


@pytest.fixture(scope="session")
def fresh_service(request: pytest.FixtureRequest) -> FreshService:
    """``FreshService`` on this run's storage URL: ``with fresh_service() as service`` gives a
    new service on a new, empty store, one per hypothesis example.

    Session-scoped, so that a ``@given`` test may use it without tripping hypothesis's
    ``function_scoped_fixture`` health check: what it hands out is fresh at each ``with``.
    ``ConfigurationError`` for a URL that names one lasting store (no ``{dir}`` or ``{name}``).

    It opens one service at once and closes it: what the first one costs (imports, and on
    PostgreSQL a schema made by every migration, which later ones take emptied) is paid here,
    not by the first example, which would exceed hypothesis's deadline on PostgreSQL.
    """
    url = str(getattr(request, "param", store_urls(request.config)[0]))
    made = FreshService(check_fresh(url), _fresh_stores(request.config, copy_sqlite=True))
    with made():
        pass
    return made


@pytest.fixture
def store(store_factory: Callable[[], Store]) -> Store:
    """A fresh, empty store on ``storycore_store_url``."""
    return store_factory()


@pytest.fixture
def storycore_settings() -> Settings:
    """The ``Settings`` of ``service``: the defaults, with scrypt at a low cost so that
    creating users and authenticating stay fast (the hash format and checks are the same).
    """
    return kit_settings()


@pytest.fixture
def storycore_clock() -> Clock:
    """The clock of ``service``: the system's. A test module (or a ``conftest.py``) that moves
    time by hand overrides it with a ``storycore.testing.ManualClock``::

        @pytest.fixture
        def storycore_clock():
            return ManualClock()
    """
    from storycore.clocks import SystemClock

    return SystemClock()


@pytest.fixture
def service(
    store: Store, storycore_settings: Settings, storycore_clock: Clock
) -> Iterator[Service]:
    """A ``Service`` on a fresh ``store`` with ``storycore_settings`` and ``storycore_clock``,
    closed after the test (which writes its views)."""
    from storycore.service import Service

    with Service(store, storycore_settings, clock=storycore_clock) as made:
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
