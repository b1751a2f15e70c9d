"""Which pictures a story or a profile shows: the addresses storycore keeps a copy of
(docs/media.md#how-pictures-are-kept)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from storycore.model.element_kinds import Element
from storycore.model.records import StoryRecord, UserRecord, trusted_element
from storycore.model.shown_pictures import story_pictures, user_pictures
from storycore.rules.keeping import RETRY_DELAYS, next_attempt

NOW = "2026-01-01T00:00:00.000Z"


def _story(**members: Any) -> StoryRecord:
    return StoryRecord(
        id="s1", author_id="u1", title="T", slug="t", status="working", created=NOW,
        updated=NOW, **members,
    )  # fmt: skip


def _element(data: dict[str, Any]) -> Element:
    return trusted_element({"id": "e1", "added_at": NOW, **data})


def test_a_story_shows_its_thumbnail_and_its_elements_pictures() -> None:
    elements = [
        _element({"type": "image", "data": {"image": {"src": "https://a.example/1.jpg"}}}),
        _element(
            {
                "type": "quote",
                "permalink": "https://x.example/p/1",
                "attribution": {"thumbnail": "https://a.example/avatar.png"},
            }
        ),
        _element(
            {
                "type": "video",
                "data": {
                    "video": {"src": "https://v.example/v", "thumbnail": "https://a.example/v.jpg"}
                },
            }
        ),
        _element(
            {
                "type": "link",
                "permalink": "https://l.example/",
                "data": {"link": {"thumbnail": "https://a.example/l.jpg"}},
            }
        ),
        _element({"type": "text", "data": {"text": "<p>no picture</p>"}}),
    ]
    shown = story_pictures(_story(thumbnail="https://a.example/t.jpg"), elements)
    assert shown == [
        "https://a.example/t.jpg",
        "https://a.example/1.jpg",
        "https://a.example/avatar.png",
        "https://a.example/v.jpg",
        "https://a.example/l.jpg",
    ]


def test_a_picture_shown_twice_is_named_once() -> None:
    same = {"type": "image", "data": {"image": {"src": "https://a.example/1.jpg"}}}
    shown = story_pictures(_story(thumbnail="https://a.example/1.jpg"), [_element(same)])
    assert shown == ["https://a.example/1.jpg"]


def test_only_http_and_https_addresses_are_pictures() -> None:
    elements = [
        _element({"type": "image", "data": {"image": {"src": "data:image/png;base64,AAAA"}}}),
        _element({"type": "image", "data": {"image": {"src": "http://a.example/1.gif"}}}),
    ]
    shown = story_pictures(_story(thumbnail="ftp://a.example/t.jpg"), elements)
    assert shown == ["http://a.example/1.gif"]


def test_a_user_shows_their_avatar() -> None:
    user = UserRecord(id="u1", username="alice", created=NOW, updated=NOW,
                      avatar="https://a.example/me.png")  # fmt: skip
    assert user_pictures(user) == ["https://a.example/me.png"]
    assert user_pictures(user.model_copy(update={"avatar": ""})) == []


def test_a_failed_fetch_is_tried_again_after_a_minute_an_hour_and_a_day_then_never() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    assert (timedelta(minutes=1), timedelta(hours=1), timedelta(days=1)) == RETRY_DELAYS
    assert [next_attempt(n, at) for n in (1, 2, 3, 4)] == [
        at + timedelta(minutes=1), at + timedelta(hours=1), at + timedelta(days=1), None,
    ]  # fmt: skip
