"""``storycore import --format storify FILE...`` (docs/decisions.md#export-and-import): Storify v1
story JSON
files become stories under their authors; a bad file is one line naming the file and item and
imports nothing; importing a story again needs ``--replace``; progress is the import's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.cli import main


def _story(sid: str, slug: str, **members: Any) -> dict[str, Any]:
    return {
        "sid": sid,
        "title": slug.title(),
        "slug": slug,
        "status": "published",
        "date": {"created": "2013-12-09T05:21:14.521Z", "published": "2013-12-10T08:00:00.000Z"},
        "author": {"username": "rtejpar", "name": "RT"},
        "elements": [{"id": "e1", "data": {"text": "<h2>Day one</h2>"}}],
        **members,
    }


def _write(path: Path, document: Any) -> str:
    path.write_bytes(orjson.dumps(document))
    return str(path)


def _slugs(db: str) -> list[str]:
    with Service(open_store(db)) as service:
        viewer = service.accounts.as_user("rtejpar")
        return sorted(story.slug for story in service.catalog.user("rtejpar", viewer=viewer).items)


def test_storify_files_become_stories_of_their_authors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    one = _write(tmp_path / "one.json", {"content": _story("s1", "first"), "code": 200})
    two = _write(tmp_path / "two.json", [_story("s2", "second"), _story("s3", "third")])
    assert main(["--db", db, "import", "--format", "storify", one, two]) == 0
    assert capsys.readouterr().err == "imported 4 records\n"  # the author and three stories
    assert _slugs(db) == ["first", "second", "third"]


def test_a_bad_file_is_one_line_naming_the_file_and_item_and_imports_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    good = _write(tmp_path / "good.json", _story("s1", "first"))
    bad_story = _story("s3", "third", elements=[{"type": "image", "data": {"image": {}}}])
    bad = _write(tmp_path / "bad.json", [_story("s2", "second"), bad_story])
    assert main(["--db", db, "import", "--format", "storify", good, bad]) == 1
    error = capsys.readouterr().err
    pattern = rf"storycore: {re.escape(bad)} item 2: story\.elements\.0\.data\.image\.src: [^\n]+\n"
    assert re.fullmatch(pattern, error), error
    with Service(open_store(db)) as service:
        assert service.store.users.find(0, 10) == []


def test_importing_a_story_again_needs_replace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    path = _write(tmp_path / "story.json", _story("s1", "first"))
    assert main(["--db", db, "import", "--format", "storify", path]) == 0
    assert main(["--db", db, "import", "--format", "storify", path]) == 1
    assert "--replace" in capsys.readouterr().err
    assert main(["--db", db, "import", "--format", "storify", "--replace", path]) == 0
    assert capsys.readouterr().err == "imported 1 records\n"  # the author is there already


def test_an_export_is_one_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    assert main(["--db", db, "import", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")]) == 1
    assert capsys.readouterr().err == (
        "storycore: an export is one FILE; --format storify reads several\n"
    )


def test_an_unknown_format_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["import", "--format", "wordpress", str(tmp_path / "a.xml")])
    assert exited.value.code == 2


def test_a_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    missing = str(tmp_path / "missing.json")
    assert main(["--db", db, "import", "--format", "storify", missing]) == 1
    assert capsys.readouterr().err.count("\n") == 1
