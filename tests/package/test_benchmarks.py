"""The benchmarks measure what their README says they measure (benchmarks/README.md).

``benchmarks.revisions``, ``benchmarks.events`` and ``benchmarks.keeping`` run through on a tiny
data set and print each of their tables; ``benchmarks.events`` starts ``storycore serve
--workers 2`` and its receiver as real processes, and delivers every event of each burst once;
``benchmarks.starving`` starts ``storycore serve`` and delivers each create's event to a healthy
endpoint beside one that hangs and one that drips; ``benchmarks.editor`` signs in, reads the
editor's form from its page and saves it, and prints its tables.

The HTTP benchmark compares ``storycore serve`` with a bare app under one uvicorn worker, and
the pages with the API on the same server: ``serve`` runs in one process too, or a run's
figures say how wrk's connections split between workers (``benchmarks.http_load``). The
server is a real process on 127.0.0.1 over a real SQLite file; its child processes are read
from ``/proc``, so the module runs on Linux only.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from benchmarks import editor, events, keeping, revisions, starving
from benchmarks.http_load import serve_command
from tests._serve import children, launched

# each runs a benchmark through (servers, processes, endpoints that hang): long, started first
pytestmark = pytest.mark.long


@pytest.mark.skipif(sys.platform != "linux", reason="child processes are read from /proc")
def test_the_http_benchmark_serves_storycore_in_one_process_as_the_bare_app(
    tmp_path: Path,
) -> None:
    with launched(serve_command(f"sqlite:///{tmp_path / 'bench.db'}"), tmp_path) as (_, process):
        # serve says it listens once every worker it runs serves: none is still to come
        assert children(process.pid) == []


def test_the_revisions_benchmark_runs_through_on_a_tiny_data_set(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tiny = "--stories 30 --scheduled 20 --keep 3 --targets 3 --block 2 --rounds 2"
    revisions.main([*tiny.split(), "--db", "sqlite,memory", "--no-http"])
    printed = capsys.readouterr().out
    for store in ("sqlite", "memory"):
        assert f"| {store} | save, 20 elements changed |" in printed
        assert f"| {store} | save, title only |" in printed
        assert f"| {store} | a `publish_due()` round, nothing due |" in printed
        assert f"| {store} | read a story (`stories.open`) |" in printed
    # a round on SQLite is one statement, a walk of the index of scheduled stories
    assert "| 20 stories scheduled | 1 |" in printed
    assert "USING INDEX stories_due" in printed


@pytest.mark.skipif(sys.platform != "linux", reason="the server's CPU time is read from /proc")
def test_the_events_benchmark_runs_through_on_a_tiny_data_set(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tiny = "--stories 30 --targets 3 --block 2 --rounds 2 --events 40"
    events.main([*tiny.split(), "--http-seconds", "1", "--http-rounds", "1"])
    printed = capsys.readouterr().out
    for store in ("sqlite", "memory"):
        assert f"| {store} | create, published: `story.created`, `story.published` |" in printed
        assert f"| {store} | create, working: `story.created` |" in printed
        assert f"| {store} | save, 20 elements changed: `story.saved` |" in printed
    if shutil.which("wrk") is None:
        assert "Delivery: skipped, `wrk` is not installed" in printed
        return
    bursts = re.findall(r"^\| (alone|while wrk -c\d+ reads) \| ([\d,]+) \| (\d+) \|", printed, re.M)
    # a burst alone, and one while wrk reads with each number of connections: every event of
    # each reached the receiver (the benchmark waits for them), none twice
    assert sorted(name for name, _, _ in bursts) == [
        "alone",
        "while wrk -c1 reads",
        "while wrk -c8 reads",
    ]
    assert all(int(events) > 0 and twice == "0" for _, events, twice in bursts)
    assert printed.count("| idle |") == 2


def test_the_starving_benchmark_runs_through_on_a_few_creates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    starving.main(["--creates", "3", "--workers", "1"])
    printed = capsys.readouterr().out
    # it waits for every create's event at the healthy endpoint, alone and beside the others
    assert "| 1 | healthy alone | 3 |" in printed
    assert "| 1 | beside hanging and dripping | 3 |" in printed


def test_the_editor_benchmark_runs_through_on_a_tiny_story(
    capsys: pytest.CaptureFixture[str],
) -> None:
    editor.main(["--repeat", "4", "--block", "2", "--elements", "6", "--stories", "0"])
    printed = capsys.readouterr().out
    # each request answered as expected (the benchmark stops on any other status), and the
    # editor held to its story page rendered anew and its save to an API save
    assert "| GET the editor of a story of 6 elements |" in printed
    assert re.search(
        r"^\| GET its story page, rendered anew \(cold\) \|.* \| ≤ 1\.5: ", printed, re.M
    )
    assert "| POST the editor's form, Save (6 elements), 303 |" in printed
    assert re.search(r"^\| POST /v1/stories/.* \| ≤ 1\.3: ", printed, re.M)
    assert re.search(r"^\| \*\*all of them\*\* \|", printed, re.M)


def test_the_keeping_benchmark_runs_through_on_a_tiny_data_set(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tiny = "--stories 30 --queued 20 --targets 3 --block 2 --rounds 2 --pictures 2"
    keeping.main(
        [*tiny.split(), "--db", "sqlite,memory", "--http-seconds", "1", "--http-rounds", "1"]
    )
    printed = capsys.readouterr().out
    # each service saved, the keeping one queuing its pictures and the other none (the
    # benchmark stops otherwise)
    for store in ("sqlite", "memory"):
        assert f"| {store} | save, the story's 10 pictures (queued already) |" in printed
        assert f"| {store} | save, 10 pictures never seen |" in printed
    # the picture was kept by the keeper and served whole (checked in process first)
    if shutil.which("wrk") is None:
        assert "HTTP: skipped, `wrk` is not installed" in printed
    else:
        assert re.search(
            r"^\| sqlite \| GET a kept picture, \d+ x \d+, .* \| ≥ 0\.8: ", printed, re.M
        )
    assert re.search(r"^\| sqlite \| [\d.,]+ \| [\d.,]+ \| [\d.,]+ \| [\d.]+ \|$", printed, re.M)
