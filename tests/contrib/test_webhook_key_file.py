"""The key a SQLite file keeps beside it for webhook secrets (docs/webhooks.md#safety): made
once, whole, by whichever process composes a service on the file first, so that processes
starting together (``uvicorn --factory ... --workers N``, commands run at once) all end with the
same key; and refused, in one line naming it, when it is a symbolic link, open to others than
its owner, or no key.

The race is run with real processes: each composes services the way the ASGI factory does
(``storycore.contrib.compose.from_environment``), on a new file named on its standard input,
which all of them are given at once.
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from storycore.contrib import asgi
from storycore.contrib.cli import main
from storycore.contrib.compose import Composition, webhook_key_file
from storycore.errors import ConfigurationError
from storycore.rules.webhook_secrets import new_key, parse_key
from tests._racers import race, racers

#: Processes composing on one new file at once, and the new files they race on.
PROCESSES = 6
TRIALS = 20

#: One racing process: it composes a service on each file named on its standard input, as
#: ``uvicorn --factory storycore.contrib.asgi:from_environment`` does, and prints the
#: fingerprint of the webhook key it got ("none" without one).
_RACER = """
import hashlib, sys
from storycore.contrib.compose import from_environment
print("ready", flush=True)
for line in sys.stdin:
    try:
        with from_environment({"STORYCORE_DB": line.strip()}) as service:
            key = service.settings.webhook_key_bytes
        print("none" if key is None else hashlib.sha256(key).hexdigest(), flush=True)
    except Exception as exc:
        print(f"{type(exc).__name__}: {exc}".replace("\\n", " "), flush=True)
"""


@pytest.fixture(autouse=True)
def _no_settings_from_the_developer(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in os.environ if name.startswith("STORYCORE_")]:
        monkeypatch.delenv(name)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'stories.db'}"


def _key_file(db: str) -> Path:
    path = webhook_key_file(db)
    assert path is not None
    return path


def _kept_key(db: str) -> bytes | None:
    """The webhook key of the service composed on ``db``."""
    with Composition(db=db).service() as service:
        return service.settings.webhook_key_bytes


def _refused_in_one_line_naming(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every way of composing on ``db`` refuses its key file, naming it: a command (status 1,
    one line) and the ASGI factory (``ConfigurationError``)."""
    path = str(_key_file(db))
    status = main(["--db", db, "webhooks", "list"])
    out, err = capsys.readouterr()
    assert status == 1
    assert out == ""
    [line] = err.splitlines()
    assert line.startswith("storycore: ")
    assert path in line
    monkeypatch.setenv("STORYCORE_DB", db)
    # the factory gives the process's log handlers the secrets filter, which renders a
    # record's traceback as text: here they are pytest's, which the next tests share
    monkeypatch.setattr("storycore.contrib._logs.redact_uvicorn_logs", lambda: None)
    with pytest.raises(ConfigurationError) as refused:
        asgi.from_environment()
    assert path in str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.fixture
def composers() -> Iterator[list[subprocess.Popen[str]]]:
    """``PROCESSES`` racing processes, each with its imports done, waiting for a file."""
    with racers(_RACER, PROCESSES) as started:
        yield started


# -- made once -------------------------------------------------------------------------------


def test_processes_composing_on_a_new_file_at_once_all_get_the_same_key(
    tmp_path: Path, composers: list[subprocess.Popen[str]]
) -> None:
    failed: dict[int, list[str]] = {}
    for trial in range(TRIALS):
        db = f"sqlite:///{tmp_path / f'trial-{trial}.db'}"
        said = race(composers, db)  # each is waiting on its input: given it, they start together
        kept = _key_file(db).read_bytes().strip()
        if said != [hashlib.sha256(parse_key(kept.decode())).hexdigest()] * PROCESSES:
            failed[trial] = said
    assert failed == {}, f"{len(failed)} of {TRIALS} trials ended with other keys: {failed}"


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o277], ids=["000", "022", "277"])
def test_the_key_file_is_made_readable_by_its_owner_only_whatever_the_umask(
    db: str, umask: int
) -> None:
    was = os.umask(umask)
    try:
        key = _kept_key(db)
    finally:
        os.umask(was)
    path = _key_file(db)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert key is not None
    assert parse_key(path.read_text().strip()) == key
    assert _kept_key(db) == key


def test_the_key_file_is_made_whole_with_nothing_left_beside_it(db: str, tmp_path: Path) -> None:
    _kept_key(db)
    assert sorted(p.name for p in tmp_path.iterdir() if "webhook-key" in p.name) == [
        "stories.db.webhook-key"
    ]


def test_a_kept_key_file_is_used_as_it_is(db: str) -> None:
    key = new_key()
    path = _key_file(db)
    path.write_text(key + "\n")
    path.chmod(0o600)
    assert _kept_key(db) == parse_key(key)
    assert path.read_text() == key + "\n"


# -- refused ---------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660], ids=oct)
def test_a_key_file_others_may_read_or_write_is_refused_naming_it(
    db: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    mode: int,
) -> None:
    path = _key_file(db)
    path.write_text(new_key() + "\n")
    path.chmod(mode)
    _refused_in_one_line_naming(db, capsys, monkeypatch)


def test_a_key_file_that_is_a_symbolic_link_is_refused_naming_it(
    db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    elsewhere = tmp_path / "planted"
    elsewhere.write_text(new_key() + "\n")
    elsewhere.chmod(0o600)
    _key_file(db).symlink_to(elsewhere)
    _refused_in_one_line_naming(db, capsys, monkeypatch)


def test_a_key_file_that_is_a_dangling_symbolic_link_is_refused_naming_it(
    db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _key_file(db).symlink_to(tmp_path / "nothing-here")
    _refused_in_one_line_naming(db, capsys, monkeypatch)
    assert not (tmp_path / "nothing-here").exists()


#: A key cut short: base64, but 30 bytes.
SHORT = "MM6L7EVffZJC2-uNmezQ5OoYBghC9T2INCqurEpm\n"


@pytest.mark.parametrize(
    "text", ["", "\n", "not a key\n", SHORT], ids=["empty", "a line", "words", "short"]
)
def test_a_key_file_that_holds_no_key_is_refused_naming_it(
    db: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    text: str,
) -> None:
    path = _key_file(db)
    path.write_text(text)
    path.chmod(0o600)
    _refused_in_one_line_naming(db, capsys, monkeypatch)
