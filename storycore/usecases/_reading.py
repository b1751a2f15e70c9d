"""Reading one story (docs/api.md#stories): its detail with one page of its elements."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..model.kept import NOTHING_KEPT, KeptPictures
from ..model.records import element_of
from ..model.shapes import StoryDetail
from ..model.shown_pictures import answer_shown
from ..model.visibility import ANONYMOUS, Viewer, counts_as_view
from ._story_commands import StoryCommands, detail

__all__ = ["Reading", "StoryReading"]


@dataclass(frozen=True, slots=True)
class StoryReading:
    """A story read: its detail, its version (for ``ETag``) and whether more elements follow.

    Read ``as_documents``, the detail's ``elements`` are empty and the page's elements are in
    ``element_documents`` as JSON (what an answer that is serialized anyway needs). ``kept``
    holds the kept copies of the pictures it shows.
    """

    detail: StoryDetail
    version: int
    has_next: bool
    element_documents: tuple[str, ...] = ()
    kept: KeptPictures = NOTHING_KEPT

    @property
    def etag(self) -> str:
        """The entity tag of this answer (docs/api.md#caching-and-compression): it
        changes with the story's
        version, its author's profile, the element page and the kept copies of its pictures,
        which decide every byte of the detail, and not with the counters, which the detail
        does not show.
        """
        author = self.detail.author
        shown = "\x1f".join(
            (author.username, author.name, author.bio, author.location, author.website,
             author.avatar, str(self.detail.page), str(self.detail.per_page),
             *(copies[0].name for _, copies in self.kept.found))
        )  # fmt: skip
        digest = hashlib.blake2b(shown.encode("utf-8", "surrogatepass"), digest_size=8)
        return f'"{self.detail.id}-{self.version}-{digest.hexdigest()}"'


class Reading(StoryCommands):
    """Reading a story: ``open`` and ``read``."""

    def open(
        self,
        username: str,
        slug: str,
        *,
        viewer: Viewer = ANONYMOUS,
        page: int | str | None = None,
        per_page: int | str | None = None,
        count_view: bool = True,
        as_documents: bool = False,
    ) -> StoryReading:
        """Read a story with one page of its elements. A read of a published story by anyone
        but its author counts as a view. A retired slug raises ``StoryMoved``.
        """
        request = self._ctx.page(page, per_page)
        read = self._ctx.store.read_story(username, slug, request.offset, request.probe_limit)
        author = self._ctx.found_user(username, read.author)
        story = self._ctx.found_story(viewer, author, slug, read.story, follow_alias=True)
        documents = read.documents
        elements = [] if as_documents else [element_of(document) for document in documents]
        documents = documents if as_documents else []
        if count_view and counts_as_view(viewer, story):
            self._ctx.views.add(story.id)
        shown = documents[: request.per_page]
        pictures = self._ctx.pictures.of(story, request.offset, shown)
        kept = self._ctx.kept_pictures(
            [
                *answer_shown(story, author, elements[: request.per_page]),
                *(pair for found in pictures for pair in found),
            ]
        )
        if kept:
            element_document = self._ctx.presenter.element_document
            shown = [element_document(*pair, kept) for pair in zip(shown, pictures, strict=True)]
        return StoryReading(
            detail(self._ctx, story, author, request, elements, kept),
            story.version,
            len(documents) + len(elements) > request.per_page,
            tuple(shown),
            kept,
        )

    def read(
        self,
        username: str,
        slug: str,
        *,
        viewer: Viewer = ANONYMOUS,
        page: int | str | None = None,
        per_page: int | str | None = None,
    ) -> StoryDetail:
        """The story detail; see ``open``."""
        return self.open(username, slug, viewer=viewer, page=page, per_page=per_page).detail
