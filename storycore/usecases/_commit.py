"""The one path by which a story write is stored, with its events, version and revision.

Every command (create, save, publish, unpublish, a due publication, restore, slug change,
delete, feature, unfeature) decides the story it wants and hands it here with its row of the
table (``transitions``); the row says which write the store makes and what it reports, so the
events of every write are made in one place, from the stored records, and stored in the same
atomic write (docs/webhooks.md). ``retrying`` is how a write that names no version starts
again from the newer story when a concurrent write came first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from ..errors import VersionConflict
from ..model.events import Event
from ..model.records import Element, StoryRecord, UserRecord
from ..model.revisions import RevisionMark
from ..model.shown_pictures import story_pictures
from ..model.visibility import Viewer
from ._events import story_event
from .context import Context
from .transitions import Transition
from .wording import wording

__all__ = ["Commits", "expect_version"]

#: How many times a write that names no version starts again from the newer story.
RETRIES = 8
T = TypeVar("T")


def expect_version(story: StoryRecord, version: int | None) -> None:
    """``VersionConflict`` when a write named a ``version`` the story is not at
    (docs/api.md#versions); None names none."""
    if version is not None and version != story.version:
        raise VersionConflict(
            f"the story is at version {story.version}, not {version}", field="version"
        )


class Commits:
    """Stores the writes of one service's stories (``commit``)."""

    def __init__(self, context: Context) -> None:
        self._ctx = context
        self._stories = context.store.stories

    def commit(
        self,
        transition: Transition,
        before: StoryRecord | None,
        after: StoryRecord,
        *,
        author: UserRecord,
        by: Viewer | str,
        elements: Sequence[Element] | None = None,
        words: Sequence[str] | None = None,
        slug_field: str = "story.slug",
    ) -> StoryRecord:
        """Store ``transition`` of a story from ``before`` (None: a create) to ``after`` (for a
        delete, the story as it goes), made by ``by`` (a viewer with a user, or a user id), with
        the events it reports at ``after.updated`` (a delete's at now); the story as stored.

        The row decides the write: a create adds ``after`` with ``elements`` and ``words``; a
        delete removes the story; a row that keeps a revision replaces ``before`` by ``after``
        at the next version, checked against ``before``'s (``VersionConflict`` when another
        write came first, ``NotFound`` when the story is gone), keeping ``before`` as a
        revision replaced by ``by``; ``elements`` and ``words`` None keep the stored ones. Any
        other row sets the featured mark. A taken slug is ``SlugTaken`` naming ``slug_field``.
        """
        if before is None:
            new = (after, [] if elements is None else elements, [] if words is None else words)
            with wording(name=after.slug, field=slug_field):
                self._stories.add_many(
                    [new], events=self.events(transition, None, after, author, after.updated)
                )
        elif transition.to == "gone":
            events = self.events(transition, before, after, author, self._ctx.now())
            self._stories.remove(before.id, events=events)
        elif transition.keeps_revision:
            after = after.model_copy(update={"version": before.version + 1})
            by_id = by if isinstance(by, str) else self._ctx.require_user(by).id
            mark = RevisionMark(after.updated, by_id, self._ctx.settings.limits.revisions)
            with wording(name=after.slug, field=slug_field):
                self._stories.replace(
                    after,
                    expected_version=before.version,
                    elements=elements,
                    words=words,
                    revision=mark,
                    events=self.events(transition, before, after, author, after.updated),
                )
        else:
            self._stories.set_featured(before.id, after.featured_at)
            return after
        if transition.to != "gone" and (after.thumbnail or elements):
            self._ctx.want_pictures(lambda: story_pictures(after, elements or ()), after.id)
        return after

    def events(
        self,
        transition: Transition,
        before: StoryRecord | None,
        after: StoryRecord,
        author: UserRecord,
        at: str,
    ) -> list[Event]:
        """The events ``transition`` from ``before`` to ``after`` reports at ``at``, each of the
        story as stored (``after``)."""
        presenter = self._ctx.presenter
        return [
            story_event(presenter, kind, after, author, at)
            for kind in transition.reported(before, after)
        ]

    @staticmethod
    def retrying(attempt: Callable[[], T], *, retry: bool) -> T:
        """``attempt()``; with ``retry``, started again (``RETRIES`` times at most) while it
        raises ``VersionConflict``: a write that names no version begins again from the newer
        story each time another write came first."""
        for tries in range(1, RETRIES + 1):
            try:
                return attempt()
            except VersionConflict:
                if not retry or tries == RETRIES:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover
