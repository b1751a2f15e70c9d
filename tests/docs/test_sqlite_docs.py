"""docs/sqlite.md cannot drift (docs/decisions.md): every ``sqlite-utils`` command of the page
runs as written on a store the real ``storycore demo`` command made, and what it prints agrees
with what the service holds, read through the Python API."""

from __future__ import annotations

import itertools
import os
import re
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import orjson
import pytest

from storycore import Service, Viewer
from storycore.adapters import open_store
from storycore.model.shapes import Page, StorySummary
from storycore.usecases.catalog import Catalog
from tests._markdown import code_blocks

# the demo store is made once, on one worker
pytestmark = pytest.mark.xdist_group("sqlite-docs")

PAGE = Path(__file__).resolve().parents[2] / "docs" / "sqlite.md"
T = TypeVar("T")
STORE = "storycore.db"  # the file the page's commands name, in the working directory


def _commands() -> list[str]:
    """The page's ``sqlite-utils`` commands, one a line, as written."""
    lines = (line for block in code_blocks(PAGE.read_text(), "sh") for line in block.splitlines())
    return [line for line in lines if line.startswith("sqlite-utils ")]


def _table(output: str) -> list[dict[str, str]]:
    """The rows of a table printed with ``-t`` (tabulate's ``simple`` format): the line of
    dashes under the header marks where each column starts and ends."""
    header, rule, *rows = output.splitlines()
    spans = [found.span() for found in re.finditer(r"-+", rule)]
    names = [header[start:end].strip() for start, end in spans]
    return [
        {name: row[start:end].strip() for name, (start, end) in zip(names, spans, strict=True)}
        for row in rows
    ]


@dataclass(frozen=True)
class Held:
    """What the store holds, as the Python API tells it."""

    users: list[tuple[str, str]]  # username and name, in the order of the user list
    apps: int
    stories: list[tuple[str, bool]]  # status and private, one a story
    elements: int
    latest: list[str]  # slugs of the first page of the latest list


def _all_pages(fetch: Callable[[int], Page[T]]) -> list[T]:
    """Every item of a list, page after page."""
    items: list[T] = []
    for number in itertools.count(1):
        page = fetch(number)
        items += page.items
        if not page.has_next:
            break
    return items


def _user_pages(
    catalog: Catalog[StorySummary, Any], username: str, viewer: Viewer
) -> Callable[[int], Page[StorySummary]]:
    """The pages of a user's list as ``viewer`` sees them, by number."""
    return lambda n: catalog.user(username, viewer=viewer, page=n, per_page=100)


def _held(url: str) -> Held:
    with Service(open_store(url)) as service:
        accounts, catalog = service.accounts, service.catalog
        users = _all_pages(lambda n: accounts.list(page=n, per_page=100))
        stories: list[tuple[str, bool]] = []
        elements = 0
        for user in users:
            viewer = accounts.as_user(user.username)  # the author sees every story of theirs
            listed = _all_pages(_user_pages(catalog, user.username, viewer))
            for story in listed:
                stories.append((story.status, story.private))
                for number in itertools.count(1):
                    reading = service.stories.open(
                        user.username, story.slug, viewer=viewer, page=number, per_page=100
                    )
                    elements += len(reading.detail.elements)
                    if not reading.has_next:
                        break
        return Held(
            users=[(user.username, user.name) for user in users],
            apps=len(accounts.apps()),
            stories=stories,
            elements=elements,
            latest=[story.slug for story in catalog.latest(per_page=5).items],
        )


@dataclass(frozen=True)
class Run:
    """The demo store, what each command of the page printed, and what the store holds."""

    folder: Path
    printed: dict[str, str]
    held: Held


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    folder = tmp_path_factory.mktemp("sqlite-docs")
    url = f"sqlite:///{folder / STORE}"
    made = subprocess.run(
        [sys.executable, "-m", "storycore", "--db", url, "demo"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    # sqlite-utils is installed beside this interpreter (the ``test`` extra)
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    printed = {}
    for command in _commands():
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={**os.environ, "PATH": path},
        )
        assert done.returncode == 0, f"{command}\n{done.stderr}"
        printed[command] = done.stdout
    return Run(folder, printed, _held(url))


def _printed(run: Run, start: str, holding: str = "") -> str:
    """What the one command of the page that starts with ``start`` (and holds ``holding``)
    printed."""
    chosen = [c for c in run.printed if c.startswith(start) and holding in c]
    assert len(chosen) == 1, chosen
    return run.printed[chosen[0]]


CHECKED = (
    ("sqlite-utils tables", "--counts"),
    ("sqlite-utils query", "from stories group by status"),
    ("sqlite-utils rows", "stories"),
    ("sqlite-utils query", "from users"),
)


def test_the_page_shows_the_four_commands_these_tests_check() -> None:
    commands = _commands()
    matched = [c for c in commands if any(c.startswith(s) and h in c for s, h in CHECKED)]
    assert len(commands) == len(CHECKED)
    assert matched == commands


def test_tables_lists_every_table_of_the_store(run: Run) -> None:
    listed = {row["table"] for row in _table(_printed(run, *CHECKED[0]))}
    with sqlite3.connect(f"file:{run.folder / STORE}?mode=ro", uri=True) as db:
        tables = {
            name
            for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
    assert listed == tables
    assert {"users", "apps", "tokens", "stories", "elements", "aliases", "story_search"} <= listed


def test_tables_counts_the_rows_the_service_holds(run: Run) -> None:
    counts = {row["table"]: int(row["count"]) for row in _table(_printed(run, *CHECKED[0]))}
    held = run.held
    public = sum(1 for status, private in held.stories if status == "published" and not private)
    assert counts["users"] == len(held.users)
    assert counts["apps"] == held.apps
    assert counts["stories"] == len(held.stories)
    assert counts["elements"] == held.elements > 0
    assert counts["search_order"] == public  # search keys: public stories only


def test_the_status_query_counts_the_stories_by_status_and_privacy(run: Run) -> None:
    rows = orjson.loads(_printed(run, *CHECKED[1]))
    printed = {(row["status"], bool(row["private"])): row["stories"] for row in rows}
    assert printed == dict(Counter(run.held.stories))
    assert {status for status, _ in printed} == {"working", "published"}


def test_the_newest_public_rows_are_the_latest_list(run: Run) -> None:
    rows = _table(_printed(run, *CHECKED[2]))
    assert [row["slug"] for row in rows] == run.held.latest
    published = [row["published"] for row in rows]
    assert published == sorted(published, reverse=True)
    assert all(row["views"].isdigit() for row in rows)


def test_the_users_query_reads_each_users_name_from_the_record(run: Run) -> None:
    rows = _table(_printed(run, *CHECKED[3]))
    assert [(row["username"], row["name"]) for row in rows] == run.held.users
