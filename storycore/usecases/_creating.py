"""Creating a story (docs/api.md#stories, docs/api.md#slugs): working, published, or
scheduled, at the slug it is sent or one derived from its title."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..errors import Forbidden, SlugTaken
from ..model.derived import story_words
from ..model.drafts import StoryDraft, parse_story
from ..model.records import CreatedWith, Element, StoryRecord, UserRecord
from ..model.shapes import StoryCreated
from ..model.story_records import story_record
from ..model.visibility import Viewer, can_act_for
from ..rules.ids import new_id
from ..rules.schedule import UNCHANGED, PublishAt
from ..rules.slugs import derive_slug, slug_candidates
from ._story_commands import StoryCommands, StoryInput
from .transitions import CREATE, CREATE_PUBLISHED, Transition

__all__ = ["Creating", "new_story_record"]

_SLUG_BATCH = 64
# Every lost race is won by another create, so this many creates of one title at once all get
# a slug: each round, one of them stores the slug all of them tried.
_DERIVED_SLUG_ATTEMPTS = 64


class Creating(StoryCommands):
    """Creating a story: ``create``."""

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
        transition = CREATE_PUBLISHED if publish and scheduled is None else CREATE
        created = self._ctx.now()
        elements = self._elements(draft, previous=[], at=created) or []
        record = new_story_record(
            author.id,
            draft,
            elements,
            publish=transition.to == "published",
            at=created,
            created_with=_created_with(viewer),
        )
        record.publish_at = scheduled
        if draft.slug is None:
            record = self._add_with_derived_slug(transition, record, author, viewer, elements)
        else:
            words = story_words(record, elements)
            self._commits.commit(
                transition, None, record, author=author, by=viewer, elements=elements, words=words
            )
        return self._ctx.presenter.created(record)

    def _add_with_derived_slug(
        self,
        transition: Transition,
        record: StoryRecord,
        author: UserRecord,
        viewer: Viewer,
        elements: Sequence[Element],
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
                return self._commits.commit(
                    transition,
                    None,
                    candidate,
                    author=author,
                    by=viewer,
                    elements=elements,
                    words=words,
                )
            except SlugTaken:
                continue  # a concurrent create took it first
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
    return story_record(
        draft,
        elements,
        story_id=new_id(),
        author_id=author_id,
        status="published" if publish else "working",
        created=at,
        published=at if publish else None,
        created_with=created_with,
    )


def _created_with(viewer: Viewer) -> CreatedWith:
    if viewer.app is None:
        return CreatedWith()
    return CreatedWith(href=viewer.app.href, appname=viewer.app.name, name=viewer.app.name)
