"""The story state machine (docs/api.md#who-may-do-what, docs/api.md#slugs, docs/api.md#stories).

create -> working | published; save keeps the status (a published story becomes ``modified``);
publish -> published (``date.published`` is the first publication); unpublish -> working;
delete; slug change (the old slug becomes an alias); restore of a revision; feature and
unfeature. ``version`` starts at 1 and grows by one on every save, publish, unpublish, slug
change and restore, each of which keeps the story as it was as a revision (docs/api.md#revisions). A
working story may be scheduled to publish (``publish_at``, docs/api.md#scheduled-publishing):
create, save
and publish set or cancel the time, and ``publish_due`` publishes it, as ``publish`` would.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import DuplicateKey, Forbidden, InvalidParameter, NotFound, SlugTaken, VersionConflict
from ..model.derived import story_words, with_derived_members
from ..model.drafts import StoryDraft, parse_story
from ..model.elements import normalize_elements
from ..model.events import Event, EventType
from ..model.pagination import PageRequest
from ..model.records import CreatedWith, Element, Status, StoryRecord, UserRecord, element_of
from ..model.revisions import RevisionMark
from ..model.shapes import SlugChanged, StoryCreated, StoryDeleted, StoryDetail, StorySummary
from ..model.story_records import story_record
from ..model.visibility import ANONYMOUS, Viewer, can_act_for, can_feature, counts_as_view
from ..rules.ids import new_id
from ..rules.numbers import whole_number
from ..rules.schedule import UNCHANGED, PublishAt, Unchanged, publish_time
from ..rules.slugs import derive_slug, slug_candidates, validate_slug
from ._context import Context
from ._events import deleted_event, story_event
from .wording import worded, wording

__all__ = ["Stories", "StoryReading"]

StoryInput = Mapping[str, Any] | str
_RETRIES = 8
#: What a restore takes from a revision (docs/api.md#revisions); the derived members follow.
_RESTORED = ("title", "description", "thumbnail")
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
        """The entity tag of this answer (docs/api.md#caching-and-compression): it
        changes with the story's
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
        request = self._ctx.page(page, per_page)
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
        self,
        username: str,
        story: StoryInput,
        *,
        viewer: Viewer,
        publish: bool = False,
        publish_at: PublishAt = UNCHANGED,
    ) -> StoryCreated:
        """Create a story under ``username``: working, or published when ``publish``; with
        ``publish_at``, working and scheduled to publish then (``publish`` or not).

        Without a slug, one is derived from the title and made unique with ``-2``, ``-3``, ...
        """
        self._ctx.require_user(viewer)
        author = self._ctx.user_named(username)
        if not can_act_for(viewer, author.id):
            raise Forbidden(f"only {author.username} or an editor may create stories here")
        draft = parse_story(story, self._ctx.settings.limits)
        schedule = self._schedule(publish_at)
        scheduled = schedule if isinstance(schedule, str) else None
        created = self._ctx.now()
        elements = self._elements(draft, previous=[], at=created) or []
        record = new_story_record(
            author.id,
            draft,
            elements,
            publish=publish and scheduled is None,
            at=created,
            created_with=_created_with(viewer),
        )
        record.publish_at = scheduled
        if draft.slug is not None:
            self._add(record, author, elements)
        else:
            record = self._add_with_derived_slug(record, author, elements)
        return self._ctx.presenter.created(record)

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
        return self._change(username, slug, viewer, version, story, _saved, schedule)

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
        working until then).
        """
        self._ctx.require_user(viewer)
        schedule = self._schedule(publish_at)
        if isinstance(schedule, str):
            return self._change(username, slug, viewer, version, story, _saved, schedule)
        return self._change(username, slug, viewer, version, story, _published)

    def unpublish(self, username: str, slug: str, *, viewer: Viewer) -> StoryDetail:
        """Take a published story back to working; a working story is left as it is."""
        return self._change(username, slug, viewer, None, None, _unpublished)

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
        ``revision``; its slug, status and schedule stay. ``version`` is the story's current
        one (required: a restore never starts again from a newer story). Who may not change
        the story finds no revision (``NotFound``), as ``Revisions`` says.
        """
        if version is None:
            raise InvalidParameter("version is required", field="version")
        version = whole_number(version, "version", text=False)
        wanted = whole_number(revision, "revision")
        author, current = self._ctx.revisable_story(viewer, username, slug)
        if version != current.version:
            raise VersionConflict(
                f"the story is at version {current.version}, not {version}", field="version"
            )
        found = self._ctx.store.revisions.get(current.id, wanted)
        if found is None:
            raise NotFound(f"{author.username}/{slug} has no revision {wanted}")
        elements = [element_of(document) for document in found.elements]
        content = {name: getattr(found.record, name) for name in _RESTORED}
        changed = with_derived_members(current.model_copy(update=content), elements)
        changed.modified = changed.status == "published"
        changed.updated = self._ctx.now()
        stored = self._replace(
            current,
            changed,
            elements,
            words=story_words(changed, elements),
            slug_field="story.slug",
            by=viewer,
            author=author,
            reports=("story.restored",),
        )
        return self._detail(stored, author, self._ctx.page(None, None), elements)

    def publish_due(self, limit: int = 100) -> int:
        """Publish the stories whose ``publish_at`` has come, as ``publish`` would (a revision
        by their author, ``date.published`` now); how many this call published. A story that
        changed since it was read (another process published it, an editor saved it) is left:
        it is published once, by whoever wins its version, or read again next time.
        """
        published = 0
        for story in self._stories.due(self._ctx.now(), limit):
            at = self._ctx.now()
            changed = story.model_copy(update={**_published(story, at), "updated": at})
            author = self._ctx.store.users.get(story.author_id)
            if author is None:  # pragma: no cover - stories go with their author
                continue
            try:
                self._replace(
                    story,
                    changed,
                    None,
                    slug_field="story.slug",
                    by=story.author_id,
                    author=author,
                    reports=("story.published",),
                )
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
            story = self._replace(
                story,
                story.model_copy(update={"slug": new_slug, "updated": self._ctx.now()}),
                None,
                slug_field="slug",
                by=viewer,
                author=author,
                reports=("story.slug_changed",),
            )
        embeds = self._stories.embeds([story.id]).get(story.id, [])
        return self._ctx.presenter.slug_changed(story, author, embeds)

    def delete(self, username: str, slug: str, *, viewer: Viewer) -> StoryDeleted:
        """Delete the story with its elements and aliases."""
        author, story = self._ctx.editable_story(viewer, username, slug)
        self._stories.remove(story.id, events=[deleted_event(story, author, self._ctx.now())])
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
        schedule: str | Unchanged | None = UNCHANGED,
    ) -> StoryDetail:
        """Apply ``draft``, a status ``transition`` and a ``schedule`` (a checked time, None
        to cancel) with optimistic concurrency.

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
            request = self._ctx.page(None, None)
            status_changes = transition(current, at)
            if not isinstance(schedule, Unchanged):
                status_changes = {**(status_changes or {}), **_scheduled(current, schedule)}
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
            reports: list[EventType] = [_REPORTED[transition]]
            if changed.publish_at != current.publish_at and changed.status != "published":
                reports.append("story.scheduled")
            try:
                stored = self._replace(
                    current,
                    changed,
                    elements,
                    words=words,
                    slug_field="story.slug",
                    by=viewer,
                    author=author,
                    reports=reports,
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
        by: Viewer | str,
        author: UserRecord,
        reports: Sequence[EventType],
    ) -> StoryRecord:
        """Store ``changed`` over ``current``, keeping ``current`` as a revision replaced by
        ``by`` (a viewer with a user, or a user id), with the events of ``reports``."""
        changed = changed.model_copy(update={"version": current.version + 1})
        by_id = by if isinstance(by, str) else self._ctx.require_user(by).id
        mark = RevisionMark(changed.updated, by_id, self._ctx.settings.limits.revisions)
        with wording(name=changed.slug, field=slug_field):
            self._stories.replace(
                changed,
                expected_version=current.version,
                elements=elements,
                words=words,
                revision=mark,
                events=self._events(reports, changed, author),
            )
        return changed

    def _events(
        self, reports: Sequence[EventType], story: StoryRecord, author: UserRecord
    ) -> list[Event]:
        presenter = self._ctx.presenter
        return [story_event(presenter, kind, story, author, story.updated) for kind in reports]

    def _elements_of(self, story_id: str, offset: int, limit: int) -> list[Element]:
        return [element_of(d) for d in self._stories.element_documents(story_id, offset, limit)]

    def _add(self, record: StoryRecord, author: UserRecord, elements: Sequence[Element]) -> None:
        with wording(name=record.slug, field="story.slug"):
            self._stories.add_many(
                [(record, elements, story_words(record, elements))],
                events=self._created(record, author),
            )

    def _created(self, record: StoryRecord, author: UserRecord) -> list[Event]:
        """What a create reports: ``story.created``, and ``story.published`` or
        ``story.scheduled`` when it was created so."""
        reports: list[EventType] = ["story.created"]
        if record.status == "published":
            reports.append("story.published")
        if record.publish_at is not None:
            reports.append("story.scheduled")
        presenter = self._ctx.presenter
        return [story_event(presenter, kind, record, author, record.created) for kind in reports]

    def _add_with_derived_slug(
        self, record: StoryRecord, author: UserRecord, elements: Sequence[Element]
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
                self._stories.add_many(
                    [(candidate, elements, words)], events=self._created(candidate, author)
                )
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
            fetch=True,  # a write stores what its permalinks point to (docs/resolver.md)
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

    def _schedule(self, publish_at: PublishAt) -> str | Unchanged | None:
        """``publish_at`` checked: a stored time, None (cancel) or ``UNCHANGED``."""
        if publish_at is None or isinstance(publish_at, Unchanged):
            return publish_at
        return publish_time(publish_at, self._ctx.clock.now())


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
    return {
        "status": "published",
        "modified": False,
        "published": story.published or at,
        "publish_at": None,
    }


def _scheduled(story: StoryRecord, schedule: str | None) -> dict[str, Any]:
    """The change of a story's schedule to ``schedule`` (a time, or None to cancel it)."""
    if schedule is not None and story.status == "published":
        raise InvalidParameter(
            "a published story cannot be scheduled: unpublish it first", field="publish_at"
        )
    return {"publish_at": schedule}


def _unpublished(story: StoryRecord, at: str) -> dict[str, Any] | None:
    if story.status == "working":
        return None
    return {"status": "working", "modified": False}


#: The event each status transition reports (docs/webhooks.md).
_REPORTED: dict[Callable[[StoryRecord, str], dict[str, Any] | None], EventType] = {
    _saved: "story.saved",
    _published: "story.published",
    _unpublished: "story.unpublished",
}
