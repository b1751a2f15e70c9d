"""The reference backend (``memory://``): plain Python dicts, gone with the store.

It passes the contract suite like every backend, so it shows what each port asks for, and a
host application's tests may run on it (``storycore.testing``). Lists and search scan every
story: right for tests and demos, not for a large store. One ``threading.RLock`` per store
makes each call atomic (``_Part``), and records go in and out as copies (``_copy``).
"""

from __future__ import annotations

import bisect
import functools
import inspect
import threading
from collections.abc import (
    Callable,
    Collection,
    Iterable,
    Iterator,
    Mapping,
    MutableMapping,
    Sequence,
)
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from storycore import ports
from storycore.errors import DuplicateKey, Missing, StaleVersion
from storycore.model import counters, records
from storycore.model.events import Event, EventHead, LoggedEvent, LoggedHead
from storycore.model.heads import AuthorLatest, StoryAddress, StoryHead
from storycore.model.kept import KeptFile, KeptSource
from storycore.model.queries import StoryQuery
from storycore.model.records import AppRecord, Element, StoryRecord, TokenRecord, UserRecord
from storycore.model.revisions import Revision, RevisionHead, RevisionMark, revision_record
from storycore.model.webhooks import Delivery, WebhookRecord
from storycore.rules.usernames import username_key

__all__ = ["MemoryStore"]

T = TypeVar("T")
R = TypeVar("R", bound=BaseModel)


@dataclass(slots=True)
class _State:
    """Every record of one store, by key, and the lock every call holds."""

    lock: threading.RLock = field(default_factory=threading.RLock)
    stories: dict[str, StoryRecord] = field(default_factory=dict)
    elements: dict[str, list[str]] = field(default_factory=dict)  # JSON documents, in order
    words: dict[str, frozenset[str]] = field(default_factory=dict)  # id -> search words
    slugs: dict[tuple[str, str], str] = field(default_factory=dict)  # (author, slug) -> id
    aliases: dict[tuple[str, str], str] = field(default_factory=dict)  # retired slug -> id
    embeds: dict[str, dict[str, int]] = field(default_factory=dict)  # id -> page -> loads
    users: dict[str, UserRecord] = field(default_factory=dict)
    apps: dict[str, AppRecord] = field(default_factory=dict)
    tokens: dict[str, TokenRecord] = field(default_factory=dict)  # by digest
    identities: dict[tuple[str, str], str] = field(default_factory=dict)  # -> user id
    revisions: dict[str, dict[int, Revision]] = field(default_factory=dict)  # id -> version ->
    # the log: its cursor is a position in it, counted from the first event ever logged;
    # ``pruned`` events went from its front, and a pruned one further on is None
    events: list[Event | None] = field(default_factory=list)
    pruned: int = 0
    webhooks: dict[str, WebhookRecord] = field(default_factory=dict)
    deliveries: dict[tuple[str, str], Delivery] = field(default_factory=dict)  # (webhook, event)
    derivation: int | None = None
    sign_in_failures: dict[str, list[str]] = field(default_factory=dict)  # key -> times, sorted
    kept_files: dict[str, tuple[KeptFile, bytes]] = field(default_factory=dict)  # by name
    kept_sources: dict[str, KeptSource] = field(default_factory=dict)  # by address


class _Part:
    """A repository: a view over a store's state. Each public method a subclass defines runs
    holding the lock (a generator's only to start: it takes the lock for each step itself)."""

    def __init__(self, state: _State) -> None:
        self._s = state

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, method in list(vars(cls).items()):
            if inspect.isfunction(method) and not name.startswith("_"):
                setattr(cls, name, _locked(method))


def _locked(method: Callable[..., T]) -> Callable[..., T]:
    @functools.wraps(method)
    def locked(self: _Part, *args: Any, **kwargs: Any) -> T:
        with self._s.lock:
            return method(self, *args, **kwargs)

    return locked


def _copy(record: R) -> R:
    """A copy of ``record`` sharing nothing with it: a JSON round trip costs half as much as
    ``model_copy(deep=True)``."""
    return type(record).model_validate_json(record.model_dump_json())


