"""A throwaway PostgreSQL cluster for ``python -m benchmarks --db postgresql``.

``initdb`` of the newest ``/usr/lib/postgresql/*/bin`` into a temporary directory, then
``pg_ctl start`` listening on a Unix socket in that directory only, the way the test session
starts its own (``tests/_postgresql.py``), but with PostgreSQL's default durability: ``fsync``,
``synchronous_commit`` and ``full_page_writes`` on, as a user runs it. PostgreSQL refuses to run
as root, so under root the cluster runs as the ``postgres`` user, who owns the directory. The
cluster stops and its directory goes when the block ends.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

__all__ = ["throwaway_cluster"]

_BINARIES = Path("/usr/lib/postgresql")
_OWNER = "postgres"  # the user the cluster runs as when the benchmarks run as root


def _bindir() -> Path:
    """The ``bin`` directory of the newest PostgreSQL installed."""
    found = [p.parent for p in _BINARIES.glob("*/bin/initdb") if re.fullmatch(r"\d+", p.parts[-3])]
    if not found:
        raise SystemExit(f"no PostgreSQL in {_BINARIES} (apt-get install postgresql)")
    return max(found, key=lambda path: int(path.parent.name))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _run(*command: str) -> str:
    """Run a PostgreSQL program as the cluster's owner; its output in the error if it fails."""
    if os.geteuid() == 0:
        command = ("runuser", "-u", _OWNER, "--", *command)
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


@contextmanager
def throwaway_cluster() -> Iterator[str]:
    """Start a cluster; yields its URL, over its Unix socket."""
    bindir = _bindir()
    directory = Path(tempfile.mkdtemp(prefix="storycore-bench-pg-"))
    if os.geteuid() == 0:
        owner = pwd.getpwnam(_OWNER)
        os.chown(directory, owner.pw_uid, owner.pw_gid)
    data, port = directory / "data", _free_port()
    try:
        flags = ("-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale")
        _run(str(bindir / "initdb"), "-D", str(data), *flags)
        options = f"-c listen_addresses='' -c port={port} -c unix_socket_directories={directory}"
        log = str(directory / "server.log")
        _run(str(bindir / "pg_ctl"), "start", "-w", "-D", str(data), "-l", log, "-o", options)
        try:
            yield f"postgresql://postgres@/postgres?{urlencode({'host': directory, 'port': port})}"
        finally:
            _run(str(bindir / "pg_ctl"), "stop", "-w", "-m", "fast", "-D", str(data))
    finally:
        shutil.rmtree(directory, ignore_errors=True)
