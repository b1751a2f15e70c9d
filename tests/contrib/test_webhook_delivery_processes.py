"""Webhook deliveries made by real ``storycore serve`` processes (docs/webhooks.md; issue
29, "Delivery that survives").

Every ``serve`` process delivers (with ``--workers``, from its supervisor, which answers no
request: the workers deliver nothing); with many on one store each event reaches the endpoint once
when none is killed, and a process killed mid-round loses no event: what it held is sent again
once its lease ends (by the other process, or by ``storycore deliver`` run after), so the only
events an endpoint sees twice are those the killed process held. ``storycore deliver`` sends
what is due once and exits. An endpoint that answers 500, hangs, drops the connection or
answers slowly shows in the deliveries list as it went, and never slows the API's answers, nor
the deliveries to other endpoints.

Each server is a real ``storycore --db URL serve --port 0`` on 127.0.0.1 with
``STORYCORE_WEBHOOK_KEY`` set and ``--resolve-allow-host 127.0.0.1``; the webhooks, the
stories and their events are made through a ``Service`` of the test's own on the same store
(read back as the PostgreSQL log hands them out: ``tests._log``).
The endpoint (``Receiver``) is a threaded HTTP server in this process that verifies each
delivery with ``standardwebhooks`` and records its ``webhook-id`` and which process sent it
(the process holding the connection's client socket, read from ``/proc``).

Leases last 60 s; the tests that kill processes start those they kill with a lease of
``SHORT_LEASE``, and give the processes that are to see those leases end a clock ahead of the
real time by what a file says (``hooked``: a test's hooks, no setting of the product). Once the
killed process's leases are read, ``Kill`` moves those clocks past their end: the other server
sends what it held at once, and ``storycore deliver``, run after every process was killed, finds
it due; no test waits for a lease to end in real time.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from standardwebhooks import Webhook, WebhookVerificationError

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.compose import compose
from storycore.model.visibility import OPERATOR
from storycore.model.webhooks import Delivery
from storycore.rules.webhook_secrets import new_key
from storycore.settings import Settings
from storycore.usecases.delivery import ATTEMPT_SECONDS, LEASE, RETRY_DELAYS
from tests import _postgresql
from tests._log import at_least
from tests._serve import children, stop

# the tests start servers of their own and time them: one worker runs them one after another,
# started first (they wait out leases: the longest run of the suite)
pytestmark = [pytest.mark.xdist_group("webhook-delivery-processes"), pytest.mark.long]

CLI = [sys.executable, "-m", "storycore.contrib.cli"]
HOST = "127.0.0.1"
KEY = new_key()
SETTINGS = Settings(password_cost=2**4, webhook_key=KEY, resolver_allowed_hosts=(HOST,))
USERNAME, PASSWORD = "ed", "a long passphrase"
#: Events in a burst: made in a second or two, longer than the one second between two rounds
#: of a process, so that each process's rounds find new events.
BURST = 1000
#: Deliveries the endpoint has taken when the kill comes: some, not all.
KILL_AFTER = 100
#: The lease of the processes the tests kill (``leased``): more than a batch to 127.0.0.1 takes
#: on a busy machine (3 s and then 5 s fell short: a batch of 200 took longer, and another
#: process may then take a delivery before it is answered), less than ``LEASE``.
SHORT_LEASE = 20.0
#: How far past the end of a killed process's leases ``Kill`` moves the other processes' clocks
PAST_LEASES = 0.05
#: How long the slow endpoint takes to answer: within ``ATTEMPT_SECONDS``.
SLOW_SECONDS = 1.5
STARTUP_SECONDS = 30
STOP_SECONDS = 10
#: The ceiling of a wait for what the processes deliver: each wait ends as soon as they have
#: (a thousand deliveries after a kill took more than 30 s on a busy machine).
FINISH_SECONDS = 300.0
POLL_SECONDS = 0.05


def _environment() -> dict[str, str]:
    """This environment without any ``STORYCORE_*`` of the developer's, with the webhook key."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("STORYCORE_")}
    kept["STORYCORE_WEBHOOK_KEY"] = KEY
    return kept


