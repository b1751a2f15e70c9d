"""Changing a story (docs/api.md#stories, docs/api.md#scheduled-publishing): its members and
status (save, publish, unpublish, and publishing the stories whose time has come), its slug,
and deleting it. Each is a row of ``transitions``; ``_change`` applies the members a write
sends and the row's changes, and commits them."""

from __future__ import annotations

from ..errors import NotFound, VersionConflict
from ..model.derived import story_words, with_derived_members
from ..model.drafts import StoryDraft, parse_story
from ..model.records import StoryRecord
from ..model.shapes import SlugChanged, StoryDeleted, StoryDetail
from ..model.shown_pictures import story_shown
from ..model.visibility import Viewer
from ..rules.numbers import whole_number
from ..rules.schedule import UNCHANGED, PublishAt, Unchanged
from ..rules.slugs import validate_slug
from ._commit import expect_version
from ._story_commands import StoryCommands, StoryInput, detail
from .transitions import CHANGE_SLUG, DELETE, PUBLISH, SAVE, UNPUBLISH, Transition

__all__ = ["Changing"]

#: The draft of a write that sends no member.
_NOTHING = StoryDraft()


class Changing(StoryCommands):
    """``save``, ``publish``, ``unpublish``, ``publish_due``, ``change_slug`` and ``delete``."""

    def save(
        self,
        username: str,
        slug: str,
        story: StoryInput,
        *,
        viewer: Viewer,
        version: int | None = None,
        publish_at: PublishAt = UNCHANGED,
    ) -> StoryDetail:
        """Replace the members sent in ``story``; the status stays. A published story becomes
        ``modified`` until it is published again. ``publish_at`` schedules a working story
        (None cancels its schedule; left out, the schedule stays).
        """
        self._ctx.require_user(viewer)  # who may not write learns nothing of the time sent
        schedule = self._schedule(publish_at)
        return self._change(SAVE, username, slug, viewer, version, story, schedule)

    def publish(
        self,
        username: str,
        slug: str,
        story: StoryInput | None = None,
        *,
        viewer: Viewer,
        version: int | None = None,
        publish_at: PublishAt = UNCHANGED,
    ) -> StoryDetail:
        """Replace the members sent in ``story`` (if any) and publish the story now, which
        cancels its schedule; with a time in ``publish_at``, schedule it instead (it stays
        working until then: a save).
        """
        self._ctx.require_user(viewer)
        schedule = self._schedule(publish_at)
        if isinstance(schedule, str):
            return self._change(SAVE, username, slug, viewer, version, story, schedule)
        return self._change(PUBLISH, username, slug, viewer, version, story)

    def unpublish(self, username: str, slug: str, *, viewer: Viewer) -> StoryDetail:
        """Take a published story back to working; a working story keeps its status, and its
        schedule, if any, is cancelled (docs/api.md#scheduled-publishing)."""
        return self._change(UNPUBLISH, username, slug, viewer, None, None)

    def publish_due(self, limit: int = 100) -> int:
        """Publish the stories whose ``publish_at`` has come, as ``publish`` would (a revision
        by their author, ``date.published`` now); how many this call published. A story that
        changed since it was read (another process published it, an editor saved it) is left:
        it is published once, by whoever wins its version, or read again next time.
        """
        published = 0
        for story in self._stories.due(self._ctx.now(), limit):
            at = self._ctx.now()
            changed = story.model_copy(update={**(PUBLISH.changes(story, at) or {}), "updated": at})
            author = self._ctx.store.users.get(story.author_id)
            if author is None:  # pragma: no cover - stories go with their author
                continue
            try:
                self._commits.commit(PUBLISH, story, changed, author=author, by=story.author_id)
            except (VersionConflict, NotFound):
                continue
            published += 1
        return published

    def change_slug(
        self, username: str, slug: str, new_slug: str, *, viewer: Viewer
    ) -> SlugChanged:
        """Move the story to ``new_slug``; the old slug becomes an alias that redirects."""
        author, story = self._ctx.editable_story(viewer, username, slug)
        validate_slug(new_slug, "slug", self._ctx.settings.limits.slug)
        if story.slug != new_slug:
            at = self._ctx.now()
            changes = {**(CHANGE_SLUG.changes(story, at) or {}), "slug": new_slug, "updated": at}
            story = self._commits.commit(
                CHANGE_SLUG,
                story,
                story.model_copy(update=changes),
                author=author,
                by=viewer,
                slug_field="slug",
            )
        embeds = self._stories.embeds([story.id]).get(story.id, [])
        kept = self._ctx.kept_pictures(story_shown(story))
        return self._ctx.presenter.slug_changed(story, author, embeds, kept)

    def delete(self, username: str, slug: str, *, viewer: Viewer) -> StoryDeleted:
        """Delete the story with its elements, aliases and revisions."""
        author, story = self._ctx.editable_story(viewer, username, slug)
        self._commits.commit(DELETE, story, story, author=author, by=viewer)
        return StoryDeleted(sid=story.id, deleted=True)

    def _change(
        self,
        transition: Transition,
        username: str,
        slug: str,
        viewer: Viewer,
        version: int | None,
        story: StoryInput | None,
        schedule: str | Unchanged | None = UNCHANGED,
    ) -> StoryDetail:
        """Apply the members sent in ``story``, ``transition`` and a ``schedule`` (a checked
        time, None to cancel) with optimistic concurrency.

        With ``version``, a story that is at another version is a ``VersionConflict``. Without
        it, a concurrent write makes the change start again from the newer story.
        """
        if version is not None:
            version = whole_number(version, "version", text=False)
        draft: StoryDraft | None = None  # read once, after the first lookup says who may write

        def attempt() -> StoryDetail:
            nonlocal draft
            author, current = self._ctx.editable_story(viewer, username, slug)
            if draft is None:
                draft = _NOTHING if story is None else parse_story(story, self._ctx.settings.limits)
            expect_version(current, version)
            at = self._ctx.now()
            request = self._ctx.page(None, None)
            changes = transition.changes(current, at, schedule)
            if draft != _NOTHING:
                previous = self._elements_of(current.id, 0, self._ctx.settings.limits.elements)
                elements = self._elements(draft, previous=previous, at=at)
                shown = elements if elements is not None else previous
                changed = _apply(current, draft).model_copy(update=changes or {})
                changed = with_derived_members(changed, shown)
                words: list[str] | None = story_words(changed, shown)
            else:  # a status change alone: the derived members stay, one page of elements is shown
                elements = words = None
                shown = self._elements_of(current.id, request.offset, request.per_page)
                if changes is None:
                    return detail(self._ctx, current, author, request, shown)
                changed = current.model_copy(update=changes)
            changed.updated = at
            stored = self._commits.commit(
                transition,
                current,
                changed,
                author=author,
                by=viewer,
                elements=elements,
                words=words,
            )
            return detail(self._ctx, stored, author, request, shown)

        return self._commits.retrying(attempt, retry=version is None)


def _apply(story: StoryRecord, draft: StoryDraft) -> StoryRecord:
    """``story`` with the members ``draft`` sent."""
    changes = {**draft.record_members(), **dict.fromkeys(draft.clear)}
    return story.model_copy(update=changes)
