"""Starting ``storycore serve --port 0`` as a subprocess, for end-to-end tests."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
