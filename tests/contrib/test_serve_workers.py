"""``storycore serve --workers N`` and the ASGI factory under plain uvicorn
(docs/decisions.md#serving).

``serve --workers N`` binds one socket and runs N worker processes on it (uvicorn's supervisor);
the default is the number of CPU cores for a SQLite file and one process for a store in memory,
which no other process can share. ``uvicorn --factory storycore.contrib.asgi:from_environment``
builds the same app from ``STORYCORE_*``. Neither stalls a keep-alive request on the delayed
acknowledgement (about 44 ms), and the views each worker counts add up and are written when the
supervisor is stopped. A ``serve`` whose output is closed before it can say it listens stops,
workers and all, with one line (docs/decisions.md#command-line).

Every server here is a real process on 127.0.0.1, started at once with the others by the
module's ``fleet`` (starting is most of the cost, and they start side by side), each on a
SQLite file of its own or in memory; a test uses the servers it names and stops only its own.
Child processes are read from ``/proc``, so the module runs on Linux only.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from storycore import Service
from storycore.adapters import open_store
from tests._serve import children
from tests.conftest import TEST_SETTINGS

pytestmark = [
    pytest.mark.xdist_group("serve-workers"),  # one fleet of servers, on one worker
    pytest.mark.skipif(sys.platform != "linux", reason="child processes are read from /proc"),
]

STARTUP_SECONDS = 30
STOP_SECONDS = 10
#: A server's child processes reach their number within this, once it serves.
SETTLE_SECONDS = 10
SEQUENTIAL_GETS = 50
#: What the delayed acknowledgement holds each answer for, at least (Linux's TCP_DELACK_MIN):
#: a stalled connection answers no request sooner, however fast the machine.
DELAYED_ACK_SECONDS = 0.040
#: Anonymous reads of one story, each on a connection of its own, so both workers serve some.
READS = 24
PASSWORD = "workers-password"
WEB_URL = "https://stories.example.org/news"
CLI = [sys.executable, "-m", "storycore.contrib.cli"]
FACTORY = "storycore.contrib.asgi:from_environment"
LIST = "/v1/stories/browse/latest"


@dataclass(frozen=True)
class Prepared:
    """A SQLite file with the user ``writer``, an application and one published story."""

    url: str
    api_key: str
    story_id: str
    story_path: str


def prepare(path: Path) -> Prepared:
    """Make the store at ``path`` (in this process, before any server opens it)."""
    url = f"sqlite:///{path}"
    with Service(open_store(url), TEST_SETTINGS) as service:
        service.accounts.create_user("writer", PASSWORD)
        api_key = service.accounts.create_app("workers").api_key
        writer = service.accounts.as_user("writer")
        story = service.stories.create(
            "writer", {"title": f"Story of {path.stem}"}, viewer=writer, publish=True
        )
    return Prepared(url, api_key, story.id, f"/v1/stories/writer/{story.slug}")


def workers_of(pid: int) -> list[int]:
    """The worker processes of the server ``pid``: its children but multiprocessing's resource
    tracker, which starting processes the ``spawn`` way adds."""
    workers = []
    for child in children(pid):
        with suppress(OSError):
            if b"resource_tracker" not in Path(f"/proc/{child}/cmdline").read_bytes():
                workers.append(child)
    return workers


def in_group(pgid: int) -> list[int]:
    """The processes of the process group ``pgid``, read from ``/proc``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rpartition(")")[2].split()  # state, ppid, pgrp, ...
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(stat.parent.name))
    return found


def settled(count: Callable[[], int], expected: int) -> int:
    """``count()`` once it equals ``expected``, or its last value after ``SETTLE_SECONDS``."""
    deadline = time.monotonic() + SETTLE_SECONDS
    seen = count()
    while seen != expected and time.monotonic() < deadline:
        time.sleep(0.05)
        seen = count()
    return seen