def _page(items: list[T], offset: int, limit: int) -> list[T]:
    """``limit`` items from ``offset`` (none for a limit below one)."""
    return items[max(offset, 0) :][: max(limit, 0)]


def _visible(story: StoryRecord, query: StoryQuery) -> bool:
    """Whether ``story`` passes the filters of ``query``."""
    return (
        (story.is_public if query.audience == "public" else query.status in (None, story.status))
        and query.author_id in (None, story.author_id)
        and query.slug in (None, story.slug)
        and query.tag in (None, *story.tags)
        and query.topic in (None, *story.topic_keys)
        and query.containing_element in (None, *story.element_permalinks)
        and not (query.featured and story.featured_at is None)
        and not (query.indexed and story.not_indexed)
    )


class _Stories(_Part, ports.StoryRepository):
    """Stories, with their retired slugs (``_State.aliases``)."""

    def add_many(self, stories: Iterable[ports.NewStory], *, events: Sequence[Event] = ()) -> int:
        """One by one, under the lock: the stories before a failure stay."""
        count = 0
        for story, elements, words in stories:
            self._add(story, elements, words)
            self._s.events.extend(event for event in events if event.subject == story.id)
            count += 1
        return count

    def _add(self, story: StoryRecord, elements: Sequence[Element], words: Sequence[str]) -> None:
        slug = (story.author_id, story.slug)
        if story.id in self._s.stories:
            raise DuplicateKey("story.id")
        if slug in self._s.slugs:
            raise DuplicateKey("story.slug")
        if story.author_id not in self._s.users:
            raise Missing("user")
        self._s.aliases.pop(slug, None)
        self._s.slugs[slug] = story.id
        self._store(story, elements, words)

    def _store(
        self, story: StoryRecord, elements: Sequence[Element] | None, words: Sequence[str] | None
    ) -> None:
        self._s.stories[story.id] = _copy(story)
        if elements is not None:  # each as ``element_document`` makes it
            self._s.elements[story.id] = [records.element_document(e) for e in elements]
        if words is not None:
            self._s.words[story.id] = frozenset(words)

    def replace(
        self,
        story: StoryRecord,
        *,
        expected_version: int,
        elements: Sequence[Element] | None = None,
        words: Sequence[str] | None = None,
        revision: RevisionMark | None = None,
        events: Sequence[Event] = (),
    ) -> None:
        stored = self._s.stories.get(story.id)
        if stored is None:
            raise Missing("story")
        if stored.version != expected_version:
            raise StaleVersion(stored.version)
        old, new = (stored.author_id, stored.slug), (stored.author_id, story.slug)
        if old != new:
            if new in self._s.slugs:
                raise DuplicateKey("story.slug")
            self._s.slugs[new] = self._s.slugs.pop(old)
            self._s.aliases.pop(new, None)
            self._s.aliases[old] = story.id
        if revision is not None and revision.keep > 0:
            self._keep_revision(stored, revision)
        kept = story.model_copy(update={k: getattr(stored, k) for k in ports.KEPT_BY_REPLACE})
        self._store(kept, elements, words)
        self._s.events.extend(events)

    def _keep_revision(self, stored: StoryRecord, mark: RevisionMark) -> None:
        as_was = _copy(revision_record(stored))
        kept = self._s.revisions.setdefault(stored.id, {})
        kept[stored.version] = Revision(
            stored.id,
            stored.version,
            mark.replaced,
            mark.by,
            as_was,
            tuple(self._s.elements.get(stored.id, ())),
        )
        for version in sorted(kept)[: max(len(kept) - mark.keep, 0)]:
            del kept[version]

    def due(self, now: str, limit: int) -> list[StoryRecord]:
        found = [
            story
            for story in self._s.stories.values()
            if story.status == "working"
            and story.publish_at is not None
            and story.publish_at <= now
        ]
        found.sort(key=lambda story: (story.publish_at, story.id))
        return [_copy(story) for story in found[: max(limit, 0)]]

    def remove(self, story_id: str, *, events: Sequence[Event] = ()) -> bool:
        story = self._s.stories.pop(story_id, None)
        if story is None:
            return False
        self._s.events.extend(events)
        del self._s.slugs[story.author_id, story.slug]
        for parts in (self._s.elements, self._s.words, self._s.embeds, self._s.revisions):
            parts.pop(story_id, None)
        self._s.aliases = {slug: held for slug, held in self._s.aliases.items() if held != story_id}
        return True

    def set_featured(self, story_id: str, featured_at: str | None) -> None:
        if story := self._s.stories.get(story_id):
            story.featured_at = featured_at

    def add_views(
        self,
        views: MutableMapping[str, int],
        embeds: MutableMapping[tuple[str, str], int],
        *,
        max_embed_pages: int,
    ) -> None:
        """Atomic: the call holds the lock, and nothing in it can fail midway. The popularity
        and the pages kept are the core's (``storycore.model.counters``)."""
        for story_id, count in views.items():
            if story := self._s.stories.get(story_id):
                story.views += count
                story.popularity += counters.popularity(count)
        for (story_id, href), loads in embeds.items():
            if story_id in self._s.stories:
                pages = self._s.embeds.get(story_id, {})
                self._s.embeds[story_id] = counters.pages_after(pages, href, loads, max_embed_pages)

    def get(self, story_id: str) -> StoryRecord | None:
        return _copy(story) if (story := self._s.stories.get(story_id)) else None

    def get_by_slug(self, author_id: str, slug: str) -> StoryRecord | None:
        address = (author_id, slug)
        return self.get(self._s.slugs.get(address) or self._s.aliases.get(address, ""))

    def taken_slugs(self, author_id: str, slugs: Iterable[str]) -> set[str]:
        return {slug for slug in slugs if (author_id, slug) in self._s.slugs}

    def element_documents(self, story_id: str, offset: int, limit: int) -> list[str]:
        return _page(self._s.elements.get(story_id, []), offset, limit)

    def find(self, query: StoryQuery) -> list[StoryHead]:
        def order(story: StoryRecord) -> tuple[bool, Any, str]:
            value = getattr(story, query.sort)  # None sorts below every value
            return (value is not None, "" if value is None else value, story.id)

        found = [story for story in self._s.stories.values() if _visible(story, query)]
        found.sort(key=order, reverse=query.descending)
        return [StoryHead.of(story) for story in _page(found, query.offset, query.limit)]

    def count(self, query: StoryQuery) -> int:
        return sum(1 for story in self._s.stories.values() if _visible(story, query))

    def addresses(self, query: StoryQuery) -> list[StoryAddress]:
        found = sorted(
            (s.author_id, s.id, s.slug, s.updated)
            for s in self._s.stories.values()
            if _visible(s, query)
        )
        return [
            StoryAddress(author_id, slug, updated)
            for author_id, _, slug, updated in _page(found, query.offset, query.limit)
        ]

    def authors(self, query: StoryQuery) -> list[AuthorLatest]:
        latest: dict[str, str] = {}
        for story in self._s.stories.values():
            if _visible(story, query):
                latest[story.author_id] = max(latest.get(story.author_id, ""), story.updated)
        found = [AuthorLatest(*item) for item in sorted(latest.items())]
        return _page(found, query.offset, query.limit)

    def count_authors(self, query: StoryQuery) -> int:
        return len({s.author_id for s in self._s.stories.values() if _visible(s, query)})

    def embeds(self, story_ids: Iterable[str]) -> dict[str, list[records.EmbedCount]]:
        return {
            story_id: [
                records.EmbedCount(href=href, views=n) for href, n in counters.by_loads(pages)
            ]
            for story_id in set(story_ids)
            if (pages := self._s.embeds.get(story_id))
        }

    def author_stats(self, author_ids: Iterable[str]) -> dict[str, records.AuthorStats]:
        """The core's definition (``counters.author_stats``), over every story."""
        loads = {story_id: sum(pages.values()) for story_id, pages in self._s.embeds.items()}
        return counters.author_stats(author_ids, self._s.stories.values(), loads)

    def iter_all(self) -> Iterator[tuple[StoryRecord, list[Element]]]:
        with self._s.lock:
            ids = sorted(self._s.stories)
        for story_id in ids:
            with self._s.lock:
                story, documents = self.get(story_id), self._s.elements.get(story_id, [])
            if story is not None:  # removed meanwhile
                yield story, [records.element_of(document) for document in documents]


