"""An example of every operation of the OpenAPI document: the request a client sends and the
content of the answer (docs/decisions.md#the-api-reference).

Answers are built as the shapes the service answers with (``storycore.model.shapes``), so an example
cannot hold a member the shape does not have; ``tests/http/test_openapi.py`` checks each
example against its operation's schemas.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from ..model.element_kinds import ImageElement, QuoteElement, TextElement
from ..model.records import CreatedWith, Quoted, UserSettings
from ..model.shapes import (
    AuthorDates,
    AuthorFull,
    AuthorStatsShape,
    DelegatedCreated,
    DeliveryItem,
    RevisionItem,
    Revoked,
    SearchItem,
    SlugChanged,
    StoryCreated,
    StoryDates,
    StoryDeleted,
    StoryDetail,
    StoryMeta,
    StoryStats,
    StorySummary,
    TokenGrant,
    UserProfile,
    WebhookCreated,
    WebhookRemoved,
    WebhookShape,
)

__all__ = ["EXAMPLES", "OperationExample"]


@dataclass(frozen=True)
class OperationExample:
    """One call: path and query ``parameters``, the JSON ``body``, and the answer's content."""

    parameters: Mapping[str, Any] = field(default_factory=dict)
    body: Mapping[str, Any] | None = None
    answer: Any = None

    def form_body(self) -> dict[str, str]:
        """``body`` as a form carries it: everything as text (``_as_text``)."""
        assert self.body is not None
        return {name: _as_text(value) for name, value in self.body.items()}


