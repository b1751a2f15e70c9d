"""Two ``storycore serve`` processes on one PostgreSQL schema (docs/decisions.md#serving).

Nothing that one process must see is kept in another: users, applications and tokens made
anywhere are seen by both, a story written through one is read, listed and found through the
other at once, the version check and the slug aliases span processes, and creates that derive
one slug at once through both get distinct slugs. The one state a process keeps, the views it
counted, is written at least once a second and at shutdown as additive updates, so the counts
of both add up, each view once.

Each server is a real ``storycore serve --port 0`` (uvicorn on 127.0.0.1) in a process of its
own, talked to with httpx; the schema is a fresh one on the session's server
(``tests/_postgresql.py``), dropped at the end. The module shares one pair of servers; each test
works on a user and stories of its own. The shutdown test starts a pair of its own, to stop it.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.adapters.postgresql import drop_schema
from tests import _postgresql
from tests.conftest import TEST_SETTINGS

# one pair of servers per module: its tests go to one worker
pytestmark = [
    pytest.mark.postgresql,
    pytest.mark.xdist_group("postgresql-serving"),
    pytest.mark.long,
]

STARTUP_SECONDS = 30
STOP_SECONDS = 10
#: Views are written at least once a second (docs/decisions.md#serving): a count shows within this.
VIEWS_SECONDS = 3.0
PASSWORD = "serving-password"
CONCURRENT_CREATES = 8  # half through each process


class Served:
    """One ``storycore --db URL serve --port 0`` process, started at once; ``address`` waits
    until it listens."""

    def __init__(self, url: str, errors: Path) -> None:
        self.errors = errors
        self._address = ""
        command = [sys.executable, "-m", "storycore.contrib.cli", "--db", url, "serve", "--port=0"]
        with errors.open("w") as stderr:
            self.process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=stderr, text=True
            )

    def address(self) -> str:
        """The base address, once the server has printed ``listening on ...``."""
        if self._address:
            return self._address
        assert self.process.stdout is not None
        deadline = time.monotonic() + STARTUP_SECONDS
        line = ""
        while time.monotonic() < deadline and not line.startswith("listening on "):
            line = self.process.stdout.readline()
            if not line and self.process.poll() is not None:
                raise AssertionError(f"serve exited: {self.errors.read_text()}")
        assert line.startswith("listening on http://127.0.0.1:"), line
        self._address = line.removeprefix("listening on ").strip()
        return self._address

    def stop(self, how: signal.Signals = signal.SIGTERM) -> int | None:
        """Send ``how`` (as a process manager or Ctrl-C would) and wait for the exit; killed if
        it does not stop in time. The exit status, or None if it had to be killed."""
        if self.process.poll() is None:
            self.process.send_signal(how)
        try:
            return self.process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None
        finally:
            if self.process.stdout is not None:
                self.process.stdout.close()


@contextmanager
def two_servers(url: str, folder: Path) -> Iterator[tuple[Served, Served]]:
    """Two servers on ``url``, started side by side; stopped (SIGTERM) after the block."""
    with ExitStack() as stack:
        pair = []
        for name in ("a", "b"):
            served = Served(url, folder / f"serve-{name}.err")
            stack.callback(served.stop)
            pair.append(served)
        yield pair[0], pair[1]


def fresh_url() -> str:
    """A new schema on the session's server."""
    return _postgresql.store_url().replace("{name}", f"storycore_srv_{uuid.uuid4().hex[:12]}")


@dataclass(frozen=True)
class Servers:
    """The module's pair of servers: ``a`` and ``b`` are clients of each, ``service`` reads and
    writes the same schema directly, ``api_key`` is an application's."""

    url: str
    a: httpx.Client
    b: httpx.Client
    service: Service
    api_key: str


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    url = fresh_url()
    folder = tmp_path_factory.mktemp("serving")
    try:
        with Service(open_store(url), TEST_SETTINGS) as service, ExitStack() as stack:
            api_key = service.accounts.create_app("serving").api_key
            served_a, served_b = stack.enter_context(two_servers(url, folder))
            a = stack.enter_context(httpx.Client(base_url=served_a.address(), timeout=10))
            b = stack.enter_context(httpx.Client(base_url=served_b.address(), timeout=10))
            yield Servers(url, a, b, service, api_key)
    finally:
        drop_schema(url)


def new_user(servers: Servers) -> str:
    """A user of the calling test's own, made through the library."""
    username = f"u{uuid.uuid4().hex[:12]}"
    servers.service.accounts.create_user(username, PASSWORD)
    return username


