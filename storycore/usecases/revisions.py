"""A story's revisions (docs/api.md#revisions): listed, read, restored.

Storage takes a revision in the write of every save, publish, unpublish, slug change and
restore (``StoryRepository.replace``); this reads them, and restores one: a change of the
story like a save (its row in ``transitions``), stored by the one commit path. Only the author
and editors may see a story's revisions; for anyone else they do not exist
(``Context.revisable_story``).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence

from ..errors import InvalidParameter, NotFound
from ..model.derived import story_words, with_derived_members
from ..model.pagination import page_of
from ..model.records import element_of
from ..model.revisions import RevisionHead
from ..model.shapes import Page, RevisionItem, StoryDetail
from ..model.shown_pictures import answer_shown
from ..model.visibility import Viewer
from ..ports import KEPT_BY_REPLACE
from ..rules.numbers import whole_number
from ._commit import Commits, expect_version
from ._reading import StoryReading
from ._story_commands import detail
from .catalog import PageParam
from .context import Context
from .transitions import RESTORE

__all__ = ["Revisions"]

#: What a restore takes from a revision; the derived members follow.
_RESTORED = ("title", "description", "thumbnail")


class Revisions:
    """The three operations on a story's revisions."""

    def __init__(self, context: Context) -> None:
        self._ctx = context
        self._commits = Commits(context)

    def list(
        self,
        username: str,
        slug: str,
        *,
        viewer: Viewer,
        page: PageParam = None,
        per_page: PageParam = None,
        total: bool = False,
    ) -> Page[RevisionItem]:
        """The story's revisions, newest first."""
        request = self._ctx.page(page, per_page)
        _, story = self._ctx.revisable_story(viewer, username, slug)
        revisions = self._ctx.store.revisions
        heads = revisions.heads(story.id, request.offset, request.probe_limit)
        found = revisions.count(story.id) if total else None
        return page_of(request, heads, self._items, total=found)

    def read(
        self,
        username: str,
        slug: str,
        revision: int | str,
        *,
        viewer: Viewer,
        page: PageParam = None,
        per_page: PageParam = None,
    ) -> StoryDetail:
        """The story as it was at version ``revision``, as a story detail with one page of the
        elements it had. Its counters are the story's; its permalink is where the story lives
        now."""
        return self.open(
            username, slug, revision, viewer=viewer, page=page, per_page=per_page
        ).detail

    def open(
        self,
        username: str,
        slug: str,
        revision: int | str,
        *,
        viewer: Viewer,
        page: PageParam = None,
        per_page: PageParam = None,
    ) -> StoryReading:
        """``read``, with whether more of the revision's elements follow the page (the
        answer's ``Link``, as a story read's: docs/api.md#pagination)."""
        wanted = whole_number(revision, "revision")
        request = self._ctx.page(page, per_page)
        author, story = self._ctx.revisable_story(viewer, username, slug)
        found = self._ctx.store.revisions.get(story.id, wanted)
        if found is None:
            raise NotFound(f"{author.username}/{slug} has no revision {wanted}")
        kept = {name: getattr(story, name) for name in KEPT_BY_REPLACE}
        end = request.offset + request.per_page
        record = found.record.model_copy(update=kept)
        elements = [element_of(document) for document in found.elements[request.offset : end]]
        detail = self._ctx.presenter.detail(
            record,
            author,
            page=request.page,
            per_page=request.per_page,
            elements=elements,
            lives_at=story.slug,
            kept=self._ctx.kept_pictures(answer_shown(record, author, elements)),
        )
        return StoryReading(detail, found.version, end < len(found.elements))

    def restore(
        self,
        username: str,
        slug: str,
        revision: int | str,
        *,
        viewer: Viewer,
        version: int | str | None,
    ) -> StoryDetail:
        """Give the story the title, description, thumbnail and elements of its revision at
        ``revision``; its slug, status and schedule stay, and a published story becomes
        ``modified``. ``version`` is the story's current one (required: a restore never starts
        again from a newer story). Who may not change the story finds no revision
        (``NotFound``).
        """
        if version is None:
            raise InvalidParameter("version is required", field="version")
        version = whole_number(version, "version", text=False)
        wanted = whole_number(revision, "revision")
        author, current = self._ctx.revisable_story(viewer, username, slug)
        expect_version(current, version)
        found = self._ctx.store.revisions.get(current.id, wanted)
        if found is None:
            raise NotFound(f"{author.username}/{slug} has no revision {wanted}")
        elements = [element_of(document) for document in found.elements]
        at = self._ctx.now()
        content = {name: getattr(found.record, name) for name in _RESTORED}
        changes = {**content, **(RESTORE.changes(current, at) or {}), "updated": at}
        changed = with_derived_members(current.model_copy(update=changes), elements)
        stored = self._commits.commit(
            RESTORE,
            current,
            changed,
            author=author,
            by=viewer,
            elements=elements,
            words=story_words(changed, elements),
        )
        return detail(self._ctx, stored, author, self._ctx.page(None, None), elements)

    def _items(self, heads: Sequence[RevisionHead]) -> builtins.list[RevisionItem]:
        users = self._ctx.store.users.get_many({head.by for head in heads})
        return [
            self._ctx.presenter.revision_item(head, u.username if (u := users.get(head.by)) else "")
            for head in heads
        ]
