"""Featuring a story (docs/api.md#stories): putting it on, or taking it off, the featured
list, newest feature first. Featuring changes neither the version nor ``date.modified``, keeps
no revision and reports nothing (its rows in ``transitions``)."""

from __future__ import annotations

from ..errors import Forbidden
from ..model.shapes import StorySummary
from ..model.shown_pictures import user_shown
from ..model.visibility import Viewer, can_feature
from ._story_commands import StoryCommands
from .transitions import FEATURE, UNFEATURE

__all__ = ["Featuring"]


class Featuring(StoryCommands):
    """``feature`` and ``unfeature``."""

    def feature(self, username: str, slug: str, *, viewer: Viewer) -> StorySummary:
        """Feature the story (newest feature first on the featured list); a featured story
        keeps its first feature time."""
        return self._set_featured(username, slug, viewer, featured=True)

    def unfeature(self, username: str, slug: str, *, viewer: Viewer) -> StorySummary:
        """Take the story off the featured list."""
        return self._set_featured(username, slug, viewer, featured=False)

    def _set_featured(
        self, username: str, slug: str, viewer: Viewer, *, featured: bool
    ) -> StorySummary:
        self._ctx.require_user(viewer)
        author, story = self._ctx.visible_story(viewer, username, slug)
        if not can_feature(viewer):
            raise Forbidden("featuring stories needs canFeatureStories")
        if featured != (story.featured_at is not None):
            stamp = self._ctx.now() if featured else None
            story = self._commits.commit(
                FEATURE if featured else UNFEATURE,
                story,
                story.model_copy(update={"featured_at": stamp}),
                author=author,
                by=viewer,
            )
        kept = self._ctx.kept_pictures(user_shown(author))
        return self._ctx.presenter.summary(story, author, kept)