class _Revisions(_Part, ports.RevisionRepository):
    """Revisions by story and version; taken by ``_Stories.replace``."""

    def _newest_first(self, story_id: str) -> list[Revision]:
        kept = self._s.revisions.get(story_id, {})
        return [kept[version] for version in sorted(kept, reverse=True)]

    def heads(self, story_id: str, offset: int, limit: int) -> list[RevisionHead]:
        return [r.head for r in _page(self._newest_first(story_id), offset, limit)]

    def count(self, story_id: str) -> int:
        return len(self._s.revisions.get(story_id, {}))

    def get(self, story_id: str, version: int) -> Revision | None:
        found = self._s.revisions.get(story_id, {}).get(version)
        return None if found is None else found._replace(record=_copy(found.record))

    def of_story(self, story_id: str) -> list[Revision]:
        return [r._replace(record=_copy(r.record)) for r in self._newest_first(story_id)[::-1]]

    def add_many(self, revisions: Iterable[Revision]) -> int:
        """One by one, under the lock: the revisions before a failure stay."""
        count = 0
        for revision in revisions:
            if revision.story_id not in self._s.stories:
                raise Missing("story")
            kept = self._s.revisions.setdefault(revision.story_id, {})
            if revision.version in kept:
                raise DuplicateKey("revision")
            kept[revision.version] = revision._replace(record=_copy(revision.record))
            count += 1
        return count


