"""Webhooks from the command line (docs/webhooks.md): ``storycore webhooks key``,
``webhooks add|list|remove|deliveries|redeliver`` and ``storycore deliver``, run in process
through ``main``.

A SQLite file keeps its webhook key in a file beside it (made on first use, readable by its
owner only); ``STORYCORE_WEBHOOK_KEY`` wins over it. Deliveries go to a real receiver on
127.0.0.1, which ``--resolve-allow-host 127.0.0.1`` lets the sender reach, and each is verified
with the ``standardwebhooks`` package and the secret ``add`` printed.

The tests that keep webhooks in a SQLite file between commands run once the SQLite adapter
keeps events and webhooks (``SQLITE_KEEPS_WEBHOOKS``); the others run on ``memory://``.
"""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
import standardwebhooks

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib._commands import parser as command_parser
from storycore.contrib.cli import main
from storycore.contrib.compose import webhook_key_file
from storycore.rules.webhook_secrets import new_key, parse_key, unseal
from storycore.testing import ManualClock
from tests._receivers import Receiver, receiving
from tests.conftest import TEST_SETTINGS

ELSEWHERE = "https://hooks.example/storycore"
LOOPBACK = ["--resolve-allow-host", "127.0.0.1"]


def _sqlite_keeps_webhooks() -> bool:
    """Whether the SQLite store keeps events and webhooks (its adapter is being written)."""
    store = open_store("sqlite://")
    try:
        return all(hasattr(store, part) for part in ("events", "webhooks", "deliveries"))
    finally:
        store.close()


SQLITE_KEEPS_WEBHOOKS = _sqlite_keeps_webhooks()
on_sqlite = pytest.mark.skipif(
    not SQLITE_KEEPS_WEBHOOKS,
    reason="runs once the SQLite adapter keeps events and webhooks",
)


@pytest.fixture(autouse=True)
def _no_key_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STORYCORE_WEBHOOK_KEY", raising=False)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'stories.db'}"


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    with receiving() as listening:
        yield listening


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    """``storycore ARGS``: its status, the lines it printed, and its standard error."""
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def _added(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> tuple[str, str]:
    """``webhooks add ARGS``: the id and the secret it printed."""
    status, lines, err = _run(capsys, "--db", db, "webhooks", "add", *args)
    assert status == 0, err
    return lines[0].split()[2], lines[-1]


def _story_published(db: str, clock: ManualClock, title: str) -> None:
    """alice publishes a story ``title`` on the store, a second after the last thing written."""
    clock.advance(1)
    with Service(open_store(db), TEST_SETTINGS, clock=clock) as service:
        if service.store.users.get_by_username("alice") is None:
            service.accounts.create_user("alice", "a-long-password")
        alice = service.accounts.as_user("alice")
        service.stories.create("alice", {"title": title}, viewer=alice, publish=True)


def _one_line_on_stderr(err: str) -> None:
    assert "Traceback" not in err
    assert "internal error" not in err
    [line] = err.splitlines()
    assert line.startswith("storycore: ")


# -- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["webhooks", "list"],
        ["webhooks", "add", ELSEWHERE, "--event", "story.saved"],
        ["webhooks", "redeliver", "wh_000000000000", "evt_0000000000000000"],
        ["deliver"],
    ],
)
def test_db_is_taken_after_a_webhooks_action_as_after_every_command(argv: list[str]) -> None:
    assert command_parser().parse_args([*argv, "--db", "sqlite:///given.db"]).db == (
        "sqlite:///given.db"
    )


# -- the key ---------------------------------------------------------------------------------


def test_webhooks_key_prints_a_key_settings_accepts(capsys: pytest.CaptureFixture[str]) -> None:
    status, [key], _ = _run(capsys, "webhooks", "key")
    assert status == 0
    assert Settings(webhook_key=key).webhook_key_bytes == parse_key(key)
    assert len(parse_key(key)) == 32


