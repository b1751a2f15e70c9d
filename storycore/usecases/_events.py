"""The events a write reports (docs/webhooks.md), made where the write is decided.

Each is built from the records the write stores, before it stores them, and handed to the
store with the write (``events=``), which keeps both or neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from ..model.events import Event, EventType
from ..model.records import StoryRecord, UserRecord
from ..presentation.presenters import Presenter
from ..rules.ids import new_event_id

__all__ = ["profile_events", "story_event", "user_event"]


def story_event(
    presenter: Presenter, type: EventType, story: StoryRecord, author: UserRecord, at: str
) -> Event:
    """``type`` of ``story`` as stored by the write: its full shape as its author sees it; for
    ``story.deleted``, what names the story that is gone (its sid, author and slug)."""
    if type == "story.deleted":
        named = {"sid": story.id, "username": author.username, "slug": story.slug}
        return Event(new_event_id(), type, at, story.id, orjson.dumps(named).decode())
    data = presenter.full(story, author.username).model_dump_json(by_alias=True)
    return Event(new_event_id(), type, at, story.id, data)


def user_event(presenter: Presenter, type: EventType, user: UserRecord, at: str) -> Event:
    """``type`` of ``user`` as stored by the write: their public profile."""
    data = presenter.profile(user).model_dump_json(by_alias=True)
    return Event(new_event_id(), type, at, user.id, data)


def profile_events(
    presenter: Presenter, user: UserRecord, changes: Mapping[str, Any], at: str
) -> list[Event]:
    """What an update of ``user`` by ``changes`` reports: ``user.updated`` when their public
    profile changes (a new password or a sign-in changes nothing anyone sees)."""
    changed = user.model_copy(update=changes)
    if presenter.profile(changed) == presenter.profile(user):
        return []
    return [user_event(presenter, "user.updated", changed, at)]
