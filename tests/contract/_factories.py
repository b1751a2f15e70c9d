"""Records for the contract suite, with sensible defaults and consistent derived members.

Every story is built through ``with_derived_members`` from the elements it is stored with, and
stored with the search words ``story_words`` derives from them; every user carries the search
tokens of its username and name, as the service would write them.
Timestamps come from ``at(n)``: ``n`` minutes after a fixed moment, so order follows ``n``.
Events, webhooks and deliveries (docs/webhooks.md) are made by ``make_event``,
``make_webhook`` and ``make_delivery``; ``two_stores`` opens two stores on one storage.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from storycore.adapters import open_store
from storycore.model.derived import (
    story_words,
    user_changes,
    with_derived_members,
    with_search_tokens,
)
from storycore.model.element_kinds import ELEMENT_CLASSES
from storycore.model.events import Event
from storycore.model.heads import StoryHead
from storycore.model.records import (
    AppRecord,
    Element,
    ElementType,
    Status,
    StoryRecord,
    TokenRecord,
    UserRecord,
    element_of,
)
from storycore.model.webhooks import Delivery, WebhookRecord
from storycore.ports import Store
from storycore.rules.ids import new_event_id, new_id
from storycore.rules.timestamps import format_timestamp
from storycore.settings import EMBED_PAGES
from storycore.testing._fresh import _drop_server_database

_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
_UNSET: Any = object()


def at(minutes: int) -> str:
    """A stored timestamp ``minutes`` after a fixed moment."""
    return format_timestamp(_EPOCH + timedelta(minutes=minutes))


def make_user(username: str, *, name: str = "", user_id: str | None = None) -> UserRecord:
    """A user whose search tokens are its username's and name's."""
    return with_search_tokens(
        UserRecord(
            id=user_id or new_id(), username=username, name=name, created=at(0), updated=at(0)
        )
    )


def add_user(store: Store, username: str, *, name: str = "") -> UserRecord:
    """A new user, stored."""
    user = make_user(username, name=name)
    store.users.add(user)
    return user


def renamed(user: UserRecord, name: str) -> UserRecord:
    """``user`` with another name, and the search tokens that follow from it."""
    return user.model_copy(update=user_changes(user, {"name": name, "updated": at(1)}))


_HOLDS = {"quote": "text", "link": "title", "video": "title", "image": "caption"}
_SRC = {"image": "https://img.example/i.png", "video": "https://video.example/v"}


def make_element(
    text: str = "some text",
    *,
    kind: ElementType = "text",
    permalink: str | None = None,
    element_id: str | None = None,
) -> Element:
    """An element of type ``kind`` holding ``text``: as HTML in a text element, as the text,
    title or caption of the others (an image or video has a source address)."""
    if kind == "text":
        data: dict[str, Any] = {"text": f"<p>{text}</p>"}
    elif kind == "other":
        data = {}
    else:
        data = {kind: {_HOLDS[kind]: text, **({"src": _SRC[kind]} if kind in _SRC else {})}}
    element_id = element_id or new_id()[:6]
    if kind in ("quote", "link"):  # they need one
        permalink = permalink or f"https://posts.example/{element_id}"
    element: Element = ELEMENT_CLASSES[kind](
        id=element_id, permalink=permalink, data=data, added_at=at(0)
    )
    return element


def make_story(
    author_id: str,
    slug: str = "story",
    *,
    elements: Sequence[Element] = (),
    story_id: str | None = None,
    title: str | None = None,
    status: Status = "published",
    private: bool = False,
    created: str | None = None,
    updated: str | None = None,
    published: str | None = _UNSET,
    **members: Any,
) -> StoryRecord:
    """A story of ``author_id`` at ``slug``, its derived members computed from ``elements``.

    A published story is published at its creation time unless ``published`` says otherwise;
    a working one has no publication time. ``members`` sets any other record member.
    """
    created = created or at(0)
    if published is _UNSET:
        published = created if status == "published" else None
    story = StoryRecord(
        id=story_id or new_id(),
        author_id=author_id,
        title=title if title is not None else slug.replace("-", " ").title(),
        slug=slug,
        status=status,
        private=private,
        created=created,
        updated=updated or created,
        published=published,
        **members,
    )
    return with_derived_members(story, elements)


def add_story(
    store: Store,
    author_id: str,
    slug: str = "story",
    *,
    elements: Sequence[Element] = (),
    **members: Any,
) -> StoryRecord:
    """A new story, stored with ``elements``; the record as stored."""
    story = make_story(author_id, slug, elements=elements, **members)
    store.stories.add_many([(story, elements, story_words(story, elements))])
    return story


def changed(story: StoryRecord, elements: Sequence[Element], **members: Any) -> StoryRecord:
    """The next version of ``story`` (stored with ``elements``): ``members`` applied, version
    and update time advanced, derived members recomputed.
    """
    update = {"version": story.version + 1, "updated": at(60), **members}
    return with_derived_members(story.model_copy(update=update), elements)


def make_app(name: str = "app", *, key_digest: str | None = None) -> AppRecord:
    """An application with a unique (fake) key digest."""
    return AppRecord(
        id=new_id(), name=name, key_digest=key_digest or new_id() * 5 + "0000", created=at(0)
    )


def make_token(
    user_id: str, app_id: str, *, expires: str, digest: str | None = None
) -> TokenRecord:
    """A token of ``user_id`` through ``app_id``, expiring at ``expires``."""
    return TokenRecord(
        digest=digest or new_id() * 5 + "0000",
        user_id=user_id,
        app_id=app_id,
        created=at(0),
        expires=expires,
    )


def heads(stories: Sequence[StoryRecord]) -> list[StoryHead]:
    """What ``find`` answers for these stories: their heads."""
    return [StoryHead.of(story) for story in stories]


def read_elements(store: Store, story_id: str, offset: int = 0, limit: int = 10) -> list[Element]:
    """A slice of the story's elements as ``element_documents`` answers it, as models."""
    return [element_of(d) for d in store.stories.element_documents(story_id, offset, limit)]