def sign_in(client: httpx.Client, api_key: str, username: str) -> dict[str, str]:
    """The credentials of ``username`` for ``api_key``, from ``POST /v1/auth`` on ``client``."""
    answer = client.post(
        "/v1/auth", data={"api_key": api_key, "username": username, "password": PASSWORD}
    )
    assert answer.status_code == 200, answer.text
    return {"api_key": api_key, "username": username, "_token": answer.json()["content"]["_token"]}


@pytest.fixture
def author(servers: Servers) -> dict[str, str]:
    """The credentials of a user of the test's own, signed in through server A."""
    return sign_in(servers.a, servers.api_key, new_user(servers))


def create(client: httpx.Client, author: dict[str, str], story: dict[str, Any]) -> dict[str, Any]:
    """Create and publish ``story`` through ``client``; the created story's summary."""
    answer = client.post(
        f"/v1/stories/{author['username']}/create", json={**author, "story": story, "publish": True}
    )
    assert answer.status_code == 200, answer.text
    created: dict[str, Any] = answer.json()["content"]
    return created


def found(client: httpx.Client, words: str) -> list[dict[str, Any]]:
    """The stories (full shape) a search for ``words`` finds through ``client``."""
    answer = client.get("/v1/stories/search", params={"q": words})
    assert answer.status_code == 200, answer.text
    stories: list[dict[str, Any]] = answer.json()["content"]["stories"]
    return stories


def stored_views(url: str, story_id: str) -> int:
    """The views the store holds for a story, read with a store of this process's own."""
    store = open_store(url)
    try:
        story = store.stories.get(story_id)
    finally:
        store.close()
    assert story is not None
    return story.views


# -- accounts ------------------------------------------------------------------------------


def run(command: list[str]) -> subprocess.CompletedProcess[str]:
    """Run a command to completion (it must succeed)."""
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)


def test_a_user_and_an_application_made_on_the_command_line_are_seen_by_both_processes(
    servers: Servers,
) -> None:
    command = [sys.executable, "-m", "storycore.contrib.cli", "--db", servers.url]
    username = f"c{uuid.uuid4().hex[:12]}"
    made = [
        [*command, "users", "create", username, "--password", PASSWORD, "--name", "Carla"],
        [*command, "apps", "create", f"cli-{username}"],
    ]
    with ThreadPoolExecutor(len(made)) as pool:  # side by side: each command starts slowly
        outputs = list(pool.map(run, made))
    api_key = outputs[1].stdout.strip().splitlines()[-1]
    for client in (servers.a, servers.b):
        profile = client.get(f"/v1/users/{username}")
        assert (profile.status_code, profile.json()["content"]["name"]) == (200, "Carla")
        assert sign_in(client, api_key, username)["_token"]


def test_a_token_issued_by_one_process_authenticates_on_the_other(servers: Servers) -> None:
    username = new_user(servers)
    from_a = sign_in(servers.a, servers.api_key, username)
    from_b = sign_in(servers.b, servers.api_key, username)
    on_b = servers.b.post(
        f"/v1/users/{username}/update", json={**from_a, "user": {"name": "Via B"}}
    )
    on_a = servers.a.post(f"/v1/users/{username}/update", json={**from_b, "user": {"bio": "Via A"}})
    forged = servers.b.post(
        f"/v1/users/{username}/update", json={**from_a, "_token": "x" * 43, "user": {"name": "No"}}
    )
    assert (on_b.status_code, on_a.status_code, forged.status_code) == (200, 200, 401)
    profile = servers.a.get(f"/v1/users/{username}").json()["content"]
    assert (profile["name"], profile["bio"]) == ("Via B", "Via A")


# -- stories -------------------------------------------------------------------------------


def test_a_story_created_through_one_process_is_read_listed_and_found_through_the_other(
    servers: Servers, author: dict[str, str]
) -> None:
    username = author["username"]
    created = create(servers.a, author, {"title": "Quokkas of Rottnest"})
    read = servers.b.get(f"/v1/stories/{username}/{created['slug']}")
    listed = servers.b.get(f"/v1/stories/{username}")
    assert read.status_code == 200, read.text
    assert read.json()["content"]["id"] == created["id"]
    assert [story["id"] for story in listed.json()["content"]["stories"]] == [created["id"]]
    assert [story["sid"] for story in found(servers.b, "quokkas rottnest")] == [created["id"]]


