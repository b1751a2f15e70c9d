"""Import (docs/decisions.md#export-and-import): an export is read back as a write through the
Python API
would make it. Every record is checked by the functions create, save, create_user and
create_app use, and everything a write derives is derived again; a file with one bad line
imports nothing and names the line; an id the store holds refuses the import unless it
replaces; export, import into an empty store and export again gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest

from storycore import Conflict, InvalidParameter, Service, Settings, SlugTaken, Viewer
from storycore.adapters import open_store
from storycore.contrib.demo import load_demo
from storycore.contrib.transfer import export_lines
from storycore.errors import DuplicateKey
from storycore.model.records import StoryRecord, UserRecord
from storycore.ports import Store
from storycore.rules.sanitize import sanitize_html
from storycore.usecases import imports as imports_module
from tests._exports import Lines, edited, line_of


@pytest.fixture
def source(service: Service, alice: Viewer, bob: Viewer) -> Service:
    """A store with two users, an application, a published and a working story."""
    service.accounts.create_app("Reader", href="https://reader.example/")
    service.stories.create(
        "alice",
        {
            "title": "Harbour lights",
            "hashtags": ["boats"],
            "topics": ["Travel"],
            "elements": [
                {"type": "text", "data": {"text": "<p>Forty boats before noon #tides</p>"}},
                {
                    "type": "link",
                    "permalink": "https://news.example/harbour",
                    "data": {"link": {"title": "The harbour", "description": "A walk"}},
                },
                {
                    "type": "image",
                    "data": {"image": {"src": "https://photos.example/a.jpg", "caption": "Dusk"}},
                },
            ],
        },
        viewer=alice,
        publish=True,
    )
    service.stories.create("bob", {"title": "Notes from the shed"}, viewer=bob)
    return service


@pytest.fixture
def exported(source: Service) -> Lines:
    return list(export_lines(source.store))


@pytest.fixture
def target(store_factory: Callable[[], Store], storycore_settings: Settings) -> Service:
    """A service on a second, empty store of the same backend."""
    return Service(store_factory(), storycore_settings)


def _alices_story(lines: Lines) -> int:
    return line_of(lines, "story", lambda record: record["title"] == "Harbour lights")


def _is_empty(service: Service) -> bool:
    return list(export_lines(service.store)) == []


def _refused_line(service: Service, lines: Lines) -> str:
    """The message of the refusal of ``lines``, after checking that nothing was written."""
    with pytest.raises(InvalidParameter) as refused:
        service.imports.load(lines)
    assert _is_empty(service)
    return refused.value.message


def _stored_text(service: Service) -> str:
    element = service.stories.read("alice", "harbour-lights").elements[0]
    assert element.type == "text"
    return element.data["text"]


# -- a bad line imports nothing and is named ------------------------------------------------


def test_a_javascript_permalink_is_refused_naming_its_line_and_field(
    exported: Lines, target: Service
) -> None:
    number = _alices_story(exported)

    def hostile(item: dict[str, Any]) -> None:
        item["elements"][1]["permalink"] = "javascript:alert(1)"

    message = _refused_line(target, edited(exported, number, hostile))
    assert message.startswith(f"line {number}: story.elements.1.permalink: ")


def test_a_javascript_address_anywhere_in_an_element_is_refused(
    exported: Lines, target: Service
) -> None:
    number = _alices_story(exported)

    def hostile(item: dict[str, Any]) -> None:
        item["elements"][2]["data"]["image"]["src"] = "javascript:alert(1)"

    message = _refused_line(target, edited(exported, number, hostile))
    assert message.startswith(f"line {number}: story.elements.2.data.image.src: ")


def test_a_username_outside_the_rule_is_refused(exported: Lines, target: Service) -> None:
    number = line_of(exported, "user", lambda record: record["username"] == "bob")

    def hostile(item: dict[str, Any]) -> None:
        item["record"]["username"] = "Bad/Name"

    message = _refused_line(target, edited(exported, number, hostile))
    assert message.startswith(f"line {number}: user.username: ")


def test_an_address_in_a_profile_is_checked_as_create_user_checks_it(
    exported: Lines, target: Service
) -> None:
    number = line_of(exported, "user", lambda record: record["username"] == "alice")

    def hostile(item: dict[str, Any]) -> None:
        item["record"]["website"] = "javascript:alert(1)"

    message = _refused_line(target, edited(exported, number, hostile))
    assert message.startswith(f"line {number}: user.website: ")


def test_an_application_address_is_checked_as_create_app_checks_it(
    exported: Lines, target: Service
) -> None:
    number = line_of(exported, "app", lambda record: True)

    def hostile(item: dict[str, Any]) -> None:
        item["record"]["href"] = "javascript:alert(1)"

    message = _refused_line(target, edited(exported, number, hostile))
    assert message.startswith(f"line {number}: app.href: ")


def test_a_title_over_the_limit_is_refused(exported: Lines, target: Service) -> None:
    number = _alices_story(exported)

    def too_long(item: dict[str, Any]) -> None:
        item["record"]["title"] = "x" * 201

    message = _refused_line(target, edited(exported, number, too_long))
    assert message.startswith(f"line {number}: story.title: ")


def test_a_bad_last_line_leaves_none_of_the_lines_before_it(
    exported: Lines, target: Service
) -> None:
    number = len(exported)

    def bad(item: dict[str, Any]) -> None:
        item["record"]["slug"] = "Not A Slug"

    message = _refused_line(target, edited(exported, number, bad))
    assert message.startswith(f"line {number}: story.slug: ")


def test_a_story_whose_author_is_nowhere_is_refused(exported: Lines, target: Service) -> None:
    lines = [exported[_alices_story(exported) - 1]]
    assert _refused_line(target, lines).startswith("line 1: story.author_id: ")


def test_a_line_that_is_not_json_is_refused(exported: Lines, target: Service) -> None:
    lines = [*exported, b"{not json\n"]
    assert _refused_line(target, lines).startswith(f"line {len(lines)}: ")


def test_an_id_twice_in_the_file_is_refused(exported: Lines, target: Service) -> None:
    number = _alices_story(exported)
    lines = [*exported, exported[number - 1]]
    assert _refused_line(target, lines).startswith(f"line {len(lines)}: story.id: ")


def test_a_username_taken_in_the_store_regardless_of_case_is_refused(
    exported: Lines, target: Service
) -> None:
    target.accounts.create_user("ALICE", "another-password")
    before = list(export_lines(target.store))
    number = line_of(exported, "user", lambda record: record["username"] == "alice")
    with pytest.raises(InvalidParameter, match=rf"^line {number}: user\.username: "):
        target.imports.load(exported)
    assert list(export_lines(target.store)) == before


def test_a_slug_the_author_holds_in_the_file_twice_is_refused(
    exported: Lines, target: Service
) -> None:
    number = _alices_story(exported)

    def other_id(item: dict[str, Any]) -> None:
        item["record"]["id"] = "0another0id0"

    lines = [*exported, edited(exported, number, other_id)[number - 1]]
    with pytest.raises(SlugTaken, match=rf"^line {len(lines)}: story\.slug: "):
        target.imports.load(lines)
    assert _is_empty(target)


# -- sanitizing, as a write does --------------------------------------------------------------


def test_text_html_is_sanitized_as_a_write_sanitizes_it(exported: Lines, target: Service) -> None:
    hostile = '<p>Hello<script>alert("x")</script> <a href="javascript:alert(1)">there</a></p>'

    def with_script(item: dict[str, Any]) -> None:
        item["elements"][0]["data"]["text"] = hostile

    target.imports.load(edited(exported, _alices_story(exported), with_script))
    stored = _stored_text(target)
    assert "<script" not in stored
    assert "javascript:" not in stored
    assert stored == sanitize_html(hostile)


# -- what a write derives is derived ----------------------------------------------------------


def test_an_imported_story_is_found_by_the_words_of_its_edited_title(
    exported: Lines, target: Service
) -> None:
    def retitled(item: dict[str, Any]) -> None:
        item["record"]["title"] = "Lighthouse keepers"

    target.imports.load(edited(exported, _alices_story(exported), retitled))
    found = target.catalog.search("lighthouse").items
    assert [item.title for item in found] == ["Lighthouse keepers"]


def test_search_tokens_written_in_the_file_are_not_trusted(
    exported: Lines, target: Service
) -> None:
    def planted(item: dict[str, Any]) -> None:
        item["record"]["search_tokens"] = ["planted"]
        item["record"]["tags"] = ["planted"]

    target.imports.load(edited(exported, _alices_story(exported), planted))
    assert target.catalog.search("planted").items == []
    assert target.catalog.stories(tag="planted").items == []
    assert [s.title for s in target.catalog.search("harbour").items] == ["Harbour lights"]


def test_an_imported_story_is_found_by_a_hashtag_added_to_its_text(
    exported: Lines, target: Service
) -> None:
    def tagged(item: dict[str, Any]) -> None:
        item["elements"][0]["data"]["text"] = "<p>Forty boats before noon #lanterns</p>"

    target.imports.load(edited(exported, _alices_story(exported), tagged))
    assert [s.title for s in target.catalog.stories(tag="lanterns").items] == ["Harbour lights"]
    assert [s.title for s in target.catalog.stories(tag="boats").items] == ["Harbour lights"]


def test_an_imported_story_is_found_by_its_authors_edited_name(
    exported: Lines, target: Service
) -> None:
    number = line_of(exported, "user", lambda record: record["username"] == "alice")

    def renamed(item: dict[str, Any]) -> None:
        item["record"]["name"] = "Alice Wonderland"

    target.imports.load(edited(exported, number, renamed))
    assert [s.title for s in target.catalog.search("wonderland").items] == ["Harbour lights"]


def test_an_imported_storys_popularity_is_that_of_its_counters(
    exported: Lines, target: Service
) -> None:
    number = _alices_story(exported)

    def planted(item: dict[str, Any]) -> None:
        item["record"].update(views=7, likes=2, comments=1, popularity=999)

    target.imports.load(edited(exported, number, planted))
    story_id = orjson.loads(exported[number - 1])["record"]["id"]
    stored = target.store.stories.get(story_id)
    assert stored is not None
    assert stored.popularity == 7 + 5 * 2 + 10 * 1


def _imported_marked_modified(exported: Lines, target: Service, status: str) -> StoryRecord:
    """The story of ``status`` in ``exported``, imported with ``modified`` true, as stored."""
    number = line_of(exported, "story", lambda record: record["status"] == status)

    def marked(item: dict[str, Any]) -> None:
        item["record"]["modified"] = True

    target.imports.load(edited(exported, number, marked))
    stored = target.store.stories.get(orjson.loads(exported[number - 1])["record"]["id"])
    assert stored is not None
    return stored


def test_an_imported_working_story_is_never_modified_as_no_write_makes_one(
    exported: Lines, target: Service
) -> None:
    assert _imported_marked_modified(exported, target, "working").modified is False


def test_an_imported_published_story_keeps_its_modified_mark(
    exported: Lines, target: Service
) -> None:
    assert _imported_marked_modified(exported, target, "published").modified is True


# -- what an export carries is kept -----------------------------------------------------------


def test_an_import_keeps_ids_counters_versions_and_secrets(
    source: Service, alice: Viewer, target: Service
) -> None:
    source.stories.save("alice", "harbour-lights", {"title": "Harbour lights"}, viewer=alice)
    source.stories.read("alice", "harbour-lights")
    source.flush_views()
    lines = list(export_lines(source.store))
    assert target.imports.load(lines) == len(lines)
    story_id = orjson.loads(lines[_alices_story(lines) - 1])["record"]["id"]
    stored, copied = source.store.stories.get(story_id), target.store.stories.get(story_id)
    assert copied is not None
    assert stored is not None
    assert (copied.version, copied.views) == (2, 1)
    assert copied == stored
    assert target.store.users.get_by_username("alice") == source.store.users.get_by_username(
        "alice"
    )
    assert target.store.apps.get_by_name("Reader") == source.store.apps.get_by_name("Reader")


@pytest.mark.every_backend  # each store gives back the very records it was given
def test_export_import_export_gives_the_same_bytes(source: Service, target: Service) -> None:
    load_demo(source, stories=12)
    exported = list(export_lines(source.store))
    assert target.imports.load(exported) == len(exported)
    assert list(export_lines(target.store)) == exported


# -- an id the store holds --------------------------------------------------------------------


def test_an_id_the_store_holds_refuses_the_import_before_writing(
    source: Service, exported: Lines
) -> None:
    def retitled(item: dict[str, Any]) -> None:
        item["record"]["title"] = "Lighthouse keepers"

    lines = edited(exported, _alices_story(exported), retitled)
    with pytest.raises(Conflict, match=r"^line 1: user\.id: ") as refused:
        source.imports.load(lines)
    assert "replace=True" in refused.value.message  # what a Python caller passes
    assert list(export_lines(source.store)) == exported


def test_replace_puts_the_files_records_over_the_stored_ones(
    source: Service, exported: Lines
) -> None:
    def retitled(item: dict[str, Any]) -> None:
        item["record"]["title"] = "Lighthouse keepers"

    lines = edited(exported, _alices_story(exported), retitled)
    assert source.imports.load(lines, replace=True) == len(lines)
    assert len(list(export_lines(source.store))) == len(exported)
    assert source.stories.read("alice", "harbour-lights").title == "Lighthouse keepers"
    assert [s.title for s in source.catalog.search("lighthouse").items] == ["Lighthouse keepers"]
    assert source.catalog.search("lights").items == []


# -- a write that fails is undone -------------------------------------------------------------


@pytest.fixture
def failing_second_story(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second story the import writes fails, as a full disk or a lost server would."""
    real = imports_module._story_from
    calls = 0

    def failing(document: dict[str, Any]) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise OSError("no space left on device")
        return real(document)

    monkeypatch.setattr(imports_module, "_story_from", failing)


