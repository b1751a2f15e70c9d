"""``storycore export`` and ``storycore import`` with kept pictures
(docs/media-storage.md#export-and-import): the files and records move to another store URL as
they were, and an import queues pictures for the keeper only where pictures are kept
(``STORYCORE_KEEP_MEDIA=on``; the command line's offline resolver keeps none by default).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from storycore.adapters import open_store
from storycore.contrib.cli import main
from storycore.model.kept import KeptFile, KeptSource
from tests._kept_pictures import keep_some, keeping


@pytest.fixture(autouse=True)
def _keeping_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STORYCORE_KEEP_MEDIA", raising=False)
    monkeypatch.delenv("STORYCORE_RESOLVER", raising=False)


@pytest.fixture
def source(tmp_path: Path) -> str:
    """A SQLite file with a story and a profile whose pictures were kept (or failed)."""
    url = f"sqlite:///{tmp_path / 'source.db'}"
    with keeping(open_store(url)) as service:
        keep_some(service)
    return url


@pytest.fixture
def exported(source: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "export.jsonl"
    assert main(["--db", source, "export", str(path)]) == 0
    capsys.readouterr()
    return path


def _without_kept_pictures(exported: Path) -> Path:
    """A copy of the export with its users and stories alone."""
    lines = exported.read_bytes().splitlines(keepends=True)
    path = exported.with_name("stories.jsonl")
    path.write_bytes(b"".join(line for line in lines if b'"kind":"kept_' not in line))
    return path


def _kept(url: str) -> tuple[dict[str, tuple[KeptFile, bytes]], dict[str, KeptSource]]:
    """Every kept file with its bytes, and every source record, of the store at ``url``."""
    store = open_store(url)
    try:
        files = {}
        for file in store.kept_files.scan(None, 1000):
            kept = store.kept_files.get(file.name)
            assert kept is not None
            files[file.name] = kept
        sources = {source.address: source for source in store.kept_sources.scan(None, 1000)}
        return files, sources
    finally:
        store.close()


def test_export_then_import_moves_the_kept_pictures_to_another_store_url(
    source: str, exported: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = "mongomock://kept_pictures_moved"
    assert main(["--db", target, "import", str(exported)]) == 0
    assert capsys.readouterr().err.endswith("imported 12 records\n")
    files, sources = _kept(target)
    assert len(files) == 5
    assert (files, sources) == _kept(source)


def test_an_import_queues_no_picture_unless_keeping_is_on(
    tmp_path: Path, exported: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stories_only = _without_kept_pictures(exported)
    quiet = f"sqlite:///{tmp_path / 'quiet.db'}"
    assert main(["--db", quiet, "import", str(stories_only)]) == 0
    assert _kept(quiet) == ({}, {})


def test_an_import_queues_the_pictures_it_brings_when_keeping_is_on(
    tmp_path: Path, exported: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stories_only = _without_kept_pictures(exported)
    monkeypatch.setenv("STORYCORE_KEEP_MEDIA", "on")
    keeps = f"sqlite:///{tmp_path / 'keeps.db'}"
    assert main(["--db", keeps, "import", str(stories_only)]) == 0
    _, sources = _kept(keeps)
    assert len(sources) == 5
    assert {source.state for source in sources.values()} == {"pending"}


def test_addresses_imported_as_kept_stay_kept_when_keeping_is_on(
    tmp_path: Path, source: str, exported: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STORYCORE_KEEP_MEDIA", "on")
    keeps = f"sqlite:///{tmp_path / 'keeps.db'}"
    assert main(["--db", keeps, "import", str(exported)]) == 0
    files, sources = _kept(keeps)
    _, before = _kept(source)
    assert {a: s.state for a, s in sources.items()} == {a: s.state for a, s in before.items()}
    assert {a: s.copies for a, s in sources.items()} == {a: s.copies for a, s in before.items()}
    assert len(files) == 5