def test_the_version_check_spans_processes(servers: Servers, author: dict[str, str]) -> None:
    username = author["username"]
    created = create(servers.a, author, {"title": "Versioned wombats"})
    path = f"/v1/stories/{username}/{created['slug']}"
    [seen] = found(servers.a, "versioned wombats")
    story = {"title": "Versioned wombats", "description": "from B"}
    saved = servers.b.post(
        f"{path}/save", json={**author, "story": story, "version": seen["version"]}
    )
    stale = {"title": "Versioned wombats", "description": "from A"}
    late = servers.a.post(
        f"{path}/save", json={**author, "story": stale, "version": seen["version"]}
    )
    assert saved.status_code == 200, saved.text
    assert (late.status_code, late.json()["error"]["type"]) == (409, "version_conflict")
    assert servers.a.get(path).json()["content"]["description"] == "from B"


def test_a_slug_changed_through_one_process_redirects_on_the_other(
    servers: Servers, author: dict[str, str]
) -> None:
    username = author["username"]
    created = create(servers.a, author, {"title": "Moving numbats"})
    old = f"/v1/stories/{username}/{created['slug']}"
    moved = servers.a.post(f"{old}/editslug", data={**author, "slug": "numbats"})
    assert moved.status_code == 200, moved.text
    answer = servers.b.get(old)
    assert (answer.status_code, answer.headers["location"]) == (
        301,
        f"/v1/stories/{username}/numbats",
    )


def test_concurrent_creates_of_one_title_through_both_processes_get_distinct_slugs(
    servers: Servers, author: dict[str, str]
) -> None:
    start = threading.Barrier(CONCURRENT_CREATES)

    def create_at_once(client: httpx.Client) -> httpx.Response:
        start.wait(timeout=30)
        return client.post(
            f"/v1/stories/{author['username']}/create",
            json={**author, "story": {"title": "Same echidna"}},
        )

    clients = [servers.a, servers.b] * (CONCURRENT_CREATES // 2)
    with ThreadPoolExecutor(CONCURRENT_CREATES) as pool:
        answers = list(pool.map(create_at_once, clients))
    assert [answer.status_code for answer in answers] == [200] * CONCURRENT_CREATES, [
        answer.text for answer in answers if answer.status_code != 200
    ]
    slugs = [answer.json()["content"]["slug"] for answer in answers]
    assert all(re.fullmatch(r"same-echidna(-[0-9]+)?", slug) for slug in slugs), slugs
    assert len(set(slugs)) == CONCURRENT_CREATES, slugs


# -- views ---------------------------------------------------------------------------------


def read_anonymously(client: httpx.Client, path: str, times: int) -> None:
    for _ in range(times):
        assert client.get(path).status_code == 200


def test_views_counted_by_both_processes_add_up_within_a_second_or_so(
    servers: Servers, author: dict[str, str]
) -> None:
    created = create(servers.a, author, {"title": "Counted platypus"})
    path = f"/v1/stories/{author['username']}/{created['slug']}"
    read_anonymously(servers.a, path, 3)
    read_anonymously(servers.b, path, 4)
    deadline = time.monotonic() + VIEWS_SECONDS
    views = 0
    while views < 7 and time.monotonic() < deadline:
        time.sleep(0.05)
        [story] = found(servers.a, "counted platypus")  # a search counts no view
        views = story["stats"]["views"]
    assert views == 7
    assert stored_views(servers.url, created["id"]) == 7


def test_views_counted_when_the_processes_stop_are_written_once_at_shutdown(
    tmp_path: Path,
) -> None:
    url = fresh_url()
    try:
        with Service(open_store(url), TEST_SETTINGS) as service:
            service.accounts.create_user("dora", PASSWORD)
            dora = service.accounts.as_user("dora")
            story = service.stories.create("dora", {"title": "Stopped"}, viewer=dora, publish=True)
        with two_servers(url, tmp_path) as (served_a, served_b):
            path = f"/v1/stories/dora/{story.slug}"
            with httpx.Client(base_url=served_a.address(), timeout=10) as a:
                read_anonymously(a, path, 2)
            with httpx.Client(base_url=served_b.address(), timeout=10) as b:
                read_anonymously(b, path, 3)
            deadline = time.monotonic() + VIEWS_SECONDS  # a first write while running ...
            while stored_views(url, story.id) < 5 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert stored_views(url, story.id) == 5
            with httpx.Client(base_url=served_a.address(), timeout=10) as a:
                read_anonymously(a, path, 4)
            with httpx.Client(base_url=served_b.address(), timeout=10) as b:
                read_anonymously(b, path, 6)
            # ... and the rest at shutdown, as a process manager (SIGTERM) or Ctrl-C stops it
            stopped = (served_a.stop(signal.SIGTERM), served_b.stop(signal.SIGINT))
        assert None not in stopped, "a server did not stop in time"
        assert stored_views(url, story.id) == 5 + 4 + 6
        for served in (served_a, served_b):
            assert "Traceback" not in served.errors.read_text()
    finally:
        drop_schema(url)