@pytest.mark.usefixtures("failing_second_story")
def test_a_write_that_fails_midway_leaves_none_of_the_files_stories(
    exported: Lines, target: Service
) -> None:
    with pytest.raises(OSError, match="no space"):
        target.imports.load(exported)
    assert list(target.store.stories.iter_all()) == []


@pytest.mark.usefixtures("failing_second_story")
def test_a_replacing_write_that_fails_midway_puts_the_stored_records_back(
    source: Service, exported: Lines
) -> None:
    def renamed(item: dict[str, Any]) -> None:
        member = {"user": "name", "app": "name", "story": "title"}[item["kind"]]
        item["record"][member] += " (edited)"

    lines = list(exported)
    for number in range(1, len(lines) + 1):
        lines = edited(lines, number, renamed)
    with pytest.raises(OSError, match="no space"):
        source.imports.load(lines, replace=True)
    assert list(export_lines(source.store)) == exported


def test_sqlite_stores_a_bulk_of_stories_all_or_none() -> None:
    store = open_store("sqlite://")
    try:
        author = UserRecord(id="author", username="author", created=_AT, updated=_AT)
        store.users.add(author)
        stories = [_story(f"s{number:04d}", f"story-{number}") for number in range(600)]
        stories.append(_story("s9999", "story-3"))  # the author's slug of an earlier one
        with pytest.raises(DuplicateKey, match=r"story\.slug"):
            store.stories.add_many((story, [], []) for story in stories)
        assert list(store.stories.iter_all()) == []
    finally:
        store.close()


_AT = "2026-01-01T00:00:00.000Z"


def _story(story_id: str, slug: str) -> StoryRecord:
    return StoryRecord(
        id=story_id,
        author_id="author",
        title=slug,
        slug=slug,
        status="working",
        created=_AT,
        updated=_AT,
    )
