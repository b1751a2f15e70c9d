"""What the editor reads of a story (docs/editor.md#the-editor): the whole story as its author
or an editor changes it (the record, with every member a save takes, and every element), the
story as it was at the version an editor page holds, and an address made an element as a write
would make it, without saving anything."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.elements import normalize_elements
from ..model.records import Element, StoryRecord, UserRecord, element_of
from ..model.visibility import Viewer
from ._story_commands import StoryCommands

__all__ = ["EditedStory", "Editing"]


@dataclass(frozen=True, slots=True)
class EditedStory:
    """A story as its editor shows it: its author, its record (at ``story.version``) and
    every one of its elements, in order."""

    author: UserRecord
    story: StoryRecord
    elements: list[Element]


class Editing(StoryCommands):
    """``edited``, ``held`` and ``preview_element``."""

    def edited(self, username: str, slug: str, *, viewer: Viewer) -> EditedStory:
        """The story at ``username/slug`` with all its elements, for its author and editors:
        anonymous is ``Unauthorized``, a story ``viewer`` cannot see ``NotFound``, one they see
        but may not change ``Forbidden`` (as a save)."""
        author, story = self._ctx.editable_story(viewer, username, slug)
        elements = self._elements_of(story.id, 0, self._ctx.settings.limits.elements)
        return EditedStory(author, story, elements)

    def held(self, username: str, slug: str, version: int, *, viewer: Viewer) -> EditedStory:
        """The story as it was at ``version`` (the one an editor page was made from), from
        its revisions; the story as it is when ``version`` is its current one or no revision
        of it is kept (then it is the current version's record)."""
        edited = self.edited(username, slug, viewer=viewer)
        if version == edited.story.version:
            return edited
        found = self._ctx.store.revisions.get(edited.story.id, version)
        if found is None:
            return edited
        elements = [element_of(document) for document in found.elements]
        return EditedStory(edited.author, found.record, elements)

    def preview_element(self, address: str, *, viewer: Viewer) -> Element:
        """The element a write would add for ``address`` (a post, a picture, a video, a
        page), resolved as a create resolves it (docs/resolver.md), and stored nowhere. An
        address that breaks the address rule is ``InvalidParameter`` with the field
        ``address``; anonymous callers are ``Unauthorized``."""
        self._ctx.require_user(viewer)
        [element] = normalize_elements(
            [address.strip()],
            path="address",
            limits=self._ctx.settings.limits,
            resolver=self._ctx.resolver,
            previous=[],
            now=self._ctx.now(),
            fetch=True,
        )
        return element
