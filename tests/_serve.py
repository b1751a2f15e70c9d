"""Starting ``storycore serve --port 0`` as a subprocess, for end-to-end tests."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

STARTUP_SECONDS = 30


def storycore(*args: str, db: str) -> subprocess.CompletedProcess[str]:
    """Run one ``storycore`` command to completion."""
    return subprocess.run(
        [sys.executable, "-m", "storycore.contrib.cli", "--db", db, *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


@contextmanager
def serving(db: str, folder: Path, *args: str) -> Iterator[str]:
    """A running server on a free loopback port; yields its base address."""
    command = [sys.executable, "-m", "storycore.contrib.cli", "--db", db, "serve", "--port=0"]
    with launched([*command, *args], folder) as (address, _):
        yield address


@contextmanager
def launched(command: list[str], folder: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``command``, a ``serve`` that says ``listening on ADDRESS``, running until the ``with``
    ends; yields the address and the process. Its errors are written to ``folder``."""
    errors_path = folder / "serve.err"
    with errors_path.open("w") as errors:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True)
        try:
            assert process.stdout is not None
            deadline = time.monotonic() + STARTUP_SECONDS
            line = ""
            while time.monotonic() < deadline and not line.startswith("listening on "):
                line = process.stdout.readline()
                if not line and process.poll() is not None:
                    raise AssertionError(f"serve exited: {errors_path.read_text()}")
            assert line.startswith("listening on http://127.0.0.1:"), line
            yield line.removeprefix("listening on ").strip(), process
        finally:
            stop(process)


def stop(process: subprocess.Popen[Any], seconds: float = 10) -> None:
    """SIGTERM ``process`` and wait for it (SIGKILL if it does not stop within ``seconds``);
    then close its output pipe."""
    with suppress(ProcessLookupError):
        process.terminate()
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if process.stdout is not None:
        process.stdout.close()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, read from ``/proc``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError, ValueError, IndexError):  # a process that ended as it was read
            fields = stat.read_text().rpartition(")")[2].split()  # state, ppid, ...
            if int(fields[1]) == pid:
                found.append(int(stat.parent.name))
    return found


@contextmanager
def in_thread(app: Any, sock: socket.socket) -> Iterator[None]:
    """The ASGI ``app`` served by uvicorn on ``sock`` in a thread of this process, until the
    ``with`` ends; the socket is closed after."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_SECONDS
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)  # waits for uvicorn to listen, not for time to pass
    try:
        assert server.started, "the server did not start"
        yield
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
