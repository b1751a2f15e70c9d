"""Fresh, empty stores on a storage URL, and what is done with each after its use: the one place
where the kit fills ``{dir}`` and ``{name}`` and cleans up after them.

``FreshStores.store(url)`` is a context manager: on entry ``{dir}`` becomes a new temporary
directory (or the one given) and ``{name}`` a new unique name (or a PostgreSQL schema emptied
earlier for the same URL), and the store opens; on exit the store closes, the temporary
directory goes, a MongoDB database (real or mongomock) so named is dropped and a PostgreSQL
schema so named is emptied and kept for the next store on that URL (``keep_schemas``), since
making a schema runs every migration (about 70 ms against 1). With ``copy_sqlite``, a SQLite
file in ``{dir}`` starts as a copy of one made once for its URL, its tables made and nothing in
them: creating the tables is nearly all a new file costs (about 10 ms on an idle machine, 50 on
a busy one, where a copy takes 1 to 5). ``close()`` drops the kept schemas and the copied files.
"""

from __future__ import annotations

import functools
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from storycore.errors import ConfigurationError

if TYPE_CHECKING:
    from storycore.clocks import Clock
    from storycore.ports import Store
    from storycore.service import Service
    from storycore.settings import Settings

__all__ = ["FreshStores", "check_fresh", "kit_settings"]

_POSTGRESQL = ("postgresql://", "postgres://")
_SQLITE_FILE = "sqlite:///"
_MONGODB = ("mongodb://", "mongodb+srv://", "mongomock://")


@functools.cache
def kit_settings() -> Settings:
    """The kit's ``Settings``: the defaults, with scrypt at a low cost so that creating users and
    authenticating stay fast (the hash format and checks are the same)."""
    from storycore.settings import Settings

    return Settings(password_cost=2**4)


def check_fresh(url: str) -> str:
    """``url`` when each store opened on it is a new, empty one (``sqlite://``, ``memory://``,
    or a ``{dir}`` or ``{name}`` to fill); ``ConfigurationError`` for a URL that names one
    lasting store, which every example would share."""
    if url.rstrip("/") == "sqlite:" or url.startswith("memory://"):
        return url
    if "{dir}" in url or "{name}" in url:
        return url
    raise ConfigurationError(
        f"{url!r} names one lasting store, not a fresh one each time: put {{dir}} in a SQLite"
        " file's path (sqlite:///{dir}/stories.db) or {name} where a server's database or"
        " schema is named (mongomock://{name}, postgresql://host/db?schema={name}), or use"
        " sqlite:// or memory://"
    )


class FreshStores:
    """Opens fresh, empty stores and cleans up after each; with ``keep_schemas``, keeps the
    PostgreSQL schemas it emptied, by the URL (with ``{name}``) they were named for, and with
    ``copy_sqlite`` the SQLite files later ones are copied from, by URL, until ``close()``."""

    def __init__(self, *, keep_schemas: bool = True, copy_sqlite: bool = True) -> None:
        self.keep_schemas = keep_schemas
        self.copy_sqlite = copy_sqlite
        self._emptied: dict[str, list[str]] = {}
        self._originals: dict[str, Path] = {}  # the SQLite file copied for each URL
        self._originals_directory: Path | None = None

    @contextmanager
    def store(self, url: str, directory: Path | None = None) -> Iterator[Store]:
        """A fresh, empty store on ``url``, closed and cleaned up on exit; ``{dir}`` becomes
        ``directory`` (kept) or, when None, a new temporary directory (removed on exit)."""
        from storycore.adapters import open_store

        with ExitStack() as cleanup:
            if "{dir}" in url:
                if directory is None:
                    made = cleanup.enter_context(tempfile.TemporaryDirectory(prefix="storycore-"))
                    directory = Path(made)
                filled = url.replace("{dir}", str(directory))
                if self.copy_sqlite and url.startswith(_SQLITE_FILE) and "{name}" not in url:
                    _copy(self._original(url), _sqlite_path(filled))
                url = filled
            if "{name}" in url:
                template, url = url, self._name(url)
                cleanup.callback(self._release, template, url)
            store = open_store(url)
            cleanup.callback(store.close)
            yield store

    @contextmanager
    def service(
        self, url: str, settings: Settings | None = None, *, clock: Clock | None = None
    ) -> Iterator[Service]:
        """A ``Service`` on a fresh, empty store on ``url`` (with ``settings``, by default
        ``kit_settings()``, and ``clock``, by default the system's), closed and cleaned up on
        exit."""
        from storycore.service import Service

        with (
            self.store(url) as store,
            Service(store, settings or kit_settings(), clock=clock) as made,
        ):
            yield made

    def close(self) -> None:
        """Drop the PostgreSQL schemas kept for later stores, and delete the SQLite files they
        were copied from."""
        for urls in self._emptied.values():
            while urls:
                _drop_server_database(urls.pop())
        self._originals.clear()
        if self._originals_directory is not None:
            shutil.rmtree(self._originals_directory, ignore_errors=True)
            self._originals_directory = None

    def _original(self, url: str) -> Path:
        """The SQLite file that stores on ``url`` (a ``sqlite:///`` URL with ``{dir}``) start as
        a copy of: made, its tables with it, the first time."""
        from storycore.adapters import open_store

        if url not in self._originals:
            if self._originals_directory is None:
                self._originals_directory = Path(tempfile.mkdtemp(prefix="storycore-originals-"))
            directory = self._originals_directory / str(len(self._originals))
            filled = url.replace("{dir}", str(directory))
            _sqlite_path(filled).parent.mkdir(parents=True, exist_ok=True)
            open_store(filled).close()
            self._originals[url] = _sqlite_path(filled)
        return self._originals[url]

    def _name(self, template: str) -> str:
        """``template`` with ``{name}`` filled: a schema emptied earlier for it, or a new name."""
        emptied = self._emptied.get(template)
        if emptied:
            return emptied.pop()
        return template.replace("{name}", f"storycore_{uuid.uuid4().hex[:12]}")

    def _release(self, template: str, url: str) -> None:
        """After the store on ``url`` (``template`` filled) closed: keep its PostgreSQL schema,
        emptied, for the next store on ``template``, or drop what the name made."""
        if self.keep_schemas and url.startswith(_POSTGRESQL) and _empty_schema(url):
            self._emptied.setdefault(template, []).append(url)
        else:
            _drop_server_database(url)


def _sqlite_path(url: str) -> Path:
    """The file a ``sqlite:///`` URL names (``sqlite:////abs/x.db`` is ``/abs/x.db``)."""
    return Path(url.removeprefix(_SQLITE_FILE))


def _copy(original: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(original, target)


def _empty_schema(url: str) -> bool:
    from storycore.adapters.postgresql import empty_schema

    return empty_schema(url)


def _drop_server_database(url: str) -> None:
    """Drop the database a ``{name}`` URL made on a MongoDB server or on the process's mongomock
    server, or the schema it made on a PostgreSQL server (other stores go with their
    connection or their temporary directory)."""
    if url.startswith(_POSTGRESQL):
        from storycore.adapters.postgresql import drop_schema

        drop_schema(url)
    elif url.startswith(_MONGODB):
        from storycore.adapters.mongodb import drop_database

        drop_database(url)
