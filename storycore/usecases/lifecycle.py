"""The story state machine (interface section 3, decisions sections 4 and 6).

create -> working | published; save keeps the status (a published story becomes ``modified``);
publish -> published (``date.published`` is the first publication); unpublish -> working;
delete; slug change (the old slug becomes an alias); feature and unfeature. ``version`` starts
at 1 and grows by one on every save, publish, unpublish and slug change.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import DuplicateKey, Forbidden, SlugTaken, VersionConflict
from ..model.derived import story_words, with_derived_members
from ..model.drafts import StoryDraft, parse_story
from ..model.elements import normalize_elements
from ..model.pagination import PageRequest
from ..model.records import CreatedWith, Element, Status, StoryRecord, UserRecord, element_of
from ..model.shapes import SlugChanged, StoryCreated, StoryDeleted, StoryDetail, StorySummary
from ..model.story_records import story_record
from ..model.visibility import ANONYMOUS, Viewer, can_act_for, can_feature, counts_as_view
from ..rules.ids import new_id
from ..rules.numbers import whole_number
from ..rules.slugs import derive_slug, slug_candidates, validate_slug
from ._context import Context
from .wording import worded, wording

__all__ = ["Stories", "StoryReading"]

StoryInput = Mapping[str, Any] | str
_RETRIES = 8
_SLUG_BATCH = 64
# Every lost race is won by another create, so this many creates of one title at once all get
# a slug: each round, one of them stores the slug all of them tried.
_DERIVED_SLUG_ATTEMPTS = 64


@dataclass(frozen=True, slots=True)
class StoryReading:
    """A story read: its detail, its version (for ``ETag``) and whether more elements follow.

    Read ``as_documents``, the detail's ``elements`` are empty and the page's elements are in
    ``element_documents`` as JSON (what an answer that is serialized anyway needs).
    """

    detail: StoryDetail
    version: int
    has_next: bool
    element_documents: tuple[str, ...] = ()

    @property
    def etag(self) -> str:
        """The entity tag of this answer (decisions §13, §20): it changes with the story's
        version, its author's profile and the element page, which decide every byte of the
        detail, and not with the counters, which the detail does not show.
        """
        author = self.detail.author
        shown = "\x1f".join(
            (author.username, author.name, author.bio, author.location, author.website,
             author.avatar, str(self.detail.page), str(self.detail.per_page))
        )  # fmt: skip
        digest = hashlib.blake2b(shown.encode("utf-8", "surrogatepass"), digest_size=8)
        return f'"{self.detail.id}-{self.version}-{digest.hexdigest()}"'


class Stories:
    """Creating, changing and reading one story."""

    def __init__(self, context: Context) -> None:
        self._ctx = context
        self._stories = context.store.stories

    # -- reading -------------------------------------------------------------------------

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
        request = self._page(page, per_page)
        read = self._ctx.store.read_story(username, slug, request.offset, request.probe_limit)
        author = self._ctx.found_user(username, read.author)
        story = self._ctx.found_story(viewer, author, slug, read.story, follow_alias=True)
        documents = read.documents
        elements = [] if as_documents else [element_of(document) for document in documents]
        documents = documents if as_documents else []
        if count_view and counts_as_view(viewer, story):
            self._ctx.views.add(story.id)
        return StoryReading(
            self._detail(story, author, request, elements),
            story.version,
            len(documents) + len(elements) > request.per_page,
            tuple(documents[: request.per_page]),
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

    # -- writing -------------------------------------------------------------------------

    def create(
        self, username: str, story: StoryInput, *, viewer: Viewer, publish: bool = False
    ) -> StoryCreated:
        """Create a story under ``username``: working, or published when ``publish``.

        Without a slug, one is derived from the title and made unique with ``-2``, ``-3``, ...
        """
        self._ctx.require_user(viewer)
        author = self._ctx.user_named(username)
        if not can_act_for(viewer, author.id):
            raise Forbidden(f"only {author.username} or an editor may create stories here")
        draft = parse_story(story, self._ctx.settings.limits)
        created = self._ctx.now()
        elements = self._elements(draft, previous=[], at=created) or []
        record = new_story_record(
            author.id,
            draft,
            elements,
            publish=publish,
            at=created,
            created_with=_created_with(viewer),
        )
        if draft.slug is not None:
            self._add(record, elements)
        else:
            record = self._add_with_derived_slug(record, elements)
        return self._ctx.presenter.created(record)

    def save(
        self,
        username: str,
        slug: str,
        story: StoryInput,
        *,
        viewer: Viewer,
        version: int | None = None,
    ) -> StoryDetail:
        """Replace the members sent in ``story``; the status stays. A published story becomes
        ``modified`` until it is published again.
        """
        return self._change(username, slug, viewer, version, story, _saved)

    def publish(
        self,
        username: str,
        slug: str,
        story: StoryInput | None = None,
        *,
        viewer: Viewer,
        version: int | None = None,
    ) -> StoryDetail:
        """Replace the members sent in ``story`` (if any) and publish the story."""
        return self._change(username, slug, viewer, version, story, _published)

    def unpublish(self, username: str, slug: str, *, viewer: Viewer) -> StoryDetail:
        """Take a published story back to working; a working story is left as it is."""
        return self._change(username, slug, viewer, None, None, _unpublished)

    def change_slug(
        self, username: str, slug: str, new_slug: str, *, viewer: Viewer
    ) -> SlugChanged:
        """Move the story to ``new_slug``; the old slug becomes an alias that redirects."""
        author, story = self._ctx.editable_story(viewer, username, slug)
        validate_slug(new_slug, "slug", self._ctx.settings.limits.slug)
        if story.slug != new_slug:
            story = self._replace(
                story,
                story.model_copy(update={"slug": new_slug, "updated": self._ctx.now()}),
                None,
                slug_field="slug",
            )
        embeds = self._stories.embeds([story.id]).get(story.id, [])
        return self._ctx.presenter.slug_changed(story, author, embeds)

    def delete(self, username: str, slug: str, *, viewer: Viewer) -> StoryDeleted:
        """Delete the story with its elements and aliases."""
        _, story = self._ctx.editable_story(viewer, username, slug)
        self._stories.remove(story.id)
        return StoryDeleted(sid=story.id, deleted=True)

    def feature(self, username: str, slug: str, *, viewer: Viewer) -> StorySummary:
        """Feature the story (newest feature first on the featured list)."""
        return self._set_featured(username, slug, viewer, featured=True)

    def unfeature(self, username: str, slug: str, *, viewer: Viewer) -> StorySummary:
        """Take the story off the featured list."""
        return self._set_featured(username, slug, viewer, featured=False)

    # -- the machinery ---------------------------------------------------------------------

    def _set_featured(
        self, username: str, slug: str, viewer: Viewer, *, featured: bool
    ) -> StorySummary:
        self._ctx.require_user(viewer)
        author, story = self._ctx.visible_story(viewer, username, slug)
        if not can_feature(viewer):
            raise Forbidden("featuring stories needs canFeatureStories")
        if featured != (story.featured_at is not None):
            stamp = self._ctx.now() if featured else None
            self._stories.set_featured(story.id, stamp)
            story = story.model_copy(update={"featured_at": stamp})
        return self._ctx.presenter.summary(story, author)

    def _change(
        self,
        username: str,
        slug: str,
        viewer: Viewer,
        version: int | None,
        story: StoryInput | None,
        transition: Callable[[StoryRecord, str], dict[str, Any] | None],
    ) -> StoryDetail:
        """Apply ``draft`` and a status ``transition`` with optimistic concurrency.

        With ``version``, a story that is at another version is a ``VersionConflict``. Without
        it, a concurrent write makes the change start again from the newer story.
        """
        if version is not None:
            version = whole_number(version, "version", text=False)
        draft: StoryDraft | None = None
        for attempt in range(_RETRIES):
            author, current = self._ctx.editable_story(viewer, username, slug)
            if draft is None:
                draft = (
                    StoryDraft() if story is None else parse_story(story, self._ctx.settings.limits)
                )
            if version is not None and version != current.version:
                raise VersionConflict(
                    f"the story is at version {current.version}, not {version}", field="version"
                )
            at = self._ctx.now()
            request = self._page(None, None)
            status_changes = transition(current, at)
            if _has_members(draft):
                previous = self._elements_of(current.id, 0, self._ctx.settings.limits.elements)
                elements = self._elements(draft, previous=previous, at=at)
                shown = elements if elements is not None else previous
                changed = _apply(current, draft).model_copy(update=status_changes or {})
                changed = with_derived_members(changed, shown)
                words: list[str] | None = story_words(changed, shown)
            else:  # a status change alone: the derived members stay, one page of elements is shown
                elements = words = None
                shown = self._elements_of(current.id, request.offset, request.per_page)
                if status_changes is None:
                    return self._detail(current, author, request, shown)
                changed = current.model_copy(update=status_changes)
            changed.updated = at
            try:
                stored = self._replace(
                    current, changed, elements, words=words, slug_field="story.slug"
                )
            except VersionConflict:
                if version is not None or attempt == _RETRIES - 1:
                    raise
                continue
            return self._detail(stored, author, request, shown)
        raise AssertionError("unreachable")  # pragma: no cover

    def _replace(
        self,
        current: StoryRecord,
        changed: StoryRecord,
        elements: Sequence[Element] | None,
        *,
        words: Sequence[str] | None = None,
        slug_field: str,
    ) -> StoryRecord:
        changed = changed.model_copy(update={"version": current.version + 1})
        with wording(name=changed.slug, field=slug_field):
            self._stories.replace(
                changed, expected_version=current.version, elements=elements, words=words
            )
        return changed

    def _elements_of(self, story_id: str, offset: int, limit: int) -> list[Element]:
        return [element_of(d) for d in self._stories.element_documents(story_id, offset, limit)]

    def _add(self, record: StoryRecord, elements: Sequence[Element]) -> None:
        with wording(name=record.slug, field="story.slug"):
            self._stories.add_many([(record, elements, story_words(record, elements))])

    def _add_with_derived_slug(
        self, record: StoryRecord, elements: Sequence[Element]
    ) -> StoryRecord:
        """Store ``record`` at the first free slug derived from its title; a concurrent create
        that takes the same slug first makes it try the next one.
        """
        limit = self._ctx.settings.limits.slug
        base = derive_slug(record.title, limit)
        words = story_words(record, elements)
        for _ in range(_DERIVED_SLUG_ATTEMPTS):
            candidate = record.model_copy(update={"slug": self._free_slug(record.author_id, base)})
            try:
                self._stories.add_many([(candidate, elements, words)])
            except DuplicateKey as exc:
                if exc.key == "story.slug":
                    continue  # a concurrent create took it first
                raise worded(exc) from exc
            return candidate
        raise SlugTaken(f"no free slug could be derived from {base!r}", field="story.slug")

    def _free_slug(self, author_id: str, base: str) -> str:
        """The first of ``base``, ``base-2``, ``base-3``, ... the author has no story at,
        asked of storage a batch at a time."""
        candidates = slug_candidates(base, self._ctx.settings.limits.slug)
        while batch := list(itertools.islice(candidates, _SLUG_BATCH)):
            taken = self._stories.taken_slugs(author_id, batch)
            free = next((slug for slug in batch if slug not in taken), None)
            if free is not None:
                return free
        raise AssertionError("unreachable: the candidates never end")  # pragma: no cover

    def _elements(
        self, draft: StoryDraft, *, previous: Sequence[Element], at: str
    ) -> list[Element] | None:
        if draft.elements is None:
            return None
        return normalize_elements(
            draft.elements,
            path="story.elements",
            limits=self._ctx.settings.limits,
            resolver=self._ctx.resolver,
            previous=previous,
            now=at,
            fetch=True,  # a write stores what its permalinks point to (decisions section 18)
        )

    def _detail(
        self,
        story: StoryRecord,
        author: UserRecord,
        request: PageRequest,
        elements: Sequence[Element],
    ) -> StoryDetail:
        return self._ctx.presenter.detail(
            story,
            author,
            page=request.page,
            per_page=request.per_page,
            elements=elements[: request.per_page],
        )

    def _page(self, page: int | str | None, per_page: int | str | None) -> PageRequest:
        limits = self._ctx.settings.limits
        return PageRequest.parse(
            page, per_page, default_per_page=limits.per_page_default, max_per_page=limits.per_page
        )


def new_story_record(
    author_id: str,
    draft: StoryDraft,
    elements: Sequence[Element],
    *,
    publish: bool,
    at: str,
    created_with: CreatedWith | None = None,
) -> StoryRecord:
    """The record of a story created from ``draft`` at ``at``: working, or published at ``at``
    (``story_records.story_record``, derived members included).

    Without a slug in the draft its slug is empty: the caller chooses a free one.
    """
    status: Status = "published" if publish else "working"
    return story_record(
        draft,
        elements,
        story_id=new_id(),
        author_id=author_id,
        status=status,
        created=at,
        published=at if publish else None,
        created_with=created_with,
    )


def _created_with(viewer: Viewer) -> CreatedWith:
    if viewer.app is None:
        return CreatedWith()
    return CreatedWith(href=viewer.app.href, appname=viewer.app.name, name=viewer.app.name)


def _has_members(draft: StoryDraft) -> bool:
    return draft != StoryDraft()


def _apply(story: StoryRecord, draft: StoryDraft) -> StoryRecord:
    """``story`` with the members ``draft`` sent."""
    changes = {**draft.record_members(), **dict.fromkeys(draft.clear)}
    return story.model_copy(update=changes)


def _saved(story: StoryRecord, at: str) -> dict[str, Any]:
    return {"modified": story.status == "published"}


def _published(story: StoryRecord, at: str) -> dict[str, Any]:
    return {"status": "published", "modified": False, "published": story.published or at}


def _unpublished(story: StoryRecord, at: str) -> dict[str, Any] | None:
    if story.status == "working":
        return None
    return {"status": "working", "modified": False}