def test_webhooks_key_prints_a_new_key_each_time(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = _run(capsys, "webhooks", "key")
    _, second, _ = _run(capsys, "webhooks", "key")
    assert first != second


@on_sqlite
def test_the_key_file_beside_the_db_is_made_on_first_use_readable_by_its_owner_only(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    path = webhook_key_file(db)
    assert path is not None
    assert not path.exists()
    _added(capsys, db, ELSEWHERE)
    assert path == Path(db.removeprefix("sqlite:///") + ".webhook-key")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    parse_key(path.read_text())


@on_sqlite
def test_the_key_file_is_reused_and_seals_every_secret(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    first = _added(capsys, db, ELSEWHERE)
    path = webhook_key_file(db)
    assert path is not None
    kept = path.read_text()
    second = _added(capsys, db, ELSEWHERE)
    assert path.read_text() == kept
    with Service(open_store(db), TEST_SETTINGS) as service:
        for webhook, secret in (first, second):
            record = service.store.webhooks.get(webhook)
            assert record is not None
            assert unseal(parse_key(kept), record.secret, webhook) == secret


@on_sqlite
def test_storycore_webhook_key_wins_over_the_key_file(
    capsys: pytest.CaptureFixture[str], db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _added(capsys, db, ELSEWHERE)  # the key file is made
    path = webhook_key_file(db)
    assert path is not None
    kept = path.read_text()
    key = new_key()
    monkeypatch.setenv("STORYCORE_WEBHOOK_KEY", key)
    webhook, secret = _added(capsys, db, ELSEWHERE)
    assert path.read_text() == kept
    with Service(open_store(db), TEST_SETTINGS) as service:
        record = service.store.webhooks.get(webhook)
        assert record is not None
        assert unseal(parse_key(key), record.secret, webhook) == secret


# -- webhooks add ----------------------------------------------------------------------------


def test_add_prints_the_id_and_the_secret_last(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = _run(
        capsys,
        *("--db", "memory://", "webhooks", "add", ELSEWHERE),
        *("--event", "story.published", "--event", "story.deleted"),
    )
    assert status == 0
    [said, secret] = lines
    assert said.startswith("created webhook wh_")
    assert "story.published, story.deleted" in said
    assert secret.startswith("whsec_")
    standardwebhooks.Webhook(secret)  # the form Standard Webhooks takes


def test_add_without_an_event_is_for_every_event(capsys: pytest.CaptureFixture[str]) -> None:
    _, [said, _], _ = _run(capsys, "--db", "memory://", "webhooks", "add", ELSEWHERE)
    assert " for *;" in said


@on_sqlite
@pytest.mark.parametrize(("options", "private"), [(["--private"], True), ([], False)])
def test_add_private_registers_a_webhook_told_of_private_stories_in_full(
    capsys: pytest.CaptureFixture[str], db: str, options: list[str], private: bool
) -> None:
    webhook_id, _ = _added(capsys, db, ELSEWHERE, *options)
    store = open_store(db)
    try:
        found = store.webhooks.get(webhook_id)
        assert found is not None
        assert found.private is private
    finally:
        store.close()


def test_add_takes_a_private_address_when_resolve_allow_host_names_its_host(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = "http://127.0.0.1:9/hook"
    status, lines, err = _run(capsys, "--db", "memory://", "webhooks", "add", url, *LOOPBACK)
    assert status == 0, err
    assert lines[-1].startswith("whsec_")


@pytest.mark.parametrize(
    "args",
    [
        ["http://localhost/hook"],
        ["http://127.0.0.1/hook"],
        ["http://127.1/x"],
        ["http://2130706433/x"],
        ["not an address"],
        ["https://user:password@hooks.example/"],
        [ELSEWHERE, "--event", "story.nope"],
    ],
)
def test_a_bad_url_or_event_prints_one_line_and_exits_1(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    status, lines, err = _run(capsys, "--db", "memory://", "webhooks", "add", *args)
    assert (status, lines) == (1, [])
    _one_line_on_stderr(err)


@pytest.mark.parametrize(
    "args",
    [
        ["remove", "wh_000000000000"],
        ["deliveries", "wh_000000000000"],
        ["redeliver", "wh_000000000000", "evt_0000000000000000"],
    ],
)
def test_an_unknown_id_prints_one_line_and_exits_1(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    status, lines, err = _run(capsys, "--db", "memory://", "webhooks", *args)
    assert (status, lines) == (1, [])
    _one_line_on_stderr(err)


# -- list, remove ----------------------------------------------------------------------------


@on_sqlite
def test_list_prints_each_webhook_id_state_events_and_address_oldest_first(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    first, _ = _added(capsys, db, ELSEWHERE, "--event", "story.published")
    second, _ = _added(capsys, db, f"{ELSEWHERE}/2")
    status, lines, _ = _run(capsys, "--db", db, "webhooks", "list")
    assert status == 0
    assert lines == [
        f"{first}\tactive\tstory.published\t{ELSEWHERE}",
        f"{second}\tactive\t*\t{ELSEWHERE}/2",
    ]


@on_sqlite
def test_remove_prints_the_id_and_the_webhook_is_gone(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    webhook, _ = _added(capsys, db, ELSEWHERE)
    assert _run(capsys, "--db", db, "webhooks", "remove", webhook)[:2] == (
        0,
        [f"removed webhook {webhook}"],
    )
    assert _run(capsys, "--db", db, "webhooks", "list")[1] == []


# -- deliveries ------------------------------------------------------------------------------


@on_sqlite
def test_deliver_prints_how_many_attempts_it_made(
    capsys: pytest.CaptureFixture[str], db: str, receiver: Receiver
) -> None:
    url = f"{receiver.url}/deliver"
    _, secret = _added(capsys, db, url, "--event", "story.published", *LOOPBACK)
    clock = ManualClock()
    _story_published(db, clock, "One")
    _story_published(db, clock, "Two")
    assert _run(capsys, "--db", db, "deliver", *LOOPBACK)[:2] == (0, ["made 2 delivery attempts"])
    sent = [d for d in receiver.received if d.path.endswith("/deliver")]
    webhook = standardwebhooks.Webhook(secret)
    titles = {webhook.verify(d.body, d.headers)["data"]["title"] for d in sent}
    assert titles == {"One", "Two"}


@on_sqlite
def test_deliver_with_nothing_due_makes_no_attempt(
    capsys: pytest.CaptureFixture[str], db: str, receiver: Receiver
) -> None:
    _added(capsys, db, receiver.url, *LOOPBACK)
    _story_published(db, ManualClock(), "One")
    _run(capsys, "--db", db, "deliver", *LOOPBACK)
    assert _run(capsys, "--db", db, "deliver", *LOOPBACK)[1] == ["made 0 delivery attempts"]


@on_sqlite
def test_deliveries_prints_them_newest_first(
    capsys: pytest.CaptureFixture[str], db: str, receiver: Receiver
) -> None:
    webhook, _ = _added(capsys, db, receiver.url, "--event", "story.published", *LOOPBACK)
    clock = ManualClock()
    _story_published(db, clock, "One")
    _story_published(db, clock, "Two")
    _run(capsys, "--db", db, "deliver", *LOOPBACK)
    with Service(open_store(db), TEST_SETTINGS) as service:
        logged = [item.event for item in service.events.after(None, 100)]
    published = [event.id for event in logged if event.type == "story.published"]
    status, lines, _ = _run(capsys, "--db", db, "webhooks", "deliveries", webhook)
    assert status == 0
    assert [line.split("\t") for line in lines] == [
        [event, "story.published", "delivered", "1", "204", "-", ""]
        for event in reversed(published)
    ]


@on_sqlite
def test_redeliver_prints_when_the_event_is_due_again(
    capsys: pytest.CaptureFixture[str], db: str, receiver: Receiver
) -> None:
    webhook, _ = _added(capsys, db, receiver.url, "--event", "story.published", *LOOPBACK)
    _story_published(db, ManualClock(), "One")
    _run(capsys, "--db", db, "deliver", *LOOPBACK)
    _, [line], _ = _run(capsys, "--db", db, "webhooks", "deliveries", webhook)
    event = line.split("\t")[0]
    status, [said], _ = _run(capsys, "--db", db, "webhooks", "redeliver", webhook, event)
    assert status == 0
    assert said.startswith(f"{event} to {webhook}: due again at ")
    assert _run(capsys, "--db", db, "deliver", *LOOPBACK)[1] == ["made 1 delivery attempts"]
