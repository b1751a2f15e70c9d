"""``storycore keep-media`` and ``storycore prune-media`` (docs/media.md#keep-media,
docs/media.md#prune-media): keeping the pictures of a store written with keeping off, whatever
``STORYCORE_KEEP_MEDIA`` says, from a fake picture server on 127.0.0.1; pruning what nothing
shows, and nothing that is shown; one line for a wrong store, never a traceback."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib import _progress
from storycore.contrib.cli import main
from storycore.model.kept import KeptSource
from tests._kept_pictures import picture_server
from tests.conftest import TEST_SETTINGS
from tests.resolving.conftest import FakeSite, Reply


@pytest.fixture
def site() -> Iterator[FakeSite]:
    found = picture_server()
    yield found
    found.stop()


@pytest.fixture
def db(tmp_path: Path, site: FakeSite) -> str:
    """A SQLite file written with keeping off: alice's story shows ``/a.png``."""
    url = f"sqlite:///{tmp_path / 'stories.db'}"
    with Service(open_store(url), TEST_SETTINGS) as service:
        service.accounts.create_user("alice", "correct horse")
        image = {"type": "image", "data": {"image": {"src": site.url("/a.png")}}}
        story = {"title": "Pictures", "elements": [image]}
        service.stories.create("alice", story, viewer=service.accounts.as_user("alice"))
    return url


def _record(db: str, address: str) -> KeptSource | None:
    store = open_store(db)
    try:
        return store.kept_sources.get_many([address]).get(address)
    finally:
        store.close()


def test_keep_media_keeps_the_pictures_of_a_store_written_with_keeping_off(
    db: str, site: FakeSite, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STORYCORE_KEEP_MEDIA", "off")
    assert main(["--db", db, "keep-media", "--resolve-allow-host", "127.0.0.1"]) == 0
    record = _record(db, site.url("/a.png"))
    assert record is not None
    assert record.state == "kept", record.reason
    said = capsys.readouterr()
    assert said.out == "kept 1 picture of 1 tried; 0 failed (walked 2 stories and users)\n"
    assert said.err == ""


def test_keep_media_says_how_many_failed(
    db: str, site: FakeSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.replies["/a.png"] = Reply(b"<svg xmlns='http://www.w3.org/2000/svg'/>")
    assert main(["--db", db, "keep-media", "--resolve-allow-host", "127.0.0.1"]) == 0
    assert capsys.readouterr().out == (
        "kept 0 pictures of 1 tried; 1 failed (walked 2 stories and users)\n"
    )


def test_keep_media_fetches_no_private_address_unless_allowed(
    db: str, site: FakeSite, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", db, "keep-media"]) == 0
    record = _record(db, site.url("/a.png"))
    assert record is not None
    assert record.state == "failed"
    assert site.requests == []


def test_prune_media_keeps_what_is_shown(
    db: str, site: FakeSite, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", db, "keep-media", "--resolve-allow-host", "127.0.0.1"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "prune-media"]) == 0
    assert capsys.readouterr().out == (
        "deleted 0 files of 0 pictures no story, revision or user showed for 7 days\n"
    )
    record = _record(db, site.url("/a.png"))
    assert record is not None
    assert record.state == "kept"


@pytest.mark.parametrize("command", ["keep-media", "prune-media"])
def test_a_store_that_cannot_be_opened_is_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = f"sqlite:///{tmp_path / 'no' / 'such' / 'folder.db'}"
    assert main(["--db", missing, command]) == 1
    error = capsys.readouterr().err
    assert error.startswith("storycore: ")
    assert error.count("\n") == 1


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_shows_the_walk_of_how_many_then_the_pictures_kept() -> None:
    terminal = _Terminal()
    meter = _progress.Meter(terminal)
    show = _progress.media_progress(meter)
    show("walked", 3, 4)
    show("kept", 2, None)  # the walk's line ends as it was last
    meter.end()
    walking, keeping = terminal.getvalue().split("\n")[:2]
    assert "3 of 4 stories and users" in walking.split("\r")[-1]
    assert keeping.split("\r")[-1].startswith("keeping: 2 pictures")
