"""The revisions routes (docs/api.md#revisions) over HTTP, through ``HttpApp``: the list, one
revision, and a restore, their answers and statuses. Who may call them is the permission
table's part (``test_permissions.py``).

The world's ``draft`` was saved once (version 2, revision 1); ``open`` has three elements.
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest

from storycore.http.api import ROUTES
from storycore.http.openapi import openapi_document
from tests.conftest import TEST_SETTINGS
from tests.http._clients import Answer, Client
from tests.http._shapes import DETAIL, ELEMENT, TIMESTAMP, content_of, error_of, keys
from tests.http.conftest import OPEN_ELEMENTS, World

REVISION_ITEM = keys("version replaced by title status elements")
DRAFT = "/v1/stories/alice/draft"
OPEN = "/v1/stories/alice/open"


def _as(world: World, **params: object) -> dict[str, object]:
    """``params`` with alice's credentials."""
    return {**params, **world.credentials("alice")}


def _save(world: World, slug: str, story: dict[str, Any], who: str = "alice") -> None:
    viewer = world.service.accounts.as_user(who)
    world.clock.advance(1)
    world.service.stories.save("alice", slug, story, viewer=viewer)


def _restore(client: Client, world: World, path: str, **params: object) -> Answer:
    return client.post_form(f"{path}/restore", _as(world, **params))


# -- the list --------------------------------------------------------------------------------


def test_the_list_answers_revision_items_newest_first(client: Client, world: World) -> None:
    _save(world, "draft", {"title": "Second go"}, who="ed")
    content = content_of(client.get(f"{DRAFT}/revisions", _as(world)))
    assert set(content) == {"page", "per_page", "revisions"}
    assert (content["page"], content["per_page"]) == (1, 20)
    items = content["revisions"]
    assert all(set(item) == REVISION_ITEM for item in items)
    assert all(TIMESTAMP.match(item["replaced"]) for item in items)
    assert [(i["version"], i["by"], i["title"], i["status"]) for i in items] == [
        (2, "ed", "Unfinished", "working"),
        (1, "alice", "Unfinished", "working"),
    ]
    assert items[0]["replaced"] > items[1]["replaced"]


def test_the_list_counts_the_elements_of_each_revision(client: Client, world: World) -> None:
    _save(world, "open", {"elements": ["https://img.example/one.jpg"]})
    _save(world, "open", {"title": "Harbour, later"})
    items = content_of(client.get(f"{OPEN}/revisions", _as(world)))["revisions"]
    assert [(item["version"], item["elements"]) for item in items] == [
        (2, 1),
        (1, len(OPEN_ELEMENTS)),
    ]


def test_the_list_pages_with_link_headers_and_counts_on_request(
    client: Client, world: World
) -> None:
    for title in ("Two", "Three", "Four"):
        _save(world, "draft", {"title": title})
    first = client.get(f"{DRAFT}/revisions", _as(world, per_page=2))
    second = client.get(f"{DRAFT}/revisions", _as(world, per_page=2, page=2, total="true"))
    assert [item["version"] for item in content_of(first)["revisions"]] == [4, 3]
    assert 'rel="next"' in first.headers["link"]
    assert "page=2" in first.headers["link"]
    content = content_of(second)
    assert ([i["version"] for i in content["revisions"]], content["total"]) == ([2, 1], 4)
    assert 'rel="prev"' in second.headers["link"]
    assert 'rel="next"' not in second.headers["link"]


def test_the_list_of_a_story_never_changed_is_empty(client: Client, world: World) -> None:
    content = content_of(client.get(f"{OPEN}/revisions", _as(world, total="true")))
    assert (content["revisions"], content["total"]) == ([], 0)


# -- one revision ----------------------------------------------------------------------------


def test_a_revision_answers_the_story_detail_it_was(client: Client, world: World) -> None:
    story = content_of(client.get(DRAFT, _as(world)))
    revision = content_of(client.get(f"{DRAFT}/revisions/1", _as(world)))
    assert set(revision) == DETAIL
    assert (revision["version"], revision["title"], revision["description"]) == (
        1,
        "Unfinished",
        "",
    )
    assert story["description"] == "A first go"
    assert (revision["id"], revision["permalink"]) == (story["id"], story["permalink"])


def test_a_revision_answers_a_page_of_its_elements(client: Client, world: World) -> None:
    _save(world, "open", {"elements": ["https://img.example/one.jpg"]})
    answer = client.get(f"{OPEN}/revisions/1", _as(world, per_page=2, page=2))
    revision = content_of(answer)
    assert (revision["page"], revision["per_page"]) == (2, 2)
    assert [element["type"] for element in revision["elements"]] == ["text"]
    assert all(set(element) == ELEMENT for element in revision["elements"])


