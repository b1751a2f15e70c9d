"""Users and applications from the command line (docs/decisions.md#command-line): passwords from a
file,
the environment or a terminal, ``users list``, ``users set-password``, ``apps list`` and
``apps rotate-key``."""

from __future__ import annotations

from pathlib import Path

import pytest

from storycore import Service, Unauthorized
from storycore.adapters import open_store
from storycore.contrib.cli import main
from tests.conftest import TEST_SETTINGS

PASSWORD = "s3cret-passw0rd"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'accounts.db'}"


def _service(db: str) -> Service:
    return Service(open_store(db), TEST_SETTINGS)


def _authenticates(db: str, api_key: str, username: str, password: str) -> bool:
    with _service(db) as service:
        try:
            service.accounts.authenticate(api_key, username, password)
        except Unauthorized:
            return False
    return True


def _app_key(db: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["--db", db, "apps", "create", "tools"]) == 0
    return capsys.readouterr().out.splitlines()[-1]


def test_a_password_may_come_from_the_first_line_of_a_file(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path / "password.txt"
    secret.write_text(f"{PASSWORD}\nsecond line\n")
    assert main(["--db", db, "users", "create", "alice", "--password-file", str(secret)]) == 0
    assert _authenticates(db, _app_key(db, capsys), "alice", PASSWORD)


def test_a_password_may_come_from_the_environment(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STORYCORE_PASSWORD", PASSWORD)
    assert main(["--db", db, "users", "create", "alice"]) == 0
    assert _authenticates(db, _app_key(db, capsys), "alice", PASSWORD)


def test_no_password_and_no_terminal_is_one_line_and_makes_no_user(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("STORYCORE_PASSWORD", raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["--db", db, "users", "create", "alice"]) == 1
    assert "STORYCORE_PASSWORD" in capsys.readouterr().err
    with _service(db) as service:
        assert service.store.users.get_by_username("alice") is None


def test_set_password_replaces_the_password(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db, "users", "create", "alice", "--password", PASSWORD]) == 0
    assert main(["--db", db, "users", "set-password", "alice", "--password", "n3w-passw0rd"]) == 0
    api_key = _app_key(db, capsys)
    assert not _authenticates(db, api_key, "alice", PASSWORD)
    assert _authenticates(db, api_key, "alice", "n3w-passw0rd")


def test_set_password_of_an_unknown_user_is_one_line(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", db, "users", "set-password", "nobody", "--password", PASSWORD]) == 1
    assert capsys.readouterr().err == "storycore: there is no user 'nobody'\n"


def test_users_list_prints_every_user_by_username(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    names = [f"user{n:03d}" for n in range(105)]  # more than a page of 100
    with _service(db) as service:
        for name in reversed(names):
            service.accounts.create_user(name, name=f"Name {name}")
    assert main(["--db", db, "users", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"{name}\tName {name}" for name in names]


def test_apps_list_prints_each_application_its_grant_and_creation(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with _service(db) as service:
        made = [service.accounts.create_app("zeta").app]
        made.append(service.accounts.create_app("alpha", delegation=True).app)
    assert main(["--db", db, "apps", "list"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"alpha\tdelegation\t{made[1].created}",
        f"zeta\t-\t{made[0].created}",
    ]


def test_rotate_key_prints_a_new_key_last_and_the_old_one_stops_working(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", db, "users", "create", "alice", "--password", PASSWORD]) == 0
    old_key = _app_key(db, capsys)
    with _service(db) as service:
        token = service.accounts.authenticate(old_key, "alice", PASSWORD).token
    assert main(["--db", db, "apps", "rotate-key", "tools"]) == 0
    new_key = capsys.readouterr().out.splitlines()[-1]
    assert new_key != old_key
    assert not _authenticates(db, old_key, "alice", PASSWORD)
    assert _authenticates(db, new_key, "alice", PASSWORD)
    with _service(db) as service:  # a token issued before keeps working with the new key
        assert service.accounts.viewer(new_key, "alice", token).user is not None


def test_rotate_key_of_an_unknown_application_is_one_line(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", db, "apps", "rotate-key", "nothing"]) == 1
    assert capsys.readouterr().err == "storycore: there is no application 'nothing'\n"


def test_on_a_terminal_the_password_is_asked_for_twice(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("STORYCORE_PASSWORD", raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    answers = iter([PASSWORD, "typo", PASSWORD, PASSWORD])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    assert main(["--db", db, "users", "create", "alice"]) == 1  # the two differ
    assert "differ" in capsys.readouterr().err
    assert main(["--db", db, "users", "create", "alice"]) == 0
    assert _authenticates(db, _app_key(db, capsys), "alice", PASSWORD)