def free_port() -> int:
    """A loopback port nothing listens on (bound and closed again)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def environment(**settings: str) -> dict[str, str]:
    """This environment without any ``STORYCORE_*`` of the developer's, plus ``settings``."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("STORYCORE_")}
    return {**kept, **settings}


class Served:
    """A server process started at once, in a process group of its own (as a shell runs a
    command, so that Ctrl-C reaches the group); ``address`` waits until it serves."""

    def __init__(
        self, command: list[str], errors: Path, *, env: dict[str, str], address: str = ""
    ) -> None:
        self.errors = errors
        self._address = address
        self._ready = False
        self._signalled = False
        self._printed = bytearray()
        with errors.open("wb") as stderr:
            self.process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=stderr, env=env, start_new_session=True
            )

    @classmethod
    def storycore(cls, db: str, errors: Path, *args: str) -> Served:
        """``storycore --db DB serve --port 0 ARGS``."""
        command = [*CLI, "--db", db, "serve", "--port", "0", *args]
        return cls(command, errors, env=environment())

    @classmethod
    def storycore_unheard(cls, db: str, errors: Path, *args: str) -> Served:
        """``storycore --db DB serve --port 0 ARGS`` with its output closed before it can say
        it listens (its reader went away, as in ``storycore serve | true``)."""
        served = cls.storycore(db, errors, *args)
        assert served.process.stdout is not None
        served.process.stdout.close()
        return served

    @classmethod
    def uvicorn(cls, errors: Path, **settings: str) -> Served:
        """Plain ``uvicorn --factory ...:from_environment --workers 2`` with ``settings`` as
        its environment's ``STORYCORE_*``."""
        port = free_port()
        command = [
            sys.executable, "-m", "uvicorn", "--factory", FACTORY, "--workers", "2",
            "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
        ]  # fmt: skip
        return cls(command, errors, env=environment(**settings), address=f"http://127.0.0.1:{port}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def address(self) -> str:
        """The base address, once the server serves: ``serve`` says ``listening on ...`` when
        every worker does; plain uvicorn is asked until it answers."""
        if not self._ready:
            if self._address:
                self._answering(self._address)
            else:
                self._address = self._listening()
            self._ready = True
        return self._address

    def _listening(self) -> str:
        assert self.process.stdout is not None
        out = self.process.stdout.fileno()
        deadline = time.monotonic() + STARTUP_SECONDS
        while b"\n" not in self._printed:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([out], [], [], left)[0]:
                raise AssertionError(f"serve did not say it listens: {self.errors.read_text()}")
            chunk = os.read(out, 4096)
            if not chunk:
                raise AssertionError(f"serve exited: {self.errors.read_text()}")
            self._printed += chunk
        line = self._printed.decode().splitlines()[0]
        assert line.startswith("listening on http://127.0.0.1:"), line
        return line.removeprefix("listening on ")

    def _answering(self, address: str) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"uvicorn exited: {self.errors.read_text()}")
            with suppress(httpx.TransportError):
                if httpx.get(f"{address}{LIST}", timeout=5).status_code == 200:
                    return
            time.sleep(0.05)
        raise AssertionError(f"uvicorn did not answer: {self.errors.read_text()}")

    def send(self, how: signal.Signals = signal.SIGTERM, *, group: bool = False) -> None:
        """Send ``how`` to the server (or to its whole group, as Ctrl-C in a terminal does),
        once."""
        with suppress(ProcessLookupError):
            if self.process.poll() is None and not self._signalled and group:
                os.killpg(self.pid, how)
            elif self.process.poll() is None and not self._signalled:
                self.process.send_signal(how)
        self._signalled = True

    def stop(self, how: signal.Signals = signal.SIGTERM, *, group: bool = False) -> int | None:
        """Send ``how`` (unless a signal was sent already) and wait for the exit; killed,
        with whatever is left of its group, if it does not stop in time. The exit status, or
        None if it had to be killed."""
        status: int | None = None
        self.send(how, group=group)
        try:
            status = self.process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        finally:
            with suppress(ProcessLookupError, PermissionError):  # workers left behind
                os.killpg(self.pid, signal.SIGKILL)
            if self.process.stdout is not None:
                self.process.stdout.close()
        return status