def test_a_revision_pages_its_elements_with_link_headers(client: Client, world: World) -> None:
    _save(world, "open", {"elements": ["https://img.example/one.jpg"]})
    first = client.get(f"{OPEN}/revisions/1", _as(world, per_page=2))
    last = client.get(f"{OPEN}/revisions/1", _as(world, per_page=2, page=2))
    assert 'rel="next"' in first.headers["link"]
    assert "page=2" in first.headers["link"]
    assert 'rel="prev"' in last.headers["link"]
    assert 'rel="next"' not in last.headers["link"]


def test_a_revision_with_one_page_of_elements_has_no_link(client: Client, world: World) -> None:
    _save(world, "open", {"elements": ["https://img.example/one.jpg"]})
    assert "link" not in client.get(f"{OPEN}/revisions/1", _as(world)).headers


@pytest.mark.parametrize("revision", ["2", "3", "999"])
def test_a_version_that_is_no_revision_is_404(client: Client, world: World, revision: str) -> None:
    answer = client.get(f"{DRAFT}/revisions/{revision}", _as(world))
    assert (answer.status, error_of(answer)["type"]) == (404, "not_found")
    restored = _restore(client, world, f"{DRAFT}/revisions/{revision}", version=2)
    assert (restored.status, error_of(restored)["type"]) == (404, "not_found")


@pytest.mark.parametrize("revision", ["0", "-1", "one", "1.5", "9" * 30])
def test_a_revision_that_is_no_version_number_is_400_naming_it(
    client: Client, world: World, revision: str
) -> None:
    for answer in (
        client.get(f"{DRAFT}/revisions/{revision}", _as(world)),
        _restore(client, world, f"{DRAFT}/revisions/{revision}", version=2),
    ):
        error = error_of(answer)
        assert (answer.status, error["type"], error["field"]) == (
            400,
            "invalid_parameter",
            "revision",
        )


# -- restoring -------------------------------------------------------------------------------


def test_a_restore_answers_the_story_detail_with_the_revisions_content(
    client: Client, world: World
) -> None:
    revision = content_of(client.get(f"{DRAFT}/revisions/1", _as(world)))
    restored = content_of(_restore(client, world, f"{DRAFT}/revisions/1", version=2))
    assert set(restored) == DETAIL
    assert (restored["version"], restored["slug"], restored["status"]) == (3, "draft", "working")
    for member in ("title", "description", "thumbnail", "elements"):
        assert restored[member] == revision[member], member
    assert content_of(client.get(DRAFT, _as(world)))["description"] == revision["description"]


def test_a_restore_takes_the_version_in_a_json_body(client: Client, world: World) -> None:
    answer = client.post_json(f"{DRAFT}/revisions/1/restore", _as(world, version=2))
    assert content_of(answer)["version"] == 3


def test_what_a_restore_replaced_is_listed_as_a_revision(client: Client, world: World) -> None:
    content_of(_restore(client, world, f"{DRAFT}/revisions/1", version=2))
    items = content_of(client.get(f"{DRAFT}/revisions", _as(world)))["revisions"]
    assert [(item["version"], item["by"]) for item in items] == [(2, "alice"), (1, "alice")]


def test_a_restore_with_a_stale_version_is_409_and_changes_nothing(
    client: Client, world: World
) -> None:
    before = content_of(client.get(DRAFT, _as(world)))
    answer = _restore(client, world, f"{DRAFT}/revisions/1", version=1)
    error = error_of(answer)
    assert (answer.status, error["type"], error["field"]) == (409, "version_conflict", "version")
    assert content_of(client.get(DRAFT, _as(world))) == before


@pytest.mark.parametrize("version", [None, "", "two", "0", "1.5"], ids=repr)
def test_a_restore_without_a_version_number_is_400_naming_version(
    client: Client, world: World, version: str | None
) -> None:
    params = {} if version is None else {"version": version}
    answer = _restore(client, world, f"{DRAFT}/revisions/1", **params)
    error = error_of(answer)
    assert (answer.status, error["type"], error["field"]) == (400, "invalid_parameter", "version")
    assert content_of(client.get(DRAFT, _as(world)))["version"] == 2


def test_a_restore_is_a_post(client: Client, world: World) -> None:
    answer = client.get(f"{DRAFT}/revisions/1/restore", _as(world, version=2))
    assert answer.status == 405
    assert content_of(client.get(DRAFT, _as(world)))["version"] == 2


@pytest.mark.parametrize("media", ["application/json", "application/x-www-form-urlencoded"])
def test_the_documented_version_of_a_restore_is_required_and_never_empty(media: str) -> None:
    document = openapi_document(ROUTES, TEST_SETTINGS)
    restore = document["paths"]["/v1/stories/{username}/{slug}/revisions/{revision}/restore"]
    schema = restore["post"]["requestBody"]["content"][media]["schema"]
    validator = jsonschema_rs.validator_for({**schema, "components": document["components"]})
    assert "version" in schema["required"]
    assert validator.is_valid({"version": "2"})
    assert not validator.is_valid({"version": ""})
    assert not validator.is_valid({})
