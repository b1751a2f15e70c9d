"""Peak resident memory of ``storycore export``, run as the command a user runs."""

from __future__ import annotations

import os
import subprocess
import sys

__all__ = ["export_peak_rss"]

_EXPORT = "from storycore.contrib.cli import main; main()"


def export_peak_rss(db_url: str) -> float:
    """Peak RSS in MB of exporting the whole store to /dev/null, from the kernel's accounting."""
    with open(os.devnull, "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-c", _EXPORT, "--db", db_url, "export"], stdout=sink
        )
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"storycore export failed with exit code {process.returncode}")
    return usage.ru_maxrss / 1024  # kilobytes on Linux