class _Search(_Part, ports.SearchIndex):
    def search(self, words: Sequence[str], offset: int, limit: int) -> list[StoryRecord]:
        found = [s for s in self._s.stories.values() if s.is_public and self._holds(s, words)]
        found.sort(key=lambda story: (story.published or "", story.id), reverse=True)
        return [_copy(story) for story in _page(found, offset, limit)]

    def count(self, words: Sequence[str]) -> int:
        return sum(1 for s in self._s.stories.values() if s.is_public and self._holds(s, words))

    def _holds(self, story: StoryRecord, words: Sequence[str]) -> bool:
        """Whether every word is one of the story's search tokens or of its author's."""
        author = self._s.users.get(story.author_id)
        theirs = author.search_tokens if author else ()
        its = self._s.words.get(story.id, frozenset())
        return bool(words) and all(w in its or w in theirs for w in words)


def _put_user(state: _State, user: UserRecord, *, new: bool) -> None:
    """Store a copy of ``user``, a new one or over the stored one. Search reads the author's
    tokens from here, so their stories follow at once."""
    if new and user.id in state.users:
        raise DuplicateKey("user.id")
    if not new and user.id not in state.users:
        raise Missing("user")
    key = username_key(user.username)
    if any(username_key(u.username) == key and u.id != user.id for u in state.users.values()):
        raise DuplicateKey("user.username")
    state.users[user.id] = _copy(user)