#: What ``storycore ARGS`` runs after the hooks of ``_HOOKED``.
_MAIN = "from storycore.contrib.cli import main; sys.exit(main())"
#: ``storycore ARGS`` with two hooks of the tests, its first two arguments: its deliverers'
#: lease (seconds; empty for ``LEASE``), the module's ``LEASE`` replaced before the command runs,
#: so that a process killed while delivering held what it took for no longer than a test
#: chooses; and the clock its service is given, the real time ahead by the seconds written in a
#: file (``Ahead``; none while there is no file), so that a test sees what a killed process held
#: delivered again as soon as it moves the other processes' clocks past that lease (a
#: ``ManualClock`` cannot cross processes).
_HOOKED = f"""
import sys
from datetime import timedelta
from pathlib import Path

import storycore.service
import storycore.usecases.delivery
from storycore.clocks import SystemClock

lease, ahead = sys.argv.pop(1), sys.argv.pop(1)
if lease:
    storycore.usecases.delivery.LEASE = timedelta(seconds=float(lease))


class Ahead(SystemClock):
    def now(self):
        try:
            seconds = float(Path(ahead).read_text())
        except FileNotFoundError:
            seconds = 0.0
        return super().now() + timedelta(seconds=seconds)


if ahead:
    storycore.service.SystemClock = Ahead
{_MAIN}
"""


@dataclass(frozen=True)
class Ahead:
    """How far ahead of the real time the clocks of the ``hooked`` processes given it are: the
    seconds written in ``path``, none while it is missing."""

    path: Path

    def move(self, seconds: float) -> None:
        """The clocks ``seconds`` ahead of the real time from now on, in every process given
        this (the file replaced whole: no process reads it half written)."""
        written = self.path.with_name(self.path.name + ".new")
        written.write_text(repr(seconds))
        os.replace(written, self.path)


def hooked(lease: float | None, ahead: Ahead | None) -> list[str]:
    """The command that runs ``storycore``: with its deliverers' lease ``lease`` seconds when
    given, and its clock as far ahead as ``ahead`` says when given (``_HOOKED``)."""
    if lease is None and ahead is None:
        return CLI
    clock = "" if ahead is None else str(ahead.path)
    return [sys.executable, "-c", _HOOKED, "" if lease is None else str(lease), clock]


