"""Strategies of whole stories: the ``story`` members, new stories, stored stories, viewers."""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from storycore.model.records import Status, StoryRecord

from ._elements import elements as _element_lists
from ._elements import permalinks
from ._names import valid_slugs
from ._narrowing import ABSENT, Member, either, narrowed, optional, present
from ._text import plain_text, titles
from .rules import Viewer, story_for, viewer_for

if TYPE_CHECKING:
    from storycore.model.shapes import StoryCreated
    from storycore.service import Service

__all__ = ["NewStory", "StoryNarrowing", "stories", "story_members", "story_records", "viewers"]

_LOWER_DIGITS = string.ascii_lowercase + string.digits


def _labels() -> SearchStrategy[list[str]]:
    label = plain_text(min_size=1, max_size=30).filter(lambda s: s.strip() != "")
    return st.lists(label, max_size=3)


class StoryNarrowing(TypedDict, total=False):
    """The members ``story_members`` and ``stories`` may narrow, each a ``Member``."""

    title: Member[str]
    slug: Member[str]
    description: Member[str]
    thumbnail: Member[str]
    elements: Member[list[Any]]
    private: Member[bool]
    topics: Member[list[str]]
    hashtags: Member[list[str]]


def story_members(**narrowing: Unpack[StoryNarrowing]) -> SearchStrategy[dict[str, Any]]:
    """The ``story`` parameter of create, save and publish, as a dict the service accepts:
    ``title``, ``slug``, ``description``, ``thumbnail``, ``elements``, ``private``,
    ``topics`` and ``hashtags``, each sometimes left out. Narrow any member by its keyword
    (see the module): ``story_members(slug=ABSENT, private=False)``.
    """
    defaults: dict[str, SearchStrategy[Any]] = {
        "title": optional(titles()),
        "slug": optional(valid_slugs()),
        "description": optional(plain_text(max_size=120)),
        "thumbnail": optional(permalinks("image")),
        "elements": optional(_element_lists(max_size=3)),
        "private": optional(st.booleans()),
        "topics": optional(_labels()),
        "hashtags": optional(_labels()),
    }
    unknown = sorted(set(narrowing) - set(defaults))
    if unknown:
        raise TypeError(f"story_members() got unknown members: {', '.join(unknown)}")
    members = {name: narrowed(narrowing.get(name), default) for name, default in defaults.items()}
    return st.fixed_dictionaries(members).map(present)


@dataclass(frozen=True)
class NewStory:
    """A story as a user creates it: the ``story`` members and whether to ``publish`` at once."""

    story: dict[str, Any]
    publish: bool

    @property
    def private(self) -> bool:
        """Whether the story is created private."""
        return bool(self.story.get("private", False))

    @property
    def public(self) -> bool:
        """Whether the story lands on the public lists: published and not private."""
        return self.publish and not self.private

    def create(self, service: Service, username: str) -> StoryCreated:
        """Create this story under ``username``, acting as that user."""
        viewer = service.accounts.as_user(username)
        return service.stories.create(username, self.story, viewer=viewer, publish=self.publish)


def stories(
    *,
    published: bool | SearchStrategy[bool] | None = None,
    **narrowing: Unpack[StoryNarrowing],
) -> SearchStrategy[NewStory]:
    """Whole new stories (``NewStory``): members and whether they are published at creation.

    ``published`` and ``private`` narrow the outcome: ``stories(published=True,
    private=False)`` are public stories; ``private=False`` may also leave the member out.
    The other keywords narrow the members as ``story_members`` does.
    """
    if narrowing.get("private") is False:
        narrowing["private"] = st.sampled_from([ABSENT, False])
    return st.builds(
        NewStory, story=story_members(**narrowing), publish=either(published, st.booleans())
    )


def story_records(
    *,
    author_ids: Sequence[str] = ("alice-id", "bob-id"),
    status: Status | SearchStrategy[Status] | None = None,
    published: bool | None = None,
    private: bool | SearchStrategy[bool] | None = None,
) -> SearchStrategy[StoryRecord]:
    """Stored stories, as the rules (``storycore.testing.rules``) take them: an author from
    ``author_ids``, a status and a private flag. ``published=True`` is ``status="published"``.
    """
    if published is not None:
        status = "published" if published else "working"
    statuses: SearchStrategy[Status] = st.sampled_from(["working", "published"])
    return st.builds(
        story_for,
        st.sampled_from(list(author_ids)),
        status=either(status, statuses),
        private=either(private, st.booleans()),
        slug=valid_slugs(),
        story_id=st.text(_LOWER_DIGITS, min_size=12, max_size=12),
    )


def viewers(
    *, user_ids: Sequence[str] = ("alice-id", "bob-id", "carol-id")
) -> SearchStrategy[Viewer]:
    """Callers as the rules see them: anonymous, or a user of ``user_ids`` who may be an
    editor and may be allowed to feature stories.
    """
    users = st.builds(
        viewer_for,
        st.sampled_from(list(user_ids)),
        editor=st.booleans(),
        can_feature=st.booleans(),
    )
    return st.just(viewer_for(None)) | users
