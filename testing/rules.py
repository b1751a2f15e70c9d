"""storycore's rules as pure predicates, for a host application to assert against its own data.

Every function here is the core's own (re-exported, or a thin wrapper around the core's
validator), so a test that uses them checks the host application against the very rule the
service applies. None of them touches storage.

Visibility and permissions (docs/api.md#credentials) take a ``Viewer`` and a ``StoryRecord`` (both
re-exported here); ``viewer_for`` and ``story_for`` build them from a host application's own
users and stories::

    draft = story_for("member-42", status="working")
    viewer = viewer_for(member.storycore_id, editor=member.is_staff)
    assert may_view(viewer, draft) == (member.is_staff or member.storycore_id == "member-42")
"""

from __future__ import annotations

from storycore.errors import InvalidParameter
from storycore.model import visibility
from storycore.model.records import Status, StoryRecord, UserRecord
from storycore.model.visibility import ANONYMOUS, Viewer, counts_as_view
from storycore.rules.addresses import is_http_url
from storycore.rules.hashtags import normalize_tag
from storycore.rules.slugs import (
    MAX_SLUG_LENGTH,
    SLUG_PATTERN,
    derive_slug,
    is_valid_slug,
    next_free_slug,
)
from storycore.rules.usernames import (
    RESERVED_USERNAMES,
    USERNAME_PATTERN,
    username_key,
    validate_username,
)

__all__ = [
    "ANONYMOUS",
    "MAX_SLUG_LENGTH",
    "RESERVED_USERNAMES",
    "SLUG_PATTERN",
    "USERNAME_PATTERN",
    "StoryRecord",
    "Viewer",
    "counts_as_view",
    "derive_slug",
    "is_http_url",
    "is_public",
    "is_valid_slug",
    "is_valid_username",
    "may_create_for",
    "may_edit",
    "may_feature",
    "may_list_hidden_stories_of",
    "may_view",
    "next_free_slug",
    "normalize_tag",
    "same_username",
    "story_for",
    "viewer_for",
]

_EPOCH = "2026-01-01T00:00:00.000Z"

may_view = visibility.can_see
"""``may_view(viewer, story)``: public stories by anyone, private or working ones by their
author and editors only; for everyone else the story does not exist (404)."""

may_edit = visibility.can_edit
"""``may_edit(viewer, story)``: save, publish, unpublish, delete and change the slug: the
author or an editor."""

may_create_for = visibility.can_act_for
"""``may_create_for(viewer, user_id)``: create a story under a username: that user or an editor."""

may_feature = visibility.can_feature
"""``may_feature(viewer)``: feature and unfeature stories: users with ``canFeatureStories``
(editors too only when they have it)."""

may_list_hidden_stories_of = visibility.can_see_hidden_stories_of
"""``may_list_hidden_stories_of(viewer, author_id)``: whether a user's list shows ``viewer``
that user's private and working stories: that user, or an editor."""


def is_public(story: StoryRecord) -> bool:
    """Whether ``story`` belongs on the public lists and search: published and not private."""
    return story.is_public


def is_valid_username(username: str) -> bool:
    """Whether a user may be created with ``username``: 1 to 30 letters, digits or
    underscores, and not a reserved name in any case (docs/api.md#credentials).
    """
    try:
        validate_username(username)
    except InvalidParameter:
        return False
    return True


def same_username(first: str, second: str) -> bool:
    """Whether two usernames name one user (usernames are unique regardless of case)."""
    return username_key(first) == username_key(second)


def viewer_for(
    user_id: str | None,
    *,
    editor: bool = False,
    can_feature: bool = False,
    username: str | None = None,
) -> Viewer:
    """The ``Viewer`` the rules see for a host application's user: ``None`` is anonymous.

    ``user_id`` is the storycore user id the host application maps its user to; ``editor``
    may act on every story, ``can_feature`` may feature stories.
    """
    if user_id is None:
        return ANONYMOUS
    user = UserRecord(
        id=user_id,
        username=username or "user",
        editor=editor,
        can_feature=can_feature,
        created=_EPOCH,
        updated=_EPOCH,
    )
    return Viewer(user=user)


def story_for(
    author_id: str,
    *,
    status: Status = "published",
    private: bool = False,
    slug: str = "story",
    story_id: str = "story",
) -> StoryRecord:
    """A ``StoryRecord`` with what the rules look at: its author, status and private flag."""
    return StoryRecord(
        id=story_id,
        author_id=author_id,
        title="",
        slug=slug,
        status=status,
        private=private,
        created=_EPOCH,
        updated=_EPOCH,
        published=_EPOCH if status == "published" else None,
    )