# -- the endpoint ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """One delivery the endpoint took, signed rightly: its event, the endpoint's path and the
    process that sent it (None when it was none of ``Receiver.senders``)."""

    event_id: str
    path: str
    sender: int | None


@dataclass
class Receiver:
    """Webhook endpoints on 127.0.0.1, in threads of this process: ``add(path, secret,
    answer)`` makes one, which answers each delivery it verifies as ``answer`` says: ``ok``
    (204), ``error`` (500), ``hang`` (no answer until ``release``), ``drop`` (the connection
    closed without an answer) or ``slow`` (204 after ``SLOW_SECONDS``). A delivery that does
    not verify is answered 400 and kept in ``forged``. ``before_answer`` (when set) sees each
    delivery before it is answered; when it says True the delivery is not answered."""

    seen: list[Seen] = field(default_factory=list)
    forged: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: the processes that may send: a delivery names the one whose socket it came on
    senders: list[int] = field(default_factory=list)
    secrets: dict[str, str] = field(default_factory=dict)
    answers: dict[str, str] = field(default_factory=dict)
    before_answer: Callable[[Seen], bool] | None = None
    #: set when a ``hang`` endpoint took a delivery; ``release`` ends every hang
    hanging: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    changed: threading.Condition = field(default_factory=threading.Condition)
    _lookup: threading.Lock = field(default_factory=threading.Lock)
    #: the last read of the tables ``sender_of`` looks in: client port to socket inode, and
    #: socket inode to the process holding it
    _inodes: dict[int, str] = field(default_factory=dict)
    _holders: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.server = _Server((HOST, 0), _handler(self))
        self.server.receiver = self
        self.port: int = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def add(self, path: str, secret: str, answer: str) -> str:
        """An endpoint at ``path``; its URL."""
        self.secrets[path], self.answers[path] = secret, answer
        return f"http://{HOST}:{self.port}{path}"

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    def counts(self) -> Counter[str]:
        """How many times each event was taken."""
        with self.changed:
            return Counter(seen.event_id for seen in self.seen)

    def wait_for(self, event_ids: set[str], seconds: float = FINISH_SECONDS) -> None:
        """Return once every one of ``event_ids`` was taken (or fail after ``seconds``)."""
        ends = time.monotonic() + seconds
        with self.changed:
            while not event_ids <= {seen.event_id for seen in self.seen}:
                left = ends - time.monotonic()
                if left <= 0:
                    missing = event_ids - {seen.event_id for seen in self.seen}
                    raise AssertionError(f"{len(missing)} events never reached the endpoint")
                self.changed.wait(left)

    def sender_of(self, port: int) -> int | None:
        """Which of ``senders`` holds the client end of the connection from ``port`` (None
        without ``senders``): the socket's inode (``/proc/net/tcp``), then the process that
        has it open. One lookup at a time, each reading the tables again only when what it
        seeks is not in the last read: the new connections of a round share one read (each
        port is taken out of it once looked up: a later connection may reuse the port)."""
        if not self.senders:
            return None
        with self._lookup:
            if port not in self._inodes:
                self._inodes = _client_inodes(self.port)
            inode = self._inodes.pop(port, None)
            if inode is not None and inode not in self._holders:
                self._holders = _socket_holders(self.senders)
            return self._holders.get(inode or "")

    def take(self, request: BaseHTTPRequestHandler, sender: int | None) -> None:
        """Verify, record and answer one delivery."""
        length = int(request.headers.get("content-length") or 0)
        body = request.rfile.read(length)
        if len(body) < length:  # the sender died as it sent (the kill tests): nothing came
            request.close_connection = True
            return
        path = request.path
        headers = {name.lower(): value for name, value in request.headers.items()}
        try:
            Webhook(self.secrets[path]).verify(body, headers)
        except (KeyError, WebhookVerificationError) as exc:
            self.forged.append(f"{path} {headers.get('webhook-id')}: {exc!r}")
            _answer(request, 400)
            return
        seen = Seen(headers["webhook-id"], path, sender)
        with self.changed:
            self.seen.append(seen)
            self.changed.notify_all()
        if self.before_answer is not None and self.before_answer(seen):
            request.close_connection = True
            return
        answer = self.answers[path]
        if answer == "hang":
            self.hanging.set()
            self.release.wait(FINISH_SECONDS)
            request.close_connection = True
        elif answer == "drop":
            request.close_connection = True
        elif answer == "slow":
            self.release.wait(SLOW_SECONDS)  # the endpoint takes its time; nothing waits on it
            _answer(request, 204)
        else:
            _answer(request, 500 if answer == "error" else 204)


def _client_inodes(server_port: int) -> dict[int, str]:
    """The connections to 127.0.0.1:``server_port``: their client ports, to the inodes of
    their client sockets (``/proc/net/tcp`` writes addresses and ports in hex)."""
    found = {}
    with open("/proc/net/tcp") as table:
        for line in table:
            local, remote, *rest = line.split()[1:10]
            if remote == f"0100007F:{server_port:04X}" and local.startswith("0100007F:"):
                found[int(local[9:], 16)] = rest[-1]
    return found


def _socket_holders(pids: list[int]) -> dict[str, int]:
    """The inodes of the sockets each of ``pids`` has open, to the process."""
    found = {}
    for pid in pids:
        with suppress(OSError):  # a process that ended
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with suppress(OSError):
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if link.startswith("socket:["):
                        found[link[8:-1]] = pid
    return found


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the connections of every sender at once (5 drops some)
    receiver: Receiver

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A sender that died mid-answer is what the kill tests do; anything else is kept."""
        error = sys.exc_info()[1]
        if not isinstance(error, ConnectionError):
            self.receiver.errors.append(repr(error))


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # the sender keeps its connections
        sender: int | None = None

        def handle(self) -> None:
            self.sender = receiver.sender_of(self.client_address[1])
            super().handle()

        def do_POST(self) -> None:
            receiver.take(self, self.sender)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


def _answer(request: BaseHTTPRequestHandler, status: int) -> None:
    request.send_response(status)
    if status != 204:
        request.send_header("content-length", "0")
    request.end_headers()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver()
    try:
        yield made
    finally:
        made.close()
    assert made.errors == [], made.errors


# -- the servers -----------------------------------------------------------------------------


