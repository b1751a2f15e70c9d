"""Every command and process builds its service one way, from the same settings (the
``STORYCORE_*`` variables and the options; docs/decisions.md#command-line): an event reports the
same addresses whichever process wrote it, and the hosts the address rules allow are one
setting, ``STORYCORE_RESOLVER_ALLOWED_HOSTS`` (comma-separated) or ``--resolve-allow-host``,
read by every command.

The scheduled story is made by a ``Service`` of the test's own whose clock is an hour behind,
for a time that has already come by the real clock: ``storycore publish-due``, a real process
reading the real time, finds it due at once, and no test waits for time to pass.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NoReturn

import orjson
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib._commands import COMMANDS
from storycore.contrib.cli import main
from storycore.contrib.compose import Composition
from storycore.model.events import Event
from storycore.rules.webhook_secrets import new_key
from storycore.testing import ManualClock
from tests._receivers import receiving
from tests._serve import STARTUP_SECONDS, launched
from tests.conftest import TEST_SETTINGS

WEB_URL = "https://stories.example.org"
CLI = [sys.executable, "-m", "storycore.contrib.cli"]
#: A host on a private address: the address rules refuse it unless a setting allows it.
PRIVATE = "10.0.0.5"


def _environment(**settings: str) -> dict[str, str]:
    """This environment without any ``STORYCORE_*`` of the developer's, plus ``settings``."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("STORYCORE_")}
    return {**kept, **settings}


@pytest.fixture(autouse=True)
def _no_settings_from_the_developer(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in os.environ if name.startswith("STORYCORE_")]:
        monkeypatch.delenv(name)


def _scheduled(db: str, title: str, *, web_url: str | None = WEB_URL) -> str:
    """A story of alice's, made at ``web_url``, whose publishing time has already come by the
    real clock; its id."""
    clock = ManualClock(datetime.now(UTC) - timedelta(hours=1))
    settings = TEST_SETTINGS.model_copy(update={"web_url": web_url})
    with Service(open_store(db), settings, clock=clock) as service:
        if service.store.users.get_by_username("alice") is None:
            service.accounts.create_user("alice", "a-long-password")
        alice = service.accounts.as_user("alice")
        publish_at = datetime.now(UTC) - timedelta(minutes=1)
        made = service.stories.create(
            "alice", {"title": title}, viewer=alice, publish_at=publish_at
        )
        return made.id


def _events(db: str, subject: str) -> dict[str, dict[str, Any]]:
    """The data of each event about ``subject``, by type."""
    with Service(open_store(db), TEST_SETTINGS) as service:
        logged: list[Event] = [found.event for found in service.events.after(None, 100)]
    return {e.type: orjson.loads(e.data) for e in logged if e.subject == subject}


# -- one web address -------------------------------------------------------------------------