@dataclass(frozen=True)
class Fleet:
    """The module's servers. ``two_workers``: ``serve --workers 2``; ``uvicorn``: plain uvicorn
    with two workers and ``STORYCORE_WEB_URL``; ``file_by_default`` and ``memory_by_default``:
    ``serve`` without ``--workers`` on a SQLite file and on ``sqlite://``; ``to_stop``: one
    ``serve --workers 2`` for each stop test, by signal, and ``one_process`` (``--workers 1``)
    for its own; ``unheard``: ``serve --workers N`` with its output closed, by N."""

    two_workers: Served
    uvicorn: Served
    file_by_default: Served
    memory_by_default: Served
    to_stop: dict[signal.Signals, Served]
    one_process: Served
    unheard: dict[int, Served]
    stores: dict[str, Prepared]


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    folder = tmp_path_factory.mktemp("serve-workers")
    stores = {
        name: prepare(folder / f"{name}.db")
        for name in ("two_workers", "uvicorn", "SIGTERM", "SIGINT", "one_process")
    }
    with ExitStack() as stack:
        everyone: list[Served] = []

        def started(served: Served) -> Served:
            stack.callback(served.stop)
            everyone.append(served)
            return served

        two = stores["two_workers"].url
        fleet = Fleet(
            two_workers=started(Served.storycore(two, folder / "two.err", "--workers", "2")),
            uvicorn=started(
                Served.uvicorn(
                    folder / "uvicorn.err",
                    STORYCORE_DB=stores["uvicorn"].url,
                    STORYCORE_WEB_URL=WEB_URL,
                )
            ),
            file_by_default=started(
                Served.storycore(f"sqlite:///{folder / 'default.db'}", folder / "default.err")
            ),
            memory_by_default=started(Served.storycore("sqlite://", folder / "memory.err")),
            to_stop={
                how: started(
                    Served.storycore(
                        stores[how.name].url, folder / f"{how.name}.err", "--workers", "2"
                    )
                )
                for how in (signal.SIGTERM, signal.SIGINT)
            },
            one_process=started(
                Served.storycore(
                    stores["one_process"].url, folder / "one_process.err", "--workers", "1"
                )
            ),
            unheard={
                workers: started(
                    Served.storycore_unheard(
                        f"sqlite:///{folder / f'unheard-{workers}.db'}",
                        folder / f"unheard-{workers}.err",
                        "--workers",
                        str(workers),
                    )
                )
                for workers in (1, 2)
            },
            stores=stores,
        )
        yield fleet
        for served in everyone:  # all at once; each is then waited for
            served.send()


# -- workers -------------------------------------------------------------------------------


def test_serve_with_two_workers_runs_two_worker_processes(fleet: Fleet) -> None:
    served = fleet.two_workers
    served.address()
    assert settled(lambda: len(workers_of(served.pid)), 2) == 2


def test_two_workers_answer_lists_and_read_a_story_created_through_the_api(fleet: Fleet) -> None:
    base, store = fleet.two_workers.address(), fleet.stores["two_workers"]
    listed = httpx.get(f"{base}{LIST}", timeout=10)
    assert listed.status_code == 200, listed.text
    assert [s["id"] for s in listed.json()["content"]["stories"]] == [store.story_id]
    with httpx.Client(base_url=base, timeout=10) as client:
        signed_in = client.post(
            "/v1/auth", data={"api_key": store.api_key, "username": "writer", "password": PASSWORD}
        )
        assert signed_in.status_code == 200, signed_in.text
        credentials = {
            "api_key": store.api_key,
            "username": "writer",
            "_token": signed_in.json()["content"]["_token"],
        }
        created = client.post(
            "/v1/stories/writer/create",
            json={**credentials, "story": {"title": "Made by a worker"}, "publish": True},
        )
        assert created.status_code == 200, created.text
    made = created.json()["content"]
    with httpx.Client(base_url=base, timeout=10, headers={"connection": "close"}) as client:
        for _ in range(8):  # each on a connection of its own: through either worker
            read = client.get(f"/v1/stories/writer/{made['slug']}")
            assert (read.status_code, read.json()["content"]["id"]) == (200, made["id"])