class Server:
    """One ``storycore --db URL serve --port 0 --workers N``, started at once, with the
    ``hooked`` lease and clock when given; ``wait_listening`` waits until it serves (its
    deliverer started)."""

    def __init__(
        self, url: str, errors: Path, *, workers: int, lease: float | None, ahead: Ahead | None
    ) -> None:
        self.errors = errors
        self.address = ""
        command = [*hooked(lease, ahead), "--db", url, "serve", "--port", "0",
                   "--workers", str(workers), "--log-level", "warning",
                   "--resolve-allow-host", HOST]  # fmt: skip
        with errors.open("wb") as stderr:
            self.process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=stderr, env=_environment()
            )

    def wait_listening(self) -> None:
        """Return once the server has said ``listening on ...``."""
        assert self.process.stdout is not None
        out, printed = self.process.stdout.fileno(), b""
        deadline = time.monotonic() + STARTUP_SECONDS
        while b"\n" not in printed:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([out], [], [], left)[0]:
                raise AssertionError(f"serve did not say it listens: {self.errors.read_text()}")
            chunk = os.read(out, 4096)
            if not chunk:
                raise AssertionError(f"serve exited: {self.errors.read_text()}")
            printed += chunk
        said = printed.decode().strip()
        assert said.startswith(f"listening on http://{HOST}:"), said
        self.address = said.removeprefix("listening on ")

    def pids(self) -> list[int]:
        """The process and its children: its workers (none with ``--workers 1``: it serves
        itself), and the helper of ``multiprocessing`` that comes with them."""
        return [self.process.pid, *children(self.process.pid)]

    def workers(self) -> list[int]:
        """The worker processes of ``--workers N`` (uvicorn starts them as ``multiprocessing``
        spawns its processes)."""
        return [pid for pid in children(self.process.pid) if b"spawn_main" in _command(pid)]

    def kill(self) -> list[int]:
        """SIGKILL the process and its workers, and wait for it; their ids."""
        pids = self.pids()
        for pid in reversed(pids):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait(timeout=STOP_SECONDS)
        return pids

    def stop(self) -> None:
        """SIGTERM and wait (SIGKILL if it does not stop in time)."""
        stop(self.process, STOP_SECONDS)

    def complaints(self) -> list[str]:
        """What the server wrote of a failure: tracebacks, errors and warnings."""
        said = self.errors.read_text()
        return [line for line in said.splitlines() if re.search(r"Traceback|ERROR|WARNING", line)]


def _command(pid: int) -> bytes:
    with suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    return b""


@contextmanager
def serving(
    url: str,
    folder: Path,
    leases: list[float | None],
    *,
    workers: int = 1,
    ahead: Ahead | None = None,
) -> Iterator[list[Server]]:
    """A server on ``url`` for each of ``leases`` (its deliverers' lease, None for ``LEASE``),
    started side by side, with the clock ``ahead`` says when given; stopped after the block."""
    with ExitStack() as stack:
        servers = []
        for n, lease in enumerate(leases):
            errors = folder / f"serve-{n}.err"
            server = Server(url, errors, workers=workers, lease=lease, ahead=ahead)
            stack.callback(server.stop)
            servers.append(server)
        for server in servers:
            server.wait_listening()
        yield servers


def assert_no_complaints(servers: list[Server]) -> None:
    said = [line for server in servers for line in server.complaints()]
    assert said == [], "\n".join(said)


def deliver(url: str, ahead: Ahead | None = None) -> subprocess.CompletedProcess[str]:
    """``storycore --db URL deliver --resolve-allow-host 127.0.0.1``, run to its end, with the
    clock ``ahead`` says when given."""
    return subprocess.run(
        [*hooked(None, ahead), "--db", url, "deliver", "--resolve-allow-host", HOST],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=_environment(),
    )


# -- the store -------------------------------------------------------------------------------


def postgresql_url() -> str:
    """A new schema on the session's PostgreSQL server."""
    name = f"storycore_hooks_{uuid.uuid4().hex[:12]}"
    return _postgresql.store_url().replace("{name}", name)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A SQLite file, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'stories.db'}"
        return
    from storycore.adapters.postgresql import drop_schema

    made = postgresql_url()
    try:
        yield made
    finally:
        drop_schema(made)


@dataclass(frozen=True)
class Hooks:
    """The webhooks made on a store, by endpoint path, and where the event log ended then."""

    ids: dict[str, str]
    cursor: str | None


def prepare(url: str, receiver: Receiver, answers: dict[str, str]) -> Hooks:
    """The store with its editor and a webhook for ``story.created`` at each endpoint of
    ``answers`` (path: how it answers), made before any server opens it."""
    with Service(open_store(url), SETTINGS) as service:
        service.accounts.create_user(USERNAME, PASSWORD, editor=True)
        ids = {}
        for path, answer in answers.items():
            address = receiver.add(path, "", answer)
            made = service.webhooks.add(address, ["story.created"], viewer=OPERATOR)
            receiver.secrets[path] = made.secret
            ids[path] = made.id
        return Hooks(ids, service.store.events.end())


