"""What every group of a story's commands shares (``lifecycle.Stories`` is made of the groups):
the context, the one commit path, and the element and answer helpers of a write."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..model.drafts import StoryDraft
from ..model.elements import normalize_elements
from ..model.kept import KeptPictures
from ..model.pagination import PageRequest
from ..model.records import Element, StoryRecord, UserRecord, element_of
from ..model.shapes import StoryDetail
from ..model.shown_pictures import answer_shown
from ..rules.schedule import PublishAt, Unchanged, publish_time
from ._commit import Commits
from .context import Context

__all__ = ["StoryCommands", "StoryInput", "detail"]

#: A ``story`` parameter as a write takes it: an object, or a string of serialized JSON.
StoryInput = Mapping[str, Any] | str


def detail(
    context: Context,
    story: StoryRecord,
    author: UserRecord,
    request: PageRequest,
    elements: Sequence[Element],
    kept: KeptPictures | None = None,
) -> StoryDetail:
    """The detail of ``story`` with the page ``request`` asks for of ``elements`` (the page's
    own, or all from the page's start): what a read and every change answer. ``kept`` holds
    the kept copies of its pictures, looked up here when not given (one read)."""
    shown = elements[: request.per_page]
    if kept is None:
        kept = context.kept_pictures(answer_shown(story, author, shown))
    return context.presenter.detail(
        story, author, page=request.page, per_page=request.per_page, elements=shown, kept=kept
    )


class StoryCommands:
    """The base of each group of commands on a story."""

    def __init__(self, context: Context) -> None:
        self._ctx = context
        self._stories = context.store.stories
        self._commits = Commits(context)

    def _elements(
        self, draft: StoryDraft, *, previous: Sequence[Element], at: str
    ) -> list[Element] | None:
        """The elements ``draft`` sends, normalized as a write stores them (None: not sent)."""
        if draft.elements is None:
            return None
        return normalize_elements(
            draft.elements,
            path="story.elements",
            limits=self._ctx.settings.limits,
            resolver=self._ctx.resolver,
            previous=previous,
            now=at,
            fetch=True,  # a write stores what its permalinks point to (docs/resolver.md)
        )

    def _elements_of(self, story_id: str, offset: int, limit: int) -> list[Element]:
        return [element_of(d) for d in self._stories.element_documents(story_id, offset, limit)]

    def _schedule(self, publish_at: PublishAt) -> str | Unchanged | None:
        """``publish_at`` checked: a stored time, None (cancel) or ``UNCHANGED``."""
        if publish_at is None or isinstance(publish_at, Unchanged):
            return publish_at
        return publish_time(publish_at, self._ctx.clock.now())
