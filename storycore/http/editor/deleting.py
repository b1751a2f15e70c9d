"""Deleting a story from its editor (docs/editor.md#publishing-the-address-and-deleting): a
page that names the story and asks, whose Delete button posts to the same path; the story is
then deleted with its elements, history and old addresses, and the desk says so."""

from __future__ import annotations

from ...model.shapes import StoryDetail
from ...presentation import editor
from ...rules.paths import DESK
from ..messages import HttpResponse
from ..pages import not_found_page
from .call import EditorCall
from .frames import desk_of
from .publishing import editable_story, with_story

__all__ = ["delete", "delete_page"]


def delete_page(call: EditorCall) -> HttpResponse:
    """The page asking whether to delete the story (the 404 for anyone who may not)."""
    story = editable_story(call)
    if story is None:
        return not_found_page(call.service, "story")
    return call.page(editor.delete_page(desk_of(call), story))


def delete(call: EditorCall) -> HttpResponse:
    """Deletes the story, and goes on to the desk."""

    def act(story: StoryDetail) -> tuple[str, dict[str, str]]:
        call.service.stories.delete(story.author.username, story.slug, viewer=call.viewer)
        return DESK, {"done": "deleted"}

    return with_story(call, act)