def burst(url: str, hooks: Hooks, count: int) -> set[str]:
    """``count`` stories made through a service of this process on ``url``: the ids of their
    events (one each, ``story.created``)."""
    with Service(open_store(url), SETTINGS) as service:
        writer = service.accounts.as_user(USERNAME)
        for n in range(count):
            service.stories.create(USERNAME, {"title": f"Burst {n}"}, viewer=writer)
        logged = at_least(lambda: service.store.events.after(hooks.cursor, count + 1), count)
    assert [event.type for _, event in logged] == ["story.created"] * count
    return {event.id for _, event in logged}


def deliveries(url: str, hook_id: str) -> list[Delivery]:
    store = open_store(url)
    try:
        return store.deliveries.of_webhook(hook_id, 0, 2 * BURST)
    finally:
        store.close()


def wait_until_delivered(url: str, hook_id: str, count: int) -> list[Delivery]:
    """Watch the store until the webhook has ``count`` deliveries, all delivered (the outcome
    is stored just after the endpoint answers); they as they are then."""
    ends = time.monotonic() + FINISH_SECONDS
    store = open_store(url)
    try:
        while True:
            found = store.deliveries.of_webhook(hook_id, 0, 2 * BURST)
            done = len(found) == count and all(d.state == "delivered" for d in found)
            if done or time.monotonic() > ends:
                return found
            time.sleep(POLL_SECONDS)
    finally:
        store.close()


def _moment(stamp: str | None) -> datetime:
    assert stamp is not None
    return datetime.fromisoformat(stamp)


def _pid(owner: str | None) -> int | None:
    """The process id in a lease's owner (``host:pid:token``)."""
    return None if owner is None else int(owner.rsplit(":", 2)[1])


# -- every process delivers, each event once -------------------------------------------------


def test_serve_with_workers_delivers_from_its_supervisor_and_each_event_reaches_the_endpoint_once(
    url: str, receiver: Receiver, tmp_path: Path
) -> None:
    hooks = prepare(url, receiver, {"/events": "ok"})
    with serving(url, tmp_path, [None], workers=2) as [server]:
        workers = server.workers()
        receiver.senders = [server.process.pid, *workers]
        event_ids = burst(url, hooks, BURST)
        receiver.wait_for(event_ids)
        stored = wait_until_delivered(url, hooks.ids["/events"], BURST)
        assert server.process.poll() is None, "the server stopped"
    assert (len(workers), receiver.forged) == (2, [])
    assert receiver.counts() == Counter(event_ids), "not each event exactly once"
    assert Counter((d.state, d.attempts) for d in stored) == {("delivered", 1): BURST}
    by_process = Counter(seen.sender for seen in receiver.seen)
    assert by_process == {server.process.pid: BURST}, "a request worker delivered"
    assert_no_complaints([server])


# -- processes killed mid-way ----------------------------------------------------------------


@dataclass
class Kill:
    """SIGKILLs the servers ``killed`` (every server, ``everyone``, or one) as the endpoint
    takes a delivery one of them sent, once it has taken ``KILL_AFTER``, before answering it;
    then reads the deliveries they held (pending, leased to them) while their leases hold, and
    only then moves the clocks of the processes given ``ahead`` past the end of those leases
    (the end the store shows): the other server, and any process started after, see them ended
    at once, where the real time would take up to their lease."""

    url: str
    hook_id: str
    killed: list[Server]
    receiver: Receiver
    ahead: Ahead
    everyone: bool = False
    held: list[Delivery] = field(default_factory=list)
    trigger: Seen | None = None
    taken_before: int = 0
    read_at: datetime | None = None
    done: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, seen: Seen) -> bool:
        with self._lock:
            if self.trigger is not None or len(self.receiver.seen) < KILL_AFTER:
                return False
            if not any(seen.sender in server.pids() for server in self.killed):
                return False
            self.trigger, self.taken_before = seen, len(set(self.receiver.counts()))
            pids = {pid for server in self.killed for pid in server.kill()}
            self.held = [
                d
                for d in deliveries(self.url, self.hook_id)
                if d.state == "pending" and _pid(d.leased_by) in pids
            ]
            self.read_at = datetime.now(UTC)
            if self.held:
                past = (self.leases_end() - datetime.now(UTC)).total_seconds() + PAST_LEASES
                self.ahead.move(max(0.0, past))
            self.done.set()
            return True

    def assert_held_while_leased(self) -> None:
        """The kill came, mid-way, from a process that held deliveries; when a server is
        left, they were read before any of their leases ended (so that it took none of them
        before they were read)."""
        assert self.trigger is not None, "the endpoint never took enough for the kill"
        assert 0 < self.taken_before < BURST, "the kill came after the deliveries, not in them"
        assert self.trigger.event_id in {d.event_id for d in self.held}
        assert self.read_at is not None
        if not self.everyone:
            assert self.read_at < min(_moment(d.leased_until) for d in self.held)

    def leases_end(self) -> datetime:
        return max(_moment(d.leased_until) for d in self.held)