class _Users(_Part, ports.UserRepository):
    def add(self, user: UserRecord, *, events: Sequence[Event] = ()) -> None:
        _put_user(self._s, user, new=True)
        self._s.events.extend(events)

    def get(self, user_id: str) -> UserRecord | None:
        return self.get_many([user_id]).get(user_id)

    def get_by_username(self, username: str) -> UserRecord | None:
        key = username_key(username)
        found = [u for u in self._s.users.values() if username_key(u.username) == key]
        return _copy(found[0]) if found else None

    def get_many(self, user_ids: Iterable[str]) -> dict[str, UserRecord]:
        found = [user for uid in set(user_ids) if (user := self._s.users.get(uid))]
        return {user.id: _copy(user) for user in found}

    def update(
        self, user_id: str, changes: Mapping[str, Any], *, events: Sequence[Event] = ()
    ) -> None:
        if not (stored := self._s.users.get(user_id)):
            raise Missing("user")
        _put_user(self._s, stored.model_copy(update=changes), new=False)
        self._s.events.extend(events)

    def find(self, offset: int, limit: int) -> list[UserRecord]:
        users = sorted(self._s.users.values(), key=lambda u: (username_key(u.username), u.id))
        return [_copy(user) for user in _page(users, offset, limit)]

    def count(self) -> int:
        return len(self._s.users)


class _Applications(_Part, ports.ApplicationRepository):
    def _put(self, app: AppRecord, *, new: bool) -> None:
        if new and app.id in self._s.apps:
            raise DuplicateKey("app.id")
        if not new and app.id not in self._s.apps:
            raise Missing("app")
        others = [other for other in self._s.apps.values() if other.id != app.id]
        for key in ("name", "key_digest"):
            if any(getattr(other, key) == getattr(app, key) for other in others):
                raise DuplicateKey(f"app.{key}")
        self._s.apps[app.id] = _copy(app)

    def _one(self, member: str, value: str) -> AppRecord | None:
        found = [app for app in self._s.apps.values() if getattr(app, member) == value]
        return _copy(found[0]) if found else None

    def add(self, app: AppRecord) -> None:
        self._put(app, new=True)

    def get(self, app_id: str) -> AppRecord | None:
        return self._one("id", app_id)

    def get_by_key_digest(self, key_digest: str) -> AppRecord | None:
        return self._one("key_digest", key_digest)

    def get_by_name(self, name: str) -> AppRecord | None:
        return self._one("name", name)

    def update(self, app_id: str, changes: Mapping[str, Any]) -> None:
        if not (stored := self._s.apps.get(app_id)):
            raise Missing("app")
        self._put(stored.model_copy(update=changes), new=False)

    def find(self, offset: int, limit: int) -> list[AppRecord]:
        apps = sorted(self._s.apps.values(), key=lambda app: (app.name, app.id))
        return [_copy(app) for app in _page(apps, offset, limit)]


class _Tokens(_Part, ports.TokenRepository):
    def add(self, token: TokenRecord) -> None:
        if token.digest in self._s.tokens:
            raise DuplicateKey("token.digest")
        self._s.tokens[token.digest] = _copy(token)

    def get(self, digest: str) -> TokenRecord | None:
        return _copy(token) if (token := self._s.tokens.get(digest)) else None

    def remove(self, digest: str) -> bool:
        return self._s.tokens.pop(digest, None) is not None

    def remove_expired(self, now: str) -> int:
        kept = {digest: t for digest, t in self._s.tokens.items() if t.expires > now}
        removed, self._s.tokens = len(self._s.tokens) - len(kept), kept
        return removed

    def remove_others_of_user(self, user_id: str, keep: str | None) -> int:
        ended = [d for d, t in self._s.tokens.items() if t.user_id == user_id and d != keep]
        for digest in ended:
            del self._s.tokens[digest]
        return len(ended)


class _Identities(_Part, ports.IdentityRepository):
    def get(self, provider: str, external_id: str) -> str | None:
        return self._s.identities.get((provider, external_id))

    def add_user(
        self,
        provider: str,
        external_id: str,
        user: UserRecord,
        *,
        events: Sequence[Event] = (),
    ) -> None:
        if (provider, external_id) in self._s.identities:
            raise DuplicateKey("identity")
        _put_user(self._s, user, new=True)
        self._s.identities[provider, external_id] = user.id
        self._s.events.extend(events)


