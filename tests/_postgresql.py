"""The PostgreSQL server of the test session: a throwaway cluster, or the one a variable names.

``STORYCORE_TEST_POSTGRESQL_URI`` (``postgresql://user:password@host:port/dbname``) points the
suite at an existing server; each store then lives in a schema of its own, dropped after its
test. Without it, the session starts its own cluster the first time a selected test runs on
PostgreSQL: ``initdb`` of the newest ``/usr/lib/postgresql/*/bin`` into a temporary directory,
then ``pg_ctl start`` listening on 127.0.0.1 at a free port and on a Unix socket in that
directory (the kit's stores use the socket: each round trip is a little shorter). Trust
authentication; no fsync and minimal WAL, as schemas are made and dropped several times a
second and a test cluster has nothing to keep through a machine crash; commits stay
synchronous, so a write acknowledged before the server is killed is there when it restarts.
PostgreSQL refuses to run as root, so under root the cluster runs as the ``postgres`` user, who
owns the directory. The cluster stops and its directory goes when the session ends (``atexit``
too, for an interrupted session). With neither a variable nor binaries, the PostgreSQL runs are
skipped with the reason ``unavailable()`` gives.

The later suites (faults, concurrency) may ``stop()`` and ``start()`` the cluster again: its
data directory and port stay until the session ends.
"""

from __future__ import annotations

import atexit
import functools
import importlib.util
import os
import pwd
import random
import re
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["ENV", "Cluster", "cluster", "server_uri", "store_url", "unavailable"]

# psycopg_pool's worker threads draw the jitter of reconnections and connection lifetimes from
# the global ``random``; hypothesis fails a test whose global random state changes while it
# draws an example, which a pool growing in the background can do at any moment. The pool gets
# a generator of its own (the jitter only spreads reconnections over time).
try:
    import psycopg_pool.base
except ModuleNotFoundError:  # unavailable() says so
    pass
else:
    psycopg_pool.base.random = random.Random().random  # type: ignore[attr-defined]

ENV = "STORYCORE_TEST_POSTGRESQL_URI"
_BINARIES = Path("/usr/lib/postgresql")
_OWNER = "postgres"  # the user the cluster runs as when the tests run as root
_START_SECONDS = 60


def _newest_bindir() -> Path | None:
    """The ``bin`` directory of the newest PostgreSQL installed, or None."""
    found = [path.parent for path in _BINARIES.glob("*/bin/initdb")]
    numbered = [path for path in found if re.fullmatch(r"\d+", path.parent.name)]
    return max(numbered, key=lambda path: int(path.parent.name), default=None)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Cluster:
    """A PostgreSQL cluster in a temporary directory (made now), initialized on the first
    ``start()``."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.port = _free_port()
        self.directory = Path(tempfile.mkdtemp(prefix="storycore-pg-"))
        atexit.register(self.remove)
        if os.geteuid() == 0:
            owner = pwd.getpwnam(_OWNER)
            os.chown(self.directory, owner.pw_uid, owner.pw_gid)
        self.running = False

    @property
    def uri(self) -> str:
        """The URL of the cluster's ``postgres`` database, as its superuser, over TCP."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    @property
    def socket_uri(self) -> str:
        """The same over the cluster's Unix socket (each round trip a little shorter)."""
        host = urlencode({"host": str(self.directory), "port": self.port})
        return f"postgresql://postgres@/postgres?{host}"

    @property
    def data(self) -> Path:
        return self.directory / "data"

    def _run(self, *command: str) -> None:
        """Run a PostgreSQL program as the cluster's owner; its output in the error if it fails."""
        if os.geteuid() == 0:
            command = ("runuser", "-u", _OWNER, "--", *command)
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
        if done.returncode != 0:
            log = self.directory / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}{tail}")

    def start(self) -> None:
        """Make the cluster if it is not made yet, and start it (waiting until it accepts)."""
        if self.running:
            return
        if not self.data.exists():
            initdb = str(self.bindir / "initdb")
            flags = ("-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync")
            self._run(initdb, "-D", str(self.data), *flags)
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port}"
            f" -c unix_socket_directories={self.directory}"
            " -c fsync=off -c full_page_writes=off -c wal_level=minimal -c max_wal_senders=0"
            " -c max_connections=300"
        )
        log = str(self.directory / "server.log")
        pg_ctl = str(self.bindir / "pg_ctl")
        self._run(
            *(pg_ctl, "start", "-w", "-t", str(_START_SECONDS)),
            *("-D", str(self.data), "-l", log, "-o", options),
        )
        self.running = True

    def stop(self) -> None:
        """Stop the server (fast shutdown: sessions are cut), keeping its data; a server that
        an interrupted ``start()`` left starting is stopped too."""
        self.running = False
        if (self.data / "postmaster.pid").exists():
            pg_ctl = str(self.bindir / "pg_ctl")
            self._run(pg_ctl, "stop", "-w", "-m", "fast", "-D", str(self.data))

    def remove(self) -> None:
        """Stop the server and delete its directory."""
        try:
            self.stop()
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def unavailable() -> str | None:
    """Why the PostgreSQL runs cannot run here, or None when they can."""
    if importlib.util.find_spec("psycopg_pool") is None:
        return "no PostgreSQL driver: pip install -e '.[test]' (or '.[postgresql]')"
    if os.environ.get(ENV):
        return None
    if _newest_bindir() is None:
        return f"no PostgreSQL: no {_BINARIES}/*/bin/initdb, and {ENV} is not set"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(_OWNER)
        except KeyError:
            return f"no PostgreSQL: running as root and there is no {_OWNER!r} user to run it as"
    return None


@functools.cache
def cluster() -> Cluster | None:
    """The session's own cluster (not started yet, perhaps), or None when a variable names the
    server or PostgreSQL is unavailable."""
    bindir = _newest_bindir()
    if os.environ.get(ENV) or unavailable() is not None or bindir is None:
        return None
    return Cluster(bindir)


def server_uri(*, socket: bool = False) -> str:
    """The server's URL: the variable's, else the session cluster's (over its Unix socket when
    ``socket``)."""
    made = cluster()
    if made is None:
        return os.environ.get(ENV, "postgresql://unavailable/")
    return made.socket_uri if socket else made.uri


def store_url() -> str:
    """The storage URL of the kit's list: the server (the cluster's socket), a fresh schema
    ``{name}`` per store."""
    parts = urlsplit(server_uri(socket=True))
    query = [*parse_qsl(parts.query), ("schema", "{name}")]
    return urlunsplit(parts._replace(query=urlencode(query, safe="{}")))
