"""The one builder of a new story's record from its draft: for a create (``lifecycle``), an
import of an export (``_import_records``) and a Storify import (``storify``).

Each caller checks what it reads its own way and names its own fields; the record is made here
only, so a create and both imports agree on what a stored story is: the draft's members over
the defaults, what a write derives (``derived.with_derived_members``), the popularity of its
counters (``counters.popularity``), and no state that no write makes: a working story is never
``modified`` (a save marks a published story modified until its next publication, and
unpublishing clears the mark), so an import that says so is normalized, as a write would leave
the story.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .counters import popularity
from .derived import with_derived_members
from .drafts import StoryDraft
from .records import CreatedWith, Element, Status, StoryRecord

__all__ = ["story_record"]


def story_record(
    draft: StoryDraft,
    elements: Sequence[Element],
    *,
    story_id: str,
    author_id: str,
    status: Status,
    created: str,
    updated: str | None = None,
    published: str | None = None,
    version: int = 1,
    modified: bool = False,
    not_indexed: bool = False,
    featured_at: str | None = None,
    publish_at: str | None = None,
    created_with: CreatedWith | None = None,
    views: int = 0,
    likes: int = 0,
    comments: int = 0,
    element_comments: int = 0,
) -> StoryRecord:
    """The record of a new story: ``draft``'s members (a slug left out is empty: the caller
    chooses a free one) with ``elements``, normalized by the caller, and these members
    (``updated`` defaults to ``created``). The counters are an import's to restore (a new story
    has none), and the popularity is theirs. ``modified`` holds for a published story only.
    Derived members included.
    """
    members: dict[str, Any] = {"title": "", "slug": "", **draft.record_members()}
    record = StoryRecord(
        **members,
        id=story_id,
        author_id=author_id,
        status=status,
        version=version,
        modified=modified and status == "published",
        not_indexed=not_indexed,
        created=created,
        updated=updated or created,
        published=published,
        featured_at=featured_at,
        publish_at=publish_at if status == "working" else None,
        created_with=created_with or CreatedWith(),
        views=views,
        likes=likes,
        comments=comments,
        element_comments=element_comments,
        popularity=popularity(views, likes, comments),
    )
    return with_derived_members(record, elements)