class _Events(_Part, ports.EventLog):
    """The log is a list: one writer at a time (the lock), so list order is commit order."""

    def after(self, cursor: str | None, limit: int) -> list[LoggedEvent]:
        log, pruned = self._s.events, self._s.pruned
        start = 0 if cursor is None else _index(cursor, pruned + len(log))
        found: list[LoggedEvent] = []
        for index in range(max(start - pruned, 0), len(log)):
            if len(found) >= limit:
                break
            if (event := log[index]) is not None:
                found.append(LoggedEvent(str(pruned + index + 1), event))
        return found

    def heads_after(self, cursor: str | None, limit: int) -> list[LoggedHead]:
        return [
            LoggedHead(logged.cursor, EventHead(*logged.event[:3]))
            for logged in self.after(cursor, limit)
        ]

    def end(self) -> str | None:
        return str(self._s.pruned + len(self._s.events)) if self._s.events else None

    def get_many(self, event_ids: Iterable[str]) -> dict[str, Event]:
        wanted = set(event_ids)
        return {e.id: e for e in self._s.events if e is not None and e.id in wanted}

    def prune(self, before: str) -> int:
        log = self._s.events
        held = {d.event_id for d in self._s.deliveries.values() if d.state == "pending"}
        gone = 0
        for index, event in enumerate(log[:-1]):
            if event is not None and event.timestamp < before and event.id not in held:
                log[index] = None
                gone += 1
        front = next(index for index, event in enumerate(log) if event is not None) if log else 0
        del log[:front]  # the front is only counted
        self._s.pruned += front
        return gone


def _index(cursor: str, length: int) -> int:
    """The position after the event a cursor stands for; ``Missing`` for any text but the
    ``str(n)`` this log hands out, ``n`` from 1 to its ``length`` (a cursor past the end, as
    another store's would be, would otherwise read nothing, silently, until this log grew)."""
    if not (cursor.isascii() and cursor.isdigit()) or len(cursor) > 18:
        raise Missing("cursor")
    index = int(cursor)
    if str(index) != cursor or not 1 <= index <= length:
        raise Missing("cursor")
    return index


class _Webhooks(_Part, ports.WebhookRepository):
    def add(self, webhook: WebhookRecord) -> None:
        if webhook.id in self._s.webhooks:
            raise DuplicateKey("webhook.id")
        self._s.webhooks[webhook.id] = _copy(webhook)

    def get(self, webhook_id: str) -> WebhookRecord | None:
        return _copy(found) if (found := self._s.webhooks.get(webhook_id)) else None

    def find(self, offset: int, limit: int) -> list[WebhookRecord]:
        hooks = sorted(self._s.webhooks.values(), key=lambda hook: (hook.created, hook.id))
        return [_copy(hook) for hook in _page(hooks, offset, limit)]

    def update(self, webhook_id: str, changes: Mapping[str, Any]) -> None:
        if not (stored := self._s.webhooks.get(webhook_id)):
            raise Missing("webhook")
        self._s.webhooks[webhook_id] = stored.model_copy(update=changes)

    def advance(self, webhook_id: str, expected: str | None, cursor: str) -> bool:
        stored = self._s.webhooks.get(webhook_id)
        if stored is None or stored.cursor != expected:
            return False
        stored.cursor = cursor
        return True

    def remove(self, webhook_id: str) -> bool:
        if self._s.webhooks.pop(webhook_id, None) is None:
            return False
        kept = {key: d for key, d in self._s.deliveries.items() if key[0] != webhook_id}
        self._s.deliveries = kept
        return True