def assert_each_at_least_once_twice_only_if_held(
    receiver: Receiver, event_ids: set[str], kill: Kill
) -> Counter[str]:
    """Every event reached the endpoint; those that came twice are among those the killed
    processes held, and none came more than twice."""
    counts = receiver.counts()
    assert set(counts) == event_ids, "not every event reached the endpoint"
    twice = {event_id for event_id, n in counts.items() if n > 1}
    held = {d.event_id for d in kill.held}
    assert twice - held == set(), f"{len(twice - held)} events came twice, not held at the kill"
    assert max(counts.values()) == 2
    assert kill.trigger is not None
    assert kill.trigger.event_id in twice
    assert receiver.forged == []
    print(
        f"\nkilled after {kill.taken_before} of {BURST} events reached the endpoint, holding"
        f" {len(held)}; {len(twice)} reached it twice"
    )
    return counts


def test_a_process_killed_while_delivering_loses_no_event_and_repeats_only_what_it_held(
    url: str, receiver: Receiver, tmp_path: Path
) -> None:
    hooks = prepare(url, receiver, {"/events": "ok"})
    hook_id = hooks.ids["/events"]
    ahead = Ahead(tmp_path / "ahead")
    # the server killed leases for SHORT_LEASE; the other, whose clock moves past those leases
    # once the test has read them, for LEASE: its own leases still hold long after the move
    with serving(url, tmp_path, [SHORT_LEASE, None], ahead=ahead) as [killed, survivor]:
        receiver.senders = [pid for server in (killed, survivor) for pid in server.pids()]
        kill = Kill(url, hook_id, [killed], receiver, ahead)
        receiver.before_answer = kill
        event_ids = burst(url, hooks, BURST)
        receiver.wait_for(event_ids)
        stored = wait_until_delivered(url, hook_id, BURST)
        kill.assert_held_while_leased()
        assert survivor.process.poll() is None, "the other server stopped"
    assert_each_at_least_once_twice_only_if_held(receiver, event_ids, kill)
    assert {d.state for d in stored} == {"delivered"}
    assert_no_complaints([survivor])


def test_deliver_after_every_process_was_killed_sends_the_rest_once_their_leases_end(
    url: str, receiver: Receiver, tmp_path: Path
) -> None:
    hooks = prepare(url, receiver, {"/events": "ok"})
    hook_id = hooks.ids["/events"]
    ahead = Ahead(tmp_path / "ahead")
    with serving(url, tmp_path, [SHORT_LEASE, SHORT_LEASE]) as servers:
        receiver.senders = [pid for server in servers for pid in server.pids()]
        kill = Kill(url, hook_id, servers, receiver, ahead, everyone=True)
        receiver.before_answer = kill
        event_ids = burst(url, hooks, BURST)
        assert kill.done.wait(FINISH_SECONDS), "the endpoint never took enough for the kill"
        kill.assert_held_while_leased()
        assert all(server.process.poll() is not None for server in servers)
    delivered = sum(1 for d in deliveries(url, hook_id) if d.state == "delivered")
    # its clock past the leases the store shows (``Kill``), not the real time's wait for them
    done = deliver(url, ahead)
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"made {BURST - delivered} delivery attempts\n",
        "",
    )
    assert_each_at_least_once_twice_only_if_held(receiver, event_ids, kill)
    assert {d.state for d in deliveries(url, hook_id)} == {"delivered"}


# -- storycore deliver -----------------------------------------------------------------------

FEW = 20


