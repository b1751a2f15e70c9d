"""The key sets of docs/api.md#shapes and docs/api.md#errors, docs/api.md#elements, written out as
the
spec states them (not derived from the code), and the checks every answer of the API passes.
"""

from __future__ import annotations

import re
from typing import Any

from tests.http._clients import Answer

JSON_TYPE = "application/json; charset=utf-8"
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def keys(names: str) -> frozenset[str]:
    """A key set written as the spec's words."""
    return frozenset(names.split())


PROFILE = keys("username name bio location website avatar")
CREATED = keys("id title slug description thumbnail created updated status private")
SUMMARY = CREATED | {"author"}
DETAIL = SUMMARY | keys("version permalink shortlink publish_at page per_page elements")
ELEMENT = keys("id type permalink source attribution data posted_at added_at")
FULL = keys(
    "sid title slug status version permalink shortlink publish_at description thumbnail date "
    "private topics siteposts meta stats modified deleted"
)
SEARCH_ITEM = FULL | {"author", "canEdit"}
SLUG_CHANGED = FULL | {"not_indexed"}
STORY_DATE = keys("created modified published")
META = keys("quoted hashtags created_with")
QUOTED = keys("username name userid avatar source notified_at")
CREATED_WITH = keys("href appname name")
STATS = keys("popularity views likes comments elementComments embeds elements")
ELEMENT_COUNTS = keys("text quote image video link other")
AUTHOR_FULL = keys(
    "username _access name bio location website avatar permalink lang settings stats date "
    "coverPhoto canFeatureStories featuredStories"
)
AUTHOR_SETTINGS = keys(
    "comments socialA_autoshare socialA_quoteimg socialA_post socialB_post notifications"
)
NOTIFICATIONS = keys(
    "newsletter digest likes comments follower quoted friend_quoted autoshare element_comment "
    "element_like story_comment story_like"
)
AUTHOR_STATS = keys("views subscriptions subscribers stories embeds")
AUTHOR_DATE = keys("updated last_story last_seen last_email featured created")
COVER_PHOTO = keys("url width height")
ERROR_KEYS = {"type", "message"}
ERROR_KEYS_WITH_FIELD = {"type", "message", "field"}


def content_of(answer: Answer) -> Any:
    """The content of a success: 200, JSON, a body of exactly ``content`` and ``code`` 200."""
    assert answer.headers["content-type"] == JSON_TYPE
    body = answer.json()
    assert set(body) == {"content", "code"}, body
    assert (answer.status, body["code"]) == (200, 200), body
    return body["content"]


def error_of(answer: Answer) -> dict[str, Any]:
    """The ``error`` of an error answer: JSON, exactly ``error`` and ``code``, ``code`` equal to
    the status, ``type`` and ``message`` always and ``field`` at most besides, no traceback.
    """
    assert answer.headers["content-type"] == JSON_TYPE
    assert b"Traceback" not in answer.body
    body = answer.json()
    assert set(body) == {"error", "code"}, body
    assert body["code"] == answer.status
    error: dict[str, Any] = body["error"]
    assert ERROR_KEYS <= set(error) <= ERROR_KEYS_WITH_FIELD, error
    assert isinstance(error["message"], str)
    assert error["message"]
    return error


def full_story_members_are_complete(story: dict[str, Any]) -> None:
    """The nested objects of the full shape (2.5) have exactly their keys."""
    assert set(story["date"]) == STORY_DATE
    assert set(story["meta"]) == META
    assert set(story["meta"]["created_with"]) == CREATED_WITH
    assert all(set(quoted) == QUOTED for quoted in story["meta"]["quoted"])
    assert set(story["stats"]) == STATS
    assert set(story["stats"]["elements"]) == ELEMENT_COUNTS
    assert all(TIMESTAMP.match(story["date"][key]) for key in ("created", "modified"))
