"""Starting ``storycore serve --port 0`` as a subprocess, for end-to-end tests."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
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
    errors_path = folder / "serve.err"
    with errors_path.open("w") as errors:
        command = [sys.executable, "-m", "storycore.contrib.cli", "--db", db, "serve", "--port=0"]
        process = subprocess.Popen(
            [*command, *args], stdout=subprocess.PIPE, stderr=errors, text=True
        )
        try:
            assert process.stdout is not None
            deadline = time.monotonic() + STARTUP_SECONDS
            line = ""
            while time.monotonic() < deadline and not line.startswith("listening on "):
                line = process.stdout.readline()
                if not line and process.poll() is not None:
                    raise AssertionError(f"serve exited: {errors_path.read_text()}")
            assert line.startswith("listening on http://127.0.0.1:"), line
            yield line.removeprefix("listening on ").strip()
        finally:
            process.terminate()
            process.wait(timeout=10)
            if process.stdout is not None:
                process.stdout.close()


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