def count_view(
    store: Store,
    story_id: str,
    embed_href: str | None = None,
    *,
    max_embed_pages: int = EMBED_PAGES,
) -> None:
    """One view of a story, loaded from ``embed_href`` if given: ``add_views`` of one."""
    embeds = {(story_id, embed_href): 1} if embed_href is not None else {}
    store.stories.add_views({story_id: 1}, embeds, max_embed_pages=max_embed_pages)


#: JSON data a store must keep byte for byte: key order, spacing, escapes and numbers as written
#: (a store that parsed and wrote it again would change them).
AWKWARD_DATA = (
    '{"z": 1.50, "a" :[ "\\u00e9 é \\"q\\" \\u2028 \u2028", {}, null, 10e2],  "m":"<&> \U0001f600"}'
)


def make_event(
    subject: str,
    type: str = "story.saved",
    *,
    minutes: int = 0,
    data: str | None = None,
    event_id: str | None = None,
) -> Event:
    """An event of ``type`` reporting on ``subject`` (a story or user id) at ``at(minutes)``;
    its data names the subject and type unless ``data`` is given."""
    return Event(
        id=event_id or new_event_id(),
        type=type,
        timestamp=at(minutes),
        subject=subject,
        data=data if data is not None else f'{{"id":"{subject}","type":"{type}"}}',
    )


def make_webhook(
    url: str = "https://hooks.example/in",
    *,
    webhook_id: str | None = None,
    events: tuple[str, ...] = ("*",),
    minutes: int = 0,
    secret: str | None = None,
    **members: Any,
) -> WebhookRecord:
    """A webhook for ``events`` created at ``at(minutes)``; ``members`` sets any other member."""
    return WebhookRecord(
        id=webhook_id or new_id(),
        url=url,
        events=events,
        secret=secret or "sealed:" + new_id(),
        created=at(minutes),
        created_by="ed",
        **members,
    )


def make_delivery(
    webhook_id: str,
    event_id: str | None = None,
    *,
    type: str = "story.saved",
    minutes: int = 0,
    due: int | None = 0,
    **members: Any,
) -> Delivery:
    """A pending delivery of ``event_id`` (a new one by default) to ``webhook_id``, made at
    ``at(minutes)`` and due at ``at(due)`` (None: no next attempt); ``members`` sets any other
    member."""
    return Delivery(
        webhook_id=webhook_id,
        event_id=event_id or new_event_id(),
        event_type=type,
        created=at(minutes),
        next_attempt=None if due is None else at(due),
    )._replace(**members)


@contextmanager
def two_stores(template: str, directory: Path) -> Iterator[tuple[Store, Store]]:
    """Two stores opened on one new storage (a file, a database, a schema) that the storage URL
    ``template`` names with ``{dir}`` (filled with ``directory``) or ``{name}``: each with its
    own connection, as two processes open them; the storage goes afterwards. Skips the test
    where each open is a storage of its own (``sqlite://``, ``memory://``) or where
    ``template`` names one lasting store, which the test would write in."""
    if template.rstrip("/") == "sqlite:" or template.startswith("memory://"):
        pytest.skip(f"each store opened on {template} is a storage of its own")
    if "{dir}" not in template and "{name}" not in template:
        pytest.skip(f"{template} names one lasting store, which this test would write in")
    url = template.replace("{dir}", str(directory))
    url = url.replace("{name}", f"storycore_{uuid.uuid4().hex[:12]}")
    with ExitStack() as opened:
        if "{name}" in template:
            opened.callback(_drop_server_database, url)
        first = open_store(url)
        opened.callback(first.close)
        second = open_store(url)
        opened.callback(second.close)
        yield first, second
