"""The benchmarks measure what their README says they measure (benchmarks/README.md).

The HTTP benchmark compares ``storycore serve`` with a bare app under one uvicorn worker, and
the pages with the API on the same server: ``serve`` runs in one process too, or a run's
figures say how wrk's connections split between workers (``benchmarks.http_load``). The
server is a real process on 127.0.0.1 over a real SQLite file; its child processes are read
from ``/proc``, so the module runs on Linux only.
"""

from __future__ import annotations

import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

import pytest

from benchmarks.http_load import serve_command

STARTUP_SECONDS = 30


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, read from ``/proc``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError, ValueError, IndexError):  # a process that ended as it was read
            fields = stat.read_text().rpartition(")")[2].split()  # state, ppid, ...
            if int(fields[1]) == pid:
                found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(sys.platform != "linux", reason="child processes are read from /proc")
def test_the_http_benchmark_serves_storycore_in_one_process_as_the_bare_app(
    tmp_path: Path,
) -> None:
    process = subprocess.Popen(
        serve_command(f"sqlite:///{tmp_path / 'bench.db'}"),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + STARTUP_SECONDS
        line = ""
        while time.monotonic() < deadline and not line.startswith("listening on "):
            line = process.stdout.readline()
            if not line and process.poll() is not None:
                break
        assert line.startswith("listening on http://127.0.0.1:"), line
        # serve says it listens once every worker it runs serves: none is still to come
        assert _children(process.pid) == []
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()