def test_deliver_sends_what_is_due_once_says_how_many_and_a_second_run_sends_none(
    url: str, receiver: Receiver
) -> None:
    hooks = prepare(url, receiver, {"/events": "ok"})
    event_ids = burst(url, hooks, FEW)
    done = deliver(url)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"made {FEW} delivery attempts\n", "")
    assert receiver.counts() == Counter(event_ids)
    assert receiver.forged == []
    stored = deliveries(url, hooks.ids["/events"])
    assert Counter((d.state, d.attempts, d.last_status) for d in stored) == {
        ("delivered", 1, 204): FEW
    }
    again = deliver(url)
    assert (again.returncode, again.stdout, again.stderr) == (0, "made 0 delivery attempts\n", "")
    assert receiver.counts() == Counter(event_ids)


# -- endpoints that fail -----------------------------------------------------------------------

#: Each endpoint of the failing-endpoints test: its path, and how it answers.
FAILING = {"/refuses": "error", "/hangs": "hang", "/drops": "drop", "/slow": "slow"}


def _api(server: Server, token: str, path: str) -> Any:
    answer = httpx.get(
        server.address + path, headers={"authorization": f"Bearer {token}"}, timeout=10
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


def attempted(
    server: Server, token: str, hooks: Hooks, attempts: dict[str, int]
) -> dict[str, dict[str, Any]]:
    """The one delivery of each webhook of ``attempts`` (by endpoint path) as
    ``GET /v1/webhooks/{id}/deliveries`` first shows it attempted that many times."""
    ends = time.monotonic() + FINISH_SECONDS
    found: dict[str, dict[str, Any]] = {}
    while len(found) < len(attempts) and time.monotonic() < ends:
        for path, times in attempts.items():
            if path not in found:
                listed = _api(server, token, f"/v1/webhooks/{hooks.ids[path]}/deliveries")
                [item] = listed["deliveries"]
                if item["attempts"] >= times:
                    found[path] = item
        time.sleep(POLL_SECONDS)
    return found


def _wait(item: dict[str, Any]) -> timedelta:
    """How long after its last attempt a delivery is due again."""
    return _moment(item["next_attempt"]) - _moment(item["last_attempt"])


def test_failed_attempts_show_in_the_deliveries_with_their_retries_and_never_slow_the_api(
    url: str, receiver: Receiver, tmp_path: Path
) -> None:
    hooks = prepare(url, receiver, FAILING)
    with Service(open_store(url), SETTINGS) as service:
        writer = service.accounts.as_user(USERNAME)
        story = service.stories.create(USERNAME, {"title": "Harbour"}, viewer=writer, publish=True)
        api_key = service.accounts.create_app("webhook-watch").api_key
    with serving(url, tmp_path, [None]) as [server]:
        assert receiver.hanging.wait(STARTUP_SECONDS), "the hanging endpoint was never called"
        read = f"{server.address}/v1/stories/{USERNAME}/{story.slug}"
        with httpx.Client(timeout=10) as client:
            for _ in range(5):
                assert client.get(read).status_code == 200
        # deliveries never occupy the workers that answer requests (docs/decisions.md#serving):
        # the reads were answered while the attempt to the hanging endpoint was still open
        [hanging] = deliveries(url, hooks.ids["/hangs"])
        assert hanging.attempts == 0, "the reads were answered only once the hang ended"
        signed_in = httpx.post(
            f"{server.address}/v1/auth",
            data={"api_key": api_key, "username": USERNAME, "password": PASSWORD},
        )
        assert signed_in.status_code == 200, signed_in.text
        token = signed_in.json()["content"]["_token"]
        first = attempted(server, token, hooks, dict.fromkeys(FAILING, 1))
        listed = _api(server, token, "/v1/webhooks")["webhooks"]
        second = attempted(server, token, hooks, {"/refuses": 2})  # 5 s after the first
        receiver.release.set()  # the hanging endpoint lets go: the server stops at once
    shown = {
        path: (item["state"], item["attempts"], item["last_status"], item["last_error"])
        for path, item in first.items()
    }
    dropped = shown.get("/drops", (None,) * 4)[3] or ""
    assert dropped.startswith("RemoteProtocolError: Server disconnected"), dropped
    # a busy machine may see a failing delivery first after its retry too: each is judged by
    # the attempts it shows
    assert {path: (state, status, error) for path, (state, _, status, error) in shown.items()} == {
        "/refuses": ("pending", 500, "answered 500"),
        "/hangs": ("pending", None, f"no whole answer within {ATTEMPT_SECONDS:g} s"),
        "/drops": ("pending", None, dropped),
        "/slow": ("delivered", 204, None),
    }
    assert shown["/slow"][1] == 1
    retry = {path: _wait(item) for path, item in first.items() if item["next_attempt"]}
    assert retry == {
        path: RETRY_DELAYS[first[path]["attempts"] - 1] for path in ("/refuses", "/hangs", "/drops")
    }
    again = second["/refuses"]
    assert (again["state"], again["attempts"], again["last_status"]) == ("pending", 2, 500)
    assert _wait(again) == RETRY_DELAYS[1]
    failing = {hook["id"]: hook["failing"] is not None for hook in listed}
    assert failing == {hook_id: path != "/slow" for path, hook_id in hooks.ids.items()}
    assert receiver.forged == []
    assert_no_complaints([server])


# -- one endpoint cannot hold up another ------------------------------------------------------

#: Events each stuck endpoint has due when the healthy one is added: more than a process holds
#: of one endpoint at once (a deliverer that took them in turn would take ``ATTEMPT_SECONDS``
#: for each 8 of the hanging endpoint's before the healthy one's came).
BACKLOG = 200
#: Events for the healthy endpoint, written while the others are stuck.
HEALTHY = 20


def test_endpoints_that_hang_fail_or_drop_hold_up_no_other_endpoint(
    url: str, receiver: Receiver, tmp_path: Path
) -> None:
    stuck = prepare(url, receiver, {"/hangs": "hang", "/refuses": "error", "/drops": "drop"})
    burst(url, stuck, BACKLOG)
    with serving(url, tmp_path, [None]) as [server]:
        assert receiver.hanging.wait(STARTUP_SECONDS), "the hanging endpoint was never called"
        with Service(open_store(url), SETTINGS) as service:
            made = service.webhooks.add(
                receiver.add("/ok", "", "ok"), ["story.created"], viewer=OPERATOR
            )
            receiver.secrets["/ok"] = made.secret
            healthy = Hooks({"/ok": made.id}, service.store.events.end())
        event_ids = burst(url, healthy, HEALTHY)
        receiver.wait_for(event_ids)  # a generous ceiling, not a measure
        assert not receiver.release.is_set()  # the hanging endpoint still hangs
        taken = Counter(seen.path for seen in receiver.seen)
        assert taken["/hangs"] < BACKLOG  # it took a few: its own places, no more
        assert server.process.poll() is None
        receiver.release.set()
    assert receiver.forged == []


# -- the lease the tests set -------------------------------------------------------------------


def test_the_lease_is_no_setting_of_the_product(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STORYCORE_DELIVERY_LEASE", "2.5")  # a variable it once read
    with compose("memory://") as service:
        assert service.deliverer.lease == LEASE


def _hooked_to_run(code: str, lease: float | None, ahead: Ahead | None) -> list[str]:
    """The ``hooked`` command with ``code`` run where ``storycore`` would be."""
    python, option, hooks, *arguments = hooked(lease, ahead)
    return [python, option, hooks.replace(_MAIN, code), *arguments]


def test_a_hooked_command_leases_for_the_seconds_it_was_given() -> None:
    """The lease the killing tests start their processes with (``hooked``)."""
    said = (
        "from storycore.contrib.compose import compose; print(compose('memory://').deliverer.lease)"
    )
    done = subprocess.run(
        _hooked_to_run(said, 2.5, None),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout == f"{timedelta(seconds=2.5)}\n"


def test_a_hooked_commands_clock_is_as_far_ahead_as_its_file_says(tmp_path: Path) -> None:
    """The clock the killing tests give their processes (``hooked``): the real time until the
    test moves it (``Ahead.move``), then that far ahead, in a process already running."""
    ahead = Ahead(tmp_path / "ahead")
    said = (
        "from storycore.contrib.compose import compose; clock = compose('memory://').clock\n"
        "for _ in iter(sys.stdin.readline, ''):\n"
        "    print(clock.now().timestamp(), flush=True)"
    )
    with subprocess.Popen(
        _hooked_to_run(said, None, ahead), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as process:
        assert process.stdin is not None
        assert process.stdout is not None
        asked, answer = process.stdin, process.stdout

        def ahead_of_this_process() -> float:
            before = time.time()
            asked.write("\n")
            asked.flush()
            return float(answer.readline()) - before

        assert 0 <= ahead_of_this_process() < 60
        ahead.move(3600.0)
        assert 3600 <= ahead_of_this_process() < 3600 + 60
        asked.close()
    assert process.returncode == 0
