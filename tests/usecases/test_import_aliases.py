"""Imports and retired slugs (docs/decisions.md#export-and-import): a story that left a slug holds
it no more,
so an imported story may take it, as a new story written through the service may."""

from __future__ import annotations

import orjson

from storycore import Service, Viewer
from storycore.contrib.transfer import export_lines
from tests._exports import Lines, line_of


def _story_at(lines: Lines, slug: str) -> bytes:
    """A new story of the first story line's author, at ``slug`` (new: without revisions)."""
    item = orjson.loads(lines[line_of(lines, "story", lambda record: True) - 1])
    item["record"].update(id="imported", slug=slug, title="Another tale")
    item.pop("revisions", None)
    return orjson.dumps(item)


def test_an_imported_story_may_take_a_retired_slug_and_the_alias_stops(
    service: Service, alice: Viewer
) -> None:
    service.stories.create("alice", {"title": "Tale", "slug": "tale"}, viewer=alice)
    service.stories.change_slug("alice", "tale", "moved", viewer=alice)
    line = _story_at(list(export_lines(service.store)), "tale")
    assert service.imports.load([line]) == 1
    assert service.stories.read("alice", "tale", viewer=alice).title == "Another tale"
    assert service.stories.read("alice", "moved", viewer=alice).title == "Tale"