def _as_text(value: Any) -> str:
    """``value`` as a form field carries it: a list of words comma-separated (``events``),
    any other list or object as serialized JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        return ",".join(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return orjson.dumps(value).decode() if isinstance(value, dict | list) else str(value)


def _json(shape: Any) -> Any:
    return shape.model_dump(mode="json", by_alias=True)


_WEB = "https://stories.example"
_CREATED, _UPDATED = "2026-11-20T08:00:00.000Z", "2026-11-22T10:15:30.123Z"
_REDELIVERED = "2026-11-22T11:00:00.000Z"
_ALICE = UserProfile(
    username="alice",
    name="Alice Liddell",
    bio="Walks and talks.",
    location="Oxford",
    website="https://alice.example",
    avatar="https://alice.example/me.jpg",
)
_STORY_WRITE = {
    "title": "City walks",
    "description": "Three walks through #oxford",
    "elements": [
        "https://socialA.example/bob/status/1",
        {"type": "text", "data": {"text": "<p>We started at the <b>bridge</b>.</p>"}},
        {"type": "image", "data": {"image": {"src": "https://img.example/bridge.jpg"}}},
    ],
    "topics": ["travel"],
}
_CREATED_STORY = StoryCreated(
    id="s8f1c2a9",
    title="City walks",
    slug="city-walks",
    description="Three walks through #oxford",
    thumbnail="https://img.example/bridge.jpg",
    created=_CREATED,
    updated=_CREATED,
    status="working",
    private=False,
)
_SUMMARY = StorySummary(**_CREATED_STORY.model_dump(), author=_ALICE)
_BRIDGE = "https://img.example/bridge.jpg"
_ELEMENTS = [
    QuoteElement(
        id="e1",
        permalink="https://socialA.example/bob/status/1",
        source={"name": "socialA", "href": "https://socialA.example", "username": "bob"},
        added_at=_CREATED,
    ),
    TextElement(id="e2", data={"text": "<p>We started at the bridge.</p>"}, added_at=_CREATED),
    ImageElement(
        id="e3",
        data={"image": {"src": _BRIDGE, "caption": "", "width": 0, "height": 0}},
        added_at=_CREATED,
    ),
]
_DETAIL = StoryDetail(
    **{**_SUMMARY.model_dump(), "updated": _UPDATED},
    version=2,
    permalink=f"{_WEB}/alice/{_SUMMARY.slug}",
    shortlink=f"{_WEB}/s/{_SUMMARY.id}",
    publish_at=None,
    page=1,
    per_page=20,
    elements=_ELEMENTS,
)
_FULL = {
    "sid": "s8f1c2a9",
    "title": "City walks",
    "slug": "walks-in-the-city",
    "status": "published",
    "version": 4,
    "permalink": f"{_WEB}/alice/walks-in-the-city",
    "shortlink": f"{_WEB}/s/s8f1c2a9",
    "publish_at": None,
    "description": "Three walks through #oxford",
    "thumbnail": "https://img.example/bridge.jpg",
    "date": StoryDates(created=_CREATED, modified=_UPDATED, published=_UPDATED),
    "private": False,
    "topics": ["travel"],
    "siteposts": [],
    "meta": StoryMeta(
        quoted=[Quoted(username="bob", name="", userid="", avatar="", source="socialA")],
        hashtags=["oxford"],
        created_with=CreatedWith(href="", appname="walks", name="walks"),
    ),
    "stats": StoryStats(
        popularity=12,
        views=12,
        likes=0,
        comments=0,
        elementComments=0,
        embeds=[],
        elements={"text": 1, "quote": 1, "image": 1, "video": 0, "link": 0, "other": 0},
    ),
    "modified": False,
    "deleted": False,
}
_AUTHOR = AuthorFull(
    **_ALICE.model_dump(),
    _access=1,
    permalink=f"{_WEB}/alice",
    lang="en",
    settings=UserSettings(),
    stats=AuthorStatsShape(views=40, subscriptions=0, subscribers=0, stories=3, embeds=2),
    date=AuthorDates(
        updated=_UPDATED,
        last_story=_UPDATED,
        last_seen=_UPDATED,
        last_email=None,
        featured=None,
        created=_CREATED,
    ),
    coverPhoto={"url": "", "width": 0, "height": 0},
    canFeatureStories=False,
    featuredStories=[],
)
_TOKEN = "k3J9_vQm2xWc8ZpL0tYhR4nB7sD1fG5aE6uI9oP2qXw"  # noqa: S105 - an example
_SECRET = "whsec_Jv1mQ3xK8pTz0bN5cR7dW2yL4fH6sA9e"  # noqa: S105 - an example


def _page(key: str, items: list[Any]) -> dict[str, Any]:
    return {"page": 1, "per_page": 20, key: items}


def _stories(*shapes: Any) -> dict[str, Any]:
    return _page("stories", [_json(shape) for shape in shapes])


_STORY_PATH = {"username": "alice", "slug": "city-walks"}
_WEBHOOK = WebhookShape(
    id="wh_5d2c8e0a4b1f",
    url="https://hooks.example/storycore",
    events=["story.published", "story.deleted"],
    private=False,
    created=_CREATED,
    failing=None,
    disabled=None,
)
_WEBHOOK_PATH = {"webhook": _WEBHOOK.id}
_DELIVERED = DeliveryItem(
    event="evt_0662a1c0e7d2c45b9f3b6a1c",
    type="story.published",
    created=_UPDATED,
    state="delivered",
    attempts=1,
    last_status=204,
    last_error=None,
    last_attempt=_UPDATED,
    next_attempt=None,
)
_PUBLISHED = {**_json(_DETAIL), "status": "published"}

#: The example of each operation, by operation id (the name of its endpoint).
EXAMPLES: Mapping[str, OperationExample] = {
    "search": OperationExample(
        {"q": "city walks", "per_page": 10},
        answer=_stories(SearchItem(**_FULL, author=_AUTHOR, canEdit=False)),
    ),
    "list_stories": OperationExample(
        {"sort": "date.published", "order": "desc", "tag": "#oxford"}, answer=_stories(_SUMMARY)
    ),
    "latest": OperationExample({"per_page": 10}, answer=_stories(_SUMMARY)),
    "featured": OperationExample({"page": 1}, answer=_stories(_SUMMARY)),
    "popular": OperationExample({"per_page": 5}, answer=_stories(_SUMMARY)),
    "topic": OperationExample({"topic": "travel"}, answer=_stories(_SUMMARY)),
    "user_stories": OperationExample(
        {"username": "alice", "filter": "working,published"}, answer=_stories(_SUMMARY)
    ),
    "create_story": OperationExample(
        {"username": "alice"},
        {"story": _STORY_WRITE, "publish": False},
        _json(_CREATED_STORY),
    ),
    "read_story": OperationExample({**_STORY_PATH, "per_page": 20}, answer=_json(_DETAIL)),
    "save_story": OperationExample(
        _STORY_PATH,
        {"story": {"title": "City walks", "private": False}, "version": 1},
        _json(_DETAIL),
    ),
    "publish_story": OperationExample(_STORY_PATH, {"version": 2}, _PUBLISHED),
    "list_revisions": OperationExample(
        {**_STORY_PATH, "per_page": 10},
        answer=_page(
            "revisions",
            [
                _json(
                    RevisionItem(
                        version=1,
                        replaced=_UPDATED,
                        by="alice",
                        title="City walks",
                        status="working",
                        elements=3,
                    )
                )
            ],
        ),
    ),
    "read_revision": OperationExample(
        {**_STORY_PATH, "revision": "1"}, answer={**_json(_DETAIL), "version": 1}
    ),
    "restore_revision": OperationExample(
        {**_STORY_PATH, "revision": "1"}, {"version": 2}, {**_json(_DETAIL), "version": 3}
    ),
    "unpublish_story": OperationExample(_STORY_PATH, answer=_json(_DETAIL)),
    "delete_story": OperationExample(
        _STORY_PATH, answer=_json(StoryDeleted(sid="s8f1c2a9", deleted=True))
    ),
    "feature_story": OperationExample(_STORY_PATH, answer=_json(_SUMMARY)),
    "unfeature_story": OperationExample(_STORY_PATH, answer=_json(_SUMMARY)),
    "edit_slug": OperationExample(
        _STORY_PATH,
        {"slug": "walks-in-the-city"},
        _json(SlugChanged(**_FULL, not_indexed=False)),
    ),
    "list_users": OperationExample({"per_page": 50}, answer=_page("users", [_json(_ALICE)])),
    "read_user": OperationExample({"username": "alice"}, answer=_json(_ALICE)),
    "update_user": OperationExample(
        {"username": "alice"},
        {"user": {"bio": "Walks, talks and stories.", "website": "https://alice.example"}},
        _json(_ALICE.model_copy(update={"bio": "Walks, talks and stories."})),
    ),
    "add_webhook": OperationExample(
        body={"url": _WEBHOOK.url, "events": _WEBHOOK.events},
        answer=_json(WebhookCreated(**_WEBHOOK.model_dump(), secret=_SECRET)),
    ),
    "list_webhooks": OperationExample(
        {"per_page": 20}, answer=_page("webhooks", [_json(_WEBHOOK)])
    ),
    "read_webhook": OperationExample(_WEBHOOK_PATH, answer=_json(_WEBHOOK)),
    "remove_webhook": OperationExample(
        _WEBHOOK_PATH, answer=_json(WebhookRemoved(id=_WEBHOOK.id, deleted=True))
    ),
    "list_deliveries": OperationExample(
        {**_WEBHOOK_PATH, "per_page": 20, "total": "true"},
        answer={**_page("deliveries", [_json(_DELIVERED)]), "total": 1},
    ),
    "redeliver": OperationExample(
        {**_WEBHOOK_PATH, "event": _DELIVERED.event},
        answer=_json(
            _DELIVERED.model_copy(update={"state": "pending", "next_attempt": _REDELIVERED})
        ),
    ),
    "oembed": OperationExample(
        {"url": f"{_WEB}/alice/city-walks", "format": "json", "maxwidth": 600},
        answer={
            "version": "1.0",
            "type": "rich",
            "provider_name": "stories.example",
            "provider_url": _WEB,
            "title": "City walks",
            "author_name": "Alice Liddell",
            "author_url": f"{_WEB}/alice",
            "html": f'<script src="{_WEB}/alice/city-walks.js"></script>',
            "width": 600,
            "height": 750,
            "cache_age": 3600,
        },
    ),
    "delegated_create": OperationExample(
        body={"story": _STORY_WRITE, "publish": True},
        answer=_json(
            DelegatedCreated(
                sid="s8f1c2a9",
                permalink=f"{_WEB}/bob_socialA/city-walks",
                shortlink=f"{_WEB}/s/s8f1c2a9",
            )
        ),
    ),
    "authenticate": OperationExample(
        body={"api_key": "<API_KEY>", "username": "alice", "password": "a-long-password"},
        answer=_json(TokenGrant(**_ALICE.model_dump(), _token=_TOKEN)),
    ),
    "revoke": OperationExample(answer=_json(Revoked())),
}