class _Deliveries(_Part, ports.DeliveryRepository):
    def add_many(self, deliveries: Iterable[Delivery]) -> int:
        added = 0
        for delivery in deliveries:
            key = (delivery.webhook_id, delivery.event_id)
            if key not in self._s.deliveries:
                self._s.deliveries[key] = delivery
                added += 1
        return added

    def claim(
        self, now: str, until: str, owner: str, limit: int, skip: Collection[str] = ()
    ) -> list[Delivery]:
        passed_over = set(skip)
        due = [
            d
            for d in self._s.deliveries.values()
            if d.state == "pending"
            and d.webhook_id not in passed_over
            and d.next_attempt is not None
            and d.next_attempt <= now
            and (d.leased_until is None or d.leased_until <= now)
        ]
        due.sort(key=lambda d: (d.next_attempt or "", d.webhook_id, d.event_id))
        claimed = [d._replace(leased_until=until, leased_by=owner) for d in due[: max(limit, 0)]]
        for delivery in claimed:
            self._s.deliveries[delivery.webhook_id, delivery.event_id] = delivery
        return claimed

    def finish(self, delivery: Delivery, owner: str) -> bool:
        key = (delivery.webhook_id, delivery.event_id)
        stored = self._s.deliveries.get(key)
        if stored is None or stored.leased_by != owner:
            return False
        self._s.deliveries[key] = delivery._replace(leased_until=None, leased_by=None)
        return True

    def get(self, webhook_id: str, event_id: str) -> Delivery | None:
        return self._s.deliveries.get((webhook_id, event_id))

    def _of(self, webhook_id: str) -> list[Delivery]:
        return [d for key, d in self._s.deliveries.items() if key[0] == webhook_id]

    def of_webhook(self, webhook_id: str, offset: int, limit: int) -> list[Delivery]:
        found = sorted(self._of(webhook_id), key=lambda d: (d.created, d.event_id), reverse=True)
        return _page(found, offset, limit)

    def count(self, webhook_id: str) -> int:
        return len(self._of(webhook_id))

    def redeliver(self, webhook_id: str, event_id: str, now: str) -> bool:
        stored = self._s.deliveries.get((webhook_id, event_id))
        if stored is None:
            return False
        self._s.deliveries[webhook_id, event_id] = stored._replace(
            state="pending", failures=0, next_attempt=now, leased_until=None, leased_by=None
        )
        return True


class _SignInFailures(_Part, ports.SignInFailures):
    """Each key's failure times, kept sorted: ``since`` is a bisection and a slice."""

    def add(self, keys: Sequence[str], at: str) -> None:
        for key in keys:
            bisect.insort(self._s.sign_in_failures.setdefault(key, []), at)

    def since(self, key: str, after: str, limit: int) -> list[str]:
        times = self._s.sign_in_failures.get(key, [])
        return _page(times, bisect.bisect_right(times, after), limit)

    def prune(self, before: str) -> int:
        removed = 0
        for key, times in list(self._s.sign_in_failures.items()):
            gone = bisect.bisect_right(times, before)
            removed += gone
            if gone == len(times):
                del self._s.sign_in_failures[key]
            else:
                del times[:gone]
        return removed


class _KeptFiles(_Part, ports.KeptFiles):
    """Each file's members and bytes (immutable), by name."""

    def put(self, file: KeptFile, data: bytes) -> None:
        stored = self._s.kept_files.get(file.name)
        if stored is None:
            self._s.kept_files[file.name] = (file, bytes(data))
        elif stored[0].at < file.at:
            self._s.kept_files[file.name] = (stored[0]._replace(at=file.at), stored[1])

    def head(self, name: str) -> KeptFile | None:
        stored = self._s.kept_files.get(name)
        return None if stored is None else stored[0]

    def get(self, name: str) -> tuple[KeptFile, bytes] | None:
        return self._s.kept_files.get(name)

    def scan(self, after: str | None, limit: int) -> list[KeptFile]:
        names = sorted(name for name in self._s.kept_files if after is None or name > after)
        return [self._s.kept_files[name][0] for name in _page(names, 0, limit)]

    def delete(self, names: Collection[str]) -> int:
        return sum(self._s.kept_files.pop(name, None) is not None for name in set(names))

    def delete_unshown(self, before: str, limit: int) -> list[str]:
        shown = {copy.name for s in self._s.kept_sources.values() for copy in s.copies}
        unshown = sorted(
            (file.at, name)
            for name, (file, _) in self._s.kept_files.items()
            if file.at < before and name not in shown
        )
        gone = [name for _, name in _page(unshown, 0, limit)]
        for name in gone:
            del self._s.kept_files[name]
        return gone