# -- no stall ------------------------------------------------------------------------------


@pytest.mark.parametrize("server", ["two_workers", "uvicorn"])
def test_sequential_keep_alive_requests_are_not_stalled_by_delayed_acks(
    fleet: Fleet, server: str
) -> None:
    served: Served = getattr(fleet, server)
    with httpx.Client(base_url=served.address(), timeout=10) as client:
        assert client.get(LIST).status_code == 200  # the connection, made once
        times = []
        for _ in range(SEQUENTIAL_GETS):
            start = time.perf_counter()
            answer = client.get(LIST)
            times.append(time.perf_counter() - start)
            assert answer.status_code == 200
    # the fastest answer shows whether every one waited for the acknowledgement: a busy machine
    # slows some answers, never all of them by the stall's length
    fastest = min(times)
    assert fastest < DELAYED_ACK_SECONDS, f"the fastest answer took {fastest * 1000:.1f} ms"


# -- views ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("how", "group"),
    [(signal.SIGTERM, False), (signal.SIGINT, True)],
    ids=["SIGTERM to the supervisor", "Ctrl-C (SIGINT to the group)"],
)
def test_views_counted_by_both_workers_are_written_when_the_supervisor_stops(
    fleet: Fleet, how: signal.Signals, group: bool
) -> None:
    """The reads and the stop take less than the second after which a worker first writes its
    counts, so most of what the store holds after the stop was written at shutdown."""
    served, store = fleet.to_stop[how], fleet.stores[how.name]
    base = served.address()
    assert settled(lambda: len(workers_of(served.pid)), 2) == 2
    pids = workers_of(served.pid)
    with httpx.Client(base_url=base, timeout=10, headers={"connection": "close"}) as client:
        for _ in range(READS):
            assert client.get(store.story_path).status_code == 200
    status = served.stop(how, group=group)
    assert status is not None, "the supervisor did not stop in time"
    assert not [pid for pid in pids if Path(f"/proc/{pid}").exists()], "a worker outlived it"
    assert _views_stored(store) == READS
    assert "Traceback" not in served.errors.read_text()


def _views_stored(store: Prepared) -> int | None:
    """The views the store holds for its story, read after the server stopped."""
    stored = open_store(store.url)
    try:
        story = stored.stories.get(store.story_id)
    finally:
        stored.close()
    return None if story is None else story.views


def test_views_counted_by_one_process_are_written_when_it_stops_on_sigterm(
    fleet: Fleet,
) -> None:
    """uvicorn raises SIGTERM again once it is down, which ends the process: the app's
    lifespan shutdown has written the counts by then."""
    served, store = fleet.one_process, fleet.stores["one_process"]
    with httpx.Client(base_url=served.address(), timeout=10) as client:
        for _ in range(READS):
            assert client.get(store.story_path).status_code == 200
    assert served.stop(signal.SIGTERM, group=False) is not None
    assert _views_stored(store) == READS
    assert "Traceback" not in served.errors.read_text()


# -- a closed output -----------------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_serve_whose_output_is_closed_stops_its_workers_and_says_so_in_one_line(
    fleet: Fleet, workers: int
) -> None:
    served = fleet.unheard[workers]
    try:
        status = served.process.wait(timeout=STARTUP_SECONDS)
    except subprocess.TimeoutExpired:
        status = None
    assert status == 1, "serve went on without the reader of its output"
    assert settled(lambda: len(in_group(served.pid)), 0) == 0, "a worker outlived it"
    said = served.errors.read_text()
    assert len(said.splitlines()) == 1, said
    assert "broken pipe" in said