def test_publish_due_reports_the_permalink_the_story_was_created_with(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    story = _scheduled(db, "Later")
    done = subprocess.run(
        [*CLI, "--db", db, "publish-due"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=_environment(STORYCORE_WEB_URL=WEB_URL),
    )
    assert (done.returncode, done.stderr) == (0, "")
    events = _events(db, story)
    created, published = events["story.created"], events["story.published"]
    assert created["permalink"] == f"{WEB_URL}/alice/later"
    assert published["permalink"] == created["permalink"]


def _published(db: str, story: str) -> None:
    """Watch the store until ``story`` is published (or the ceiling passes)."""
    deadline = time.monotonic() + STARTUP_SECONDS
    store = open_store(db)
    try:
        while time.monotonic() < deadline:
            found = store.stories.get(story)
            if found is not None and found.status == "published":
                return
            time.sleep(0.05)  # waits for the server, not for time to pass
    finally:
        store.close()
    raise AssertionError("the scheduler did not publish the story")


def test_the_scheduler_of_a_serve_worker_reports_the_permalink_serve_was_given(
    tmp_path: Path,
) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    story = _scheduled(db, "Later")
    command = [*CLI, "--db", db, "serve", "--port=0", "--workers", "2", "--web-url", WEB_URL]
    with launched(command, tmp_path):
        _published(db, story)
    events = _events(db, story)
    assert events["story.published"]["permalink"] == f"{WEB_URL}/alice/later"


def test_without_a_web_url_serve_reports_the_address_it_listens_on_outside_a_request(
    tmp_path: Path,
) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    command = [*CLI, "--db", db, "serve", "--port=0", "--workers", "2"]
    with launched(command, tmp_path) as (address, _):
        story = _scheduled(db, "Later", web_url=address)  # as a request to it would make it
        _published(db, story)
    events = _events(db, story)
    assert events["story.created"]["permalink"] == f"{address}/alice/later"
    assert events["story.published"]["permalink"] == f"{address}/alice/later"


# -- what publish-due says -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "said"), [(1, "published 1 due story"), (2, "published 2 due stories")]
)
def test_publish_due_says_how_many_stories_it_published_in_words_that_agree(
    count: int, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    for n in range(count):
        _scheduled(db, f"Later {n}")
    assert main(["--db", db, "publish-due"]) == 0
    assert capsys.readouterr().out == f"{said}\n"


# -- one setting of allowed hosts -------------------------------------------------------------


@pytest.mark.parametrize(
    "allowing",
    [
        {"STORYCORE_RESOLVER_ALLOWED_HOSTS": f"intranet.example, {PRIVATE}"},
        {"STORYCORE_RESOLVER_ALLOWED_HOSTS": PRIVATE},
    ],
)
def test_webhooks_add_takes_the_allowed_hosts_from_the_environment_as_from_the_option(
    allowing: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    address = f"http://{PRIVATE}/hooks"
    with_option = ["--db", "memory://", "webhooks", "add", address]
    assert main([*with_option, "--resolve-allow-host", PRIVATE]) == 0
    assert main(with_option) == 1  # refused: nothing allows the private address
    for name, value in allowing.items():
        monkeypatch.setenv(name, value)
    capsys.readouterr()
    assert main(with_option) == 0, capsys.readouterr().err


def test_deliver_reaches_the_hosts_the_environment_allows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    monkeypatch.setenv("STORYCORE_WEBHOOK_KEY", new_key())
    monkeypatch.setenv("STORYCORE_RESOLVER_ALLOWED_HOSTS", "127.0.0.1")
    with receiving() as receiver:
        assert main(["--db", db, "webhooks", "add", receiver.url]) == 0
        _scheduled(db, "Delivered")
        capsys.readouterr()
        assert main(["--db", db, "deliver"]) == 0, capsys.readouterr().err
        sent = len(receiver.received)  # the user made, the story made and scheduled
    assert sent > 0
    assert capsys.readouterr().out == f"made {sent} delivery attempts\n"


# -- every command, one composition ------------------------------------------------------------

#: A command line of each command that builds a service (every one but these).
WITHOUT_SERVICE = {"reindex", "webhooks key"}
ARGUMENTS = {
    "serve": ["--port", "0"],
    "users create": ["bob", "--password", "bob-password"],
    "users set-password": ["bob", "--password", "bob-password"],
    "apps create": ["app"],
    "apps grant": ["app"],
    "apps revoke": ["app"],
    "apps rotate-key": ["app"],
    "import": ["-"],
    "webhooks add": ["https://hooks.example/in"],
    "webhooks remove": ["wh_1"],
    "webhooks deliveries": ["wh_1"],
    "webhooks redeliver": ["wh_1", "evt_1"],
}


class Composed(Exception):
    """What a command composed its service from, raised instead of composing it."""

    def __init__(self, composition: Composition) -> None:
        self.composition = composition


@pytest.mark.parametrize("words", [c.words for c in COMMANDS if c.words not in WITHOUT_SERVICE])
def test_every_command_composes_its_service_from_the_same_settings(
    words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    found: list[Composition] = []

    def composed(self: Composition, **kwargs: object) -> NoReturn:
        found.append(self)
        raise Composed(self)

    monkeypatch.setattr(Composition, "service", composed)
    monkeypatch.setenv("STORYCORE_WEB_URL", WEB_URL)
    monkeypatch.setenv("STORYCORE_RESOLVER_ALLOWED_HOSTS", f"intranet.example,{PRIVATE}")
    main(["--db", "memory://", *words.split(), *ARGUMENTS.get(words, [])])
    assert [(c.web_url, c.resolver_allowed_hosts) for c in found] == [
        (WEB_URL, ("intranet.example", PRIVATE))
    ]