class _KeptSources(_Part, ports.KeptSources):
    """Each source address's record, by address."""

    def want(
        self,
        addresses: Collection[str],
        at: str,
        story: str | None = None,
        stale: str | None = None,
    ) -> int:
        new = 0
        for address in dict.fromkeys(addresses):
            stored = self._s.kept_sources.get(address)
            if stored is None:
                wanted = KeptSource(address, at, next_attempt=at, wanted_by=story)
                self._s.kept_sources[address] = wanted
                new += 1
            else:
                wanted_by = stored.wanted_by or story
                seen = at if stale is None or stored.seen < stale else stored.seen
                self._s.kept_sources[address] = stored._replace(seen=seen, wanted_by=wanted_by)
        return new

    def touch(self, addresses: Collection[str], at: str) -> int:
        stored = [s for a in set(addresses) if (s := self._s.kept_sources.get(a)) is not None]
        for source in stored:
            self._s.kept_sources[source.address] = source._replace(seen=at)
        return len(stored)

    def get_many(self, addresses: Iterable[str]) -> dict[str, KeptSource]:
        return {a: s for a in addresses if (s := self._s.kept_sources.get(a)) is not None}

    def claim(self, now: str, until: str, owner: str, limit: int) -> list[KeptSource]:
        due = [
            s
            for s in self._s.kept_sources.values()
            if s.next_attempt is not None
            and s.next_attempt <= now
            and (s.leased_until is None or s.leased_until <= now)
        ]
        due.sort(key=lambda s: (s.next_attempt or "", s.address))
        claimed = [s._replace(leased_until=until, leased_by=owner) for s in _page(due, 0, limit)]
        for source in claimed:
            self._s.kept_sources[source.address] = source
        return claimed

    def finish(self, source: KeptSource, owner: str) -> bool:
        stored = self._s.kept_sources.get(source.address)
        if stored is None or stored.leased_by != owner:
            return False
        self._s.kept_sources[source.address] = source._replace(
            seen=stored.seen, wanted_by=stored.wanted_by, leased_until=None, leased_by=None
        )
        return True

    def retry_failed(self, now: str) -> int:
        failed = [
            s
            for s in self._s.kept_sources.values()
            if s.state == "failed" and s.next_attempt is None
        ]
        for source in failed:
            self._s.kept_sources[source.address] = source._replace(next_attempt=now, attempts=0)
        return len(failed)

    def scan(self, after: str | None, limit: int) -> list[KeptSource]:
        addresses = sorted(a for a in self._s.kept_sources if after is None or a > after)
        return [self._s.kept_sources[a] for a in _page(addresses, 0, limit)]

    def restore(self, sources: Iterable[KeptSource]) -> None:
        for source in sources:
            self._s.kept_sources[source.address] = source._replace(
                leased_until=None, leased_by=None
            )

    def forget(self, before: str) -> int:
        old = [a for a, s in self._s.kept_sources.items() if s.seen < before]
        for address in old:
            del self._s.kept_sources[address]
        return len(old)


class MemoryStore(ports.Store):
    """Every repository over one new, empty set of dicts."""

    #: Every call holds the one lock (and the GIL): more threads would only queue.
    parallel_calls = 1

    def __init__(self) -> None:
        self._open(_State())

    def _open(self, state: _State) -> None:
        self._state = state
        self.stories, self.search = _Stories(state), _Search(state)
        self.revisions = _Revisions(state)
        self.users, self.apps = _Users(state), _Applications(state)
        self.tokens, self.identities = _Tokens(state), _Identities(state)
        self.events, self.webhooks = _Events(state), _Webhooks(state)
        self.deliveries = _Deliveries(state)
        self.sign_in_failures = _SignInFailures(state)
        self.kept_files, self.kept_sources = _KeptFiles(state), _KeptSources(state)

    def derivation(self) -> int | None:
        return self._state.derivation

    def set_derivation(self, version: int) -> None:
        self._state.derivation = version

    def close(self) -> None:
        """Drop every record: the memory goes back even while the store is referenced."""
        self._open(_State())
