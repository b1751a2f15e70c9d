"""Who may see and change what (docs/api.md#who-may-do-what, docs/api.md#credentials).

The viewer is the caller: anonymous, or a user (possibly an editor) acting through an
application. Every permission of the service is decided by one of these functions.
"""

from __future__ import annotations

from dataclasses import dataclass

from .records import AppRecord, StoryRecord, UserRecord

__all__ = [
    "ANONYMOUS",
    "OPERATOR",
    "Viewer",
    "can_act_for",
    "can_edit",
    "can_feature",
    "can_see",
    "can_see_hidden_stories_of",
    "counts_as_view",
    "is_author_or_editor",
]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is asking. ``user`` is None for an anonymous caller. ``operator``: whoever runs
    the service's commands (``storycore webhooks ...``), who holds the store itself and so
    may do what an editor does where no story's author is involved."""

    user: UserRecord | None = None
    app: AppRecord | None = None
    operator: bool = False

    @property
    def authenticated(self) -> bool:
        """Whether the caller is a known user."""
        return self.user is not None

    @property
    def is_editor(self) -> bool:
        """Whether the caller may act on every story."""
        return self.user is not None and self.user.editor

    def is_user(self, user_id: str) -> bool:
        """Whether the caller is the user with this id."""
        return self.user is not None and self.user.id == user_id


ANONYMOUS = Viewer()
OPERATOR = Viewer(operator=True)


def can_see(viewer: Viewer, story: StoryRecord) -> bool:
    """Public stories are seen by anyone; private or working ones by the author and editors."""
    return story.is_public or viewer.is_user(story.author_id) or viewer.is_editor


def is_author_or_editor(viewer: Viewer, author_id: str) -> bool:
    """Whether ``viewer`` is the user ``author_id`` or an editor: who may edit a story of
    theirs (``can_edit``), see their hidden stories, act for them."""
    return viewer.is_user(author_id) or viewer.is_editor


def can_edit(viewer: Viewer, story: StoryRecord) -> bool:
    """Save, publish, unpublish, delete and change the slug: the author or an editor."""
    return is_author_or_editor(viewer, story.author_id)


def can_see_hidden_stories_of(viewer: Viewer, author_id: str) -> bool:
    """A user's list includes private and working stories for that user and for editors."""
    return is_author_or_editor(viewer, author_id)


def can_act_for(viewer: Viewer, user_id: str) -> bool:
    """Create a story under a username: that user or an editor."""
    return is_author_or_editor(viewer, user_id)


def can_feature(viewer: Viewer) -> bool:
    """Feature or unfeature stories: users allowed to, editors included only if allowed."""
    return viewer.user is not None and viewer.user.can_feature


def counts_as_view(viewer: Viewer, story: StoryRecord) -> bool:
    """A read of a published story counts as a view unless its author reads it."""
    return story.status == "published" and not viewer.is_user(story.author_id)