# -- the factory ---------------------------------------------------------------------------


def test_the_factory_takes_the_public_address_from_storycore_web_url(fleet: Fleet) -> None:
    store = fleet.stores["uvicorn"]
    found = httpx.get(
        f"{fleet.uvicorn.address()}/v1/stories/search", params={"q": "uvicorn"}, timeout=10
    )
    assert found.status_code == 200, found.text
    [story] = found.json()["content"]["stories"]  # the full shape, with the story's addresses
    slug = store.story_path.rpartition("/")[2]
    assert story["permalink"] == f"{WEB_URL}/writer/{slug}"


# -- the number of workers -----------------------------------------------------------------


def serve_once(*args: str) -> subprocess.CompletedProcess[str]:
    """``storycore ARGS`` run to completion (a server that starts is stopped by the timeout)."""
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, timeout=30, check=False, env=environment()
    )


def test_more_than_one_worker_on_a_store_in_memory_is_one_line_naming_workers() -> None:
    done = serve_once("--db", "sqlite://", "serve", "--port", "0", "--workers", "2")
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "--workers" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_provider_url_holding_a_comma_is_one_line() -> None:
    """Workers read the providers comma-separated, so a comma would split one in two."""
    provider = "https://id.example/a,b"
    done = serve_once(
        "--db", "sqlite://", "serve", "--port", "0", "--delegation-provider", provider
    )
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "--delegation-provider" in done.stderr


@pytest.mark.parametrize("workers", ["0", "x"])
def test_a_number_of_workers_other_than_a_whole_number_from_one_is_a_usage_error(
    workers: str,
) -> None:
    done = serve_once("--db", "sqlite://", "serve", "--port", "0", "--workers", workers)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "--workers" in done.stderr
    assert "Traceback" not in done.stderr


#: A fault for the workers alone: their store cannot be opened (a database server that refuses
#: one more connection, say), while the parent opened it.
_WORKERS_CANNOT_OPEN = """
import multiprocessing
import storycore.contrib.compose as compose
from storycore.errors import ConfigurationError
opened = compose.from_environment
def refused(*args, **kwargs):
    if multiprocessing.parent_process() is not None:
        raise ConfigurationError("cannot open the store: too many connections")
    return opened(*args, **kwargs)
compose.from_environment = refused
"""


def test_workers_that_cannot_open_the_store_stop_serve_with_one_line_each(
    tmp_path: Path,
) -> None:
    (tmp_path / "sitecustomize.py").write_text(_WORKERS_CANNOT_OPEN)
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    done = subprocess.run(
        [*CLI, "--db", db, "serve", "--port", "0", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=STARTUP_SECONDS,
        check=False,
        env=environment(PYTHONPATH=str(tmp_path)),
    )
    assert done.returncode == 1
    assert "listening on" not in done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 3, done.stderr  # one a worker, then why serve stopped
    assert all("too many connections" in line for line in lines[:2]), done.stderr
    assert "did not start" in lines[2]


def test_a_store_in_memory_is_served_by_one_process_by_default(fleet: Fleet) -> None:
    served = fleet.memory_by_default
    assert httpx.get(f"{served.address()}{LIST}", timeout=10).status_code == 200
    assert children(served.pid) == []


def test_a_sqlite_file_is_served_by_one_worker_per_cpu_core_by_default(fleet: Fleet) -> None:
    served = fleet.file_by_default
    assert httpx.get(f"{served.address()}{LIST}", timeout=10).status_code == 200
    cores = os.cpu_count() or 1
    expected = cores if cores > 1 else 0  # one worker is served in the supervisor's process
    assert settled(lambda: len(workers_of(served.pid)), expected) == expected
