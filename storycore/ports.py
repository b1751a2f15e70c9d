"""The storage ports: what the service needs from a backend, as ``typing.Protocol``s.

Every adapter implements all of them and passes the one contract suite in ``tests/contract``.
Adapters raise storage errors only (``storycore.errors``): ``DuplicateKey`` naming the key,
``StaleVersion``, ``Missing`` and ``Unavailable``, each translated once from the driver's own;
the service words what a caller is told (``storycore.usecases.wording``).
"Atomic" below means: either every change of the call is stored, or none is, also across
processes that share the storage, and a reader never sees half of it.

Every write that reports a change takes the ``events`` that report it (docs/webhooks.md)
and stores them in the same atomic write, so a change without its event, or an event without
its change, never exists; the ``EventLog`` hands them out. Those writes are ``add_many``,
``replace`` and ``remove`` of stories, ``add`` and ``update`` of users and
``IdentityRepository.add_user``; an event goes with the write of the record its ``subject``
names.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, MutableMapping, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

from .model.events import Event, LoggedEvent, LoggedHead
from .model.heads import AuthorLatest, ProfileFields, StoryAddress, StoryHead
from .model.kept import KeptFile, KeptSource
from .model.queries import StoryQuery
from .model.records import (
    AppRecord,
    AuthorStats,
    Element,
    EmbedCount,
    Stored,
    StoryRecord,
    TokenRecord,
    UserRecord,
)
from .model.revisions import STORY_OWN, Revision, RevisionHead, RevisionMark
from .model.webhooks import Delivery, WebhookRecord

__all__ = [
    "KEPT_BY_REPLACE",
    "ApplicationRepository",
    "DeliveryRepository",
    "EventLog",
    "IdentityRepository",
    "KeptFiles",
    "KeptSources",
    "NewStory",
    "RevisionRepository",
    "SearchIndex",
    "SignInFailures",
    "Store",
    "StoryRead",
    "StoryRepository",
    "TokenRepository",
    "UserRepository",
    "WebhookRepository",
    "whole_record",
]

#: The members ``StoryRepository.replace`` keeps as stored, whatever the new record holds: the
#: counters and the featured mark change through their own methods; a story never changes author.
KEPT_BY_REPLACE = STORY_OWN | {"author_id"}

#: A new story as ``StoryRepository.add_many`` takes it: the record, its elements, its search
#: words.
NewStory = tuple[StoryRecord, Sequence[Element], Sequence[str]]


def whole_record(record: UserRecord | AppRecord) -> dict[str, Any]:
    """The changes with which ``update`` stores ``record`` whole over the stored one: every
    member but its id, nested models kept as models (``update`` does not validate them)."""
    return {name: getattr(record, name) for name in type(record).model_fields if name != "id"}


@runtime_checkable
class StoryRepository(Protocol):
    """Stories with their elements, counters and slug history."""

    def add_many(self, stories: Iterable[NewStory], *, events: Sequence[Event] = ()) -> int:
        """Store new stories, each with its elements (in order) and its search ``words``;
        returns how many. The one way to store a new story: one alone is
        ``add_many([(story, elements, words)])``.

        ``words`` are the story's search tokens as the core derived them
        (``storycore.model.derived.story_words``); ``SearchIndex.search`` matches them. Each
        story is stored atomically. Raises ``DuplicateKey("story.slug")`` when ``story.author_id``
        already has a story at ``story.slug`` (an earlier one of ``stories`` included),
        ``DuplicateKey("story.id")`` for a stored id, and ``Missing("user")`` where the store
        knows the author is not stored; then that story is not stored. A retired slug (an
        alias) at that place is freed: the alias stops and the new story takes the slug. The
        record is stored as given, counters and ``featured_at`` included (an import restores
        them). Each of ``events`` is stored with the story its ``subject`` names.

        Adapters that can store them all in one transaction do, and then a failure (a refused
        story, an error raised while ``stories`` is consumed) stores none of them: SQLite and
        PostgreSQL do. Elsewhere (MongoDB, memory) they are stored one by one, the stories
        before the failure stay stored, and the caller removes them if it must (imports do).
        """
        ...

    def get(self, story_id: str) -> StoryRecord | None:
        """The story with this id, or None."""
        ...

    def get_by_slug(self, author_id: str, slug: str) -> StoryRecord | None:
        """The author's story that lives at ``slug`` now; when none does, the author's story
        for which ``slug`` is a retired slug (an alias: the story left it, and lives at
        ``story.slug`` now); else None. A caller tells the two apart by comparing
        ``story.slug`` with ``slug``.

        A slug change makes the old slug an alias of the story (``replace``), a chain of
        changes leaves each old slug leading to the story's live slug, and an alias stops when
        a story comes to live at its slug (``add_many``, ``replace``) or its story is removed.
        """
        ...

    def taken_slugs(self, author_id: str, slugs: Collection[str]) -> set[str]:
        """Those of ``slugs`` at which the author has a story now (aliases do not count)."""
        ...

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
        """Replace the stored story ``story.id`` by ``story``, atomically, if it is unchanged.

        Raises ``StaleVersion`` when the stored version is not ``expected_version`` (a
        concurrent write came first), ``Missing("story")`` when the story is gone, and
        ``DuplicateKey("story.slug")`` when ``story.slug`` is another live story's; in each
        case nothing changes. When the
        slug changes, the old slug becomes an alias of the story and an alias at the new slug
        stops. ``elements`` replaces all elements, and ``words`` the search words, when given;
        None keeps them as stored. The
        counters (views, popularity, ...) and ``featured_at`` are kept as stored, whatever
        ``story`` holds: they change only through their own methods. So is ``author_id``: a
        story never changes author.

        With ``revision``, the stored story as it was (its record and its elements, before this
        replacement) is kept in the same atomic write as a revision at its stored version
        (``RevisionRepository``), replaced at ``revision.replaced`` by ``revision.by``; then
        the story's oldest revisions beyond ``revision.keep`` are dropped (``keep`` 0: none is
        kept, and the replacement costs what it did without revisions). ``events`` are stored
        in the same atomic write.
        """
        ...

    def due(self, now: str, limit: int) -> list[StoryRecord]:
        """Working stories whose ``publish_at`` is ``now`` or earlier
        (docs/api.md#scheduled-publishing),
        earliest ``publish_at`` first (then by id), at most ``limit``: a walk of an index over
        the scheduled stories, which costs one lookup when none is due.
        """
        ...

    def remove(self, story_id: str, *, events: Sequence[Event] = ()) -> bool:
        """Delete the story, its elements, aliases, embed counts, search entry and revisions,
        atomically, with ``events``.

        Returns whether it existed; when it did not, ``events`` are not stored.
        """
        ...

    def set_featured(self, story_id: str, featured_at: str | None) -> None:
        """Mark the story featured since ``featured_at``, or not featured when None."""
        ...

    def element_documents(self, story_id: str, offset: int, limit: int) -> list[str]:
        """A slice of the story's elements, in story order, each as its JSON document
        (``storycore.model.records.element_document``, the form answers show): answers serialized
        anyway need no models, and ``storycore.model.records.element_of`` makes one where needed.
        """
        ...

    def find(self, query: StoryQuery) -> list[StoryHead]:
        """The stories matching ``query``, in its total order, sliced by offset and limit, as
        heads: what a list item shows.
        """
        ...

    def count(self, query: StoryQuery) -> int:
        """How many stories match ``query`` across all its pages (its offset, limit and order
        play no part): the ``total`` a list shows when asked (docs/decisions.md).
        """
        ...

    def addresses(self, query: StoryQuery) -> list[StoryAddress]:
        """The author, slug and last change of each story matching ``query``'s filters, by
        author id then story id, sliced by its offset and limit (its sort plays no part): what
        a sitemap names of a story (docs/api.md#crawlers), read without the stories' records.
        A walk of one index in that order, so that any page of 50,000 costs about as much as
        the first.
        """
        ...

    def authors(self, query: StoryQuery) -> list[AuthorLatest]:
        """Each author of a story matching ``query``'s filters, with the latest ``updated``
        among those stories, by author id, sliced by its offset and limit (its sort plays no
        part): the author pages a sitemap names (docs/api.md#crawlers).
        """
        ...

    def count_authors(self, query: StoryQuery) -> int:
        """How many authors ``authors`` names across all its pages."""
        ...

    def add_views(
        self,
        views: MutableMapping[str, int],
        embeds: MutableMapping[tuple[str, str], int],
        *,
        max_embed_pages: int,
    ) -> None:
        """Add ``views[story_id]`` views to each story, with the popularity the core says they
        make (``storycore.model.counters.popularity(n)``), and ``embeds[(story_id, page)]`` loads to
        each page of a story's embed, without reading the stories first: counts are added
        (``views = views + n``), never written over, so processes counting the same story lose
        nothing. Stories that are gone are skipped.

        A story keeps at most ``max_embed_pages`` embed pages (docs/api.md#limits), in
        ``embeds`` order: a page already kept is counted; a new page is kept, with its loads,
        once the pages ``storycore.model.counters.pages_dropped`` names are dropped (the store calls
        it in its transaction, over the story's kept pages). The story's view count keeps
        every load; ``author_stats`` counts the loads of the kept pages only.

        Atomic where the store has transactions. Where it has none, story by story: each
        story's entries are removed from ``views`` and ``embeds`` once stored, so what is left
        after an error was not stored (but for the story under way when a connection is lost,
        which no store can know).
        """
        ...

    def embeds(self, story_ids: Iterable[str]) -> dict[str, list[EmbedCount]]:
        """The pages that loaded each story's embed, most views first, then by address.

        Stories with no embed are absent from the answer.
        """
        ...

    def author_stats(self, author_ids: Iterable[str]) -> dict[str, AuthorStats]:
        """Per author, over their public stories only: how many, their total views and embed
        loads, the newest one's creation time, the newest feature time and the featured story
        ids (newest feature first). Every asked author is in the answer. What each figure is,
        is ``storycore.model.counters.author_stats`` over the stored stories and their kept pages; a
        store may keep the figures as counters, which must equal it.
        """
        ...

    def iter_all(self) -> Iterator[tuple[StoryRecord, list[Element]]]:
        """Every story with all its elements, one at a time, in id order (for export)."""
        ...


@runtime_checkable
class RevisionRepository(Protocol):
    """Stories as they were before each change (docs/api.md#revisions). Revisions are taken by
    ``StoryRepository.replace`` and go with their story (``StoryRepository.remove``); this port
    reads them, and stores those an import brings."""

    def heads(self, story_id: str, offset: int, limit: int) -> list[RevisionHead]:
        """The story's revisions, newest (highest version) first, sliced."""
        ...

    def count(self, story_id: str) -> int:
        """How many revisions the story has."""
        ...

    def get(self, story_id: str, version: int) -> Revision | None:
        """The story's revision at ``version`` whole, or None."""
        ...

    def of_story(self, story_id: str) -> list[Revision]:
        """All the story's revisions whole, oldest first (for export)."""
        ...

    def add_many(self, revisions: Iterable[Revision]) -> int:
        """Store revisions as given (an import), each atomically; returns how many.
        ``Missing("story")`` when a revision's story is not stored, ``DuplicateKey("revision")``
        when the story has a revision at that version; then that revision is not stored. No
        limit is applied: the import's source kept at most its own.
        """
        ...


@runtime_checkable
class SearchIndex(Protocol):
    """Full-text search over public stories."""

    def search(self, words: Sequence[str], offset: int, limit: int) -> list[StoryRecord]:
        """Public stories (published, not private) holding every one of ``words``.

        ``words`` are normalized tokens (``storycore.rules.searchtext.tokens``). A word matches
        when it is one of the story's search words or of its author's ``search_tokens``;
        different words may match in different places. Order: ``published`` descending, then
        id descending. Kept in step with every story and user write, in the same transaction.
        """
        ...

    def search_stored(self, words: Sequence[str], offset: int, limit: int) -> list[Stored]:
        """``search``'s stories as their members (``records.Stored``: as ``stored_story``
        gives them), for an answer made as a document (docs/architecture.md#answers). This
        default derives them from the records; adapters may read them without making one."""
        return [dict(story.__dict__) for story in self.search(words, offset, limit)]

    def count(self, words: Sequence[str]) -> int:
        """How many public stories ``search`` finds for ``words`` across all pages."""
        ...


@runtime_checkable
class UserRepository(Protocol):
    """User accounts."""

    def add(self, user: UserRecord, *, events: Sequence[Event] = ()) -> None:
        """Store a new user, with ``events``. Raises ``DuplicateKey("user.username")`` when the
        username is taken regardless of case and ``DuplicateKey("user.id")`` for a stored id;
        then nothing is stored.
        """
        ...

    def get(self, user_id: str) -> UserRecord | None:
        """The user with this id, or None."""
        ...

    def get_by_username(self, username: str) -> UserRecord | None:
        """The user with this username, compared regardless of case, or None."""
        ...

    def get_many(self, user_ids: Iterable[str]) -> dict[str, UserRecord]:
        """The users with these ids that exist, by id."""
        ...

    def get_many_stored(self, user_ids: Iterable[str]) -> dict[str, Stored]:
        """``get_many``'s users as their members (``records.Stored``: as ``stored_user``
        gives them), for an answer made as a document. This default derives them from the
        records; adapters may read them without making one."""
        return {uid: dict(user.__dict__) for uid, user in self.get_many(user_ids).items()}

    def profiles(self, user_ids: Iterable[str]) -> dict[str, ProfileFields]:
        """The public profile members of the users with these ids that exist, by id. This
        default derives them from whole records; adapters may read them without decoding.
        """
        return {uid: ProfileFields.of(user) for uid, user in self.get_many(user_ids).items()}

    def update(
        self, user_id: str, changes: Mapping[str, Any], *, events: Sequence[Event] = ()
    ) -> None:
        """Set the named members of the stored user to these values and leave every other
        member as it is stored, atomically, with the unique username key when ``username`` is
        among them, and with the search entries of the user's stories when ``search_tokens``
        is (the stories match the user's new tokens afterwards). The one way to change a
        stored user: a whole record is every member but ``id`` (nested models as models). A
        targeted update: a concurrent update of other members is never lost, so a caller
        writes a whole record only when it means every member (an import and its undo).

        ``changes`` names members of ``UserRecord`` other than ``id``, with values of their
        types. Raises ``Missing("user")`` when there is no such user, and
        ``DuplicateKey("user.username")`` when a new ``username`` is another user's,
        regardless of case; then nothing changes (``events`` included).
        """
        ...

    def find(self, offset: int, limit: int) -> list[UserRecord]:
        """Users ordered by username regardless of case, sliced."""
        ...

    def count(self) -> int:
        """How many users there are."""
        ...


@runtime_checkable
class ApplicationRepository(Protocol):
    """Applications and their api keys."""

    def add(self, app: AppRecord) -> None:
        """Store a new application. Raises ``DuplicateKey`` (``app.name``, ``app.key_digest``
        or ``app.id``) when one is taken; then nothing is stored.
        """
        ...

    def get(self, app_id: str) -> AppRecord | None:
        """The application with this id, or None."""
        ...

    def get_by_key_digest(self, key_digest: str) -> AppRecord | None:
        """The application whose api key has this SHA-256 hex digest, or None."""
        ...

    def get_by_name(self, name: str) -> AppRecord | None:
        """The application with this name, or None."""
        ...

    def update(self, app_id: str, changes: Mapping[str, Any]) -> None:
        """Set the named members of the stored application (members of ``AppRecord`` other
        than ``id``) and leave the others as stored, atomically: the one way to change a stored
        application (a whole record is every member but ``id``). ``Missing("app")`` if absent;
        ``DuplicateKey`` as ``add`` (``app.name``, ``app.key_digest``) when a new name or key is
        another application's; then nothing changes.
        """
        ...

    def find(self, offset: int, limit: int) -> list[AppRecord]:
        """Applications ordered by name, sliced."""
        ...


@runtime_checkable
class TokenRepository(Protocol):
    """User tokens, by digest."""

    def add(self, token: TokenRecord) -> None:
        """Store a new token; ``DuplicateKey("token.digest")`` for a stored digest."""
        ...

    def get(self, digest: str) -> TokenRecord | None:
        """The token with this SHA-256 hex digest, or None (expired ones included)."""
        ...

    def remove(self, digest: str) -> bool:
        """Delete the token with this digest (a revocation); whether there was one."""
        ...

    def remove_expired(self, now: str) -> int:
        """Delete tokens whose ``expires`` is ``now`` or earlier (the service refuses those);
        returns how many.
        """
        ...

    def remove_others_of_user(self, user_id: str, keep: str | None) -> int:
        """Delete every token of the user ``user_id``, through any application, but the one
        whose digest is ``keep`` (a password change ends every other session); returns how
        many.
        """
        ...


@runtime_checkable
class IdentityRepository(Protocol):
    """Links from an identity at a provider to the service user made for it."""

    def get(self, provider: str, external_id: str) -> str | None:
        """The id of the user linked to this identity, or None."""
        ...

    def add_user(
        self,
        provider: str,
        external_id: str,
        user: UserRecord,
        *,
        events: Sequence[Event] = (),
    ) -> None:
        """Store ``user`` and link the identity to it, with ``events``, atomically. Raises
        ``DuplicateKey("user.username")`` when the username is taken regardless of case, and
        ``DuplicateKey("identity")`` when the identity is linked already; in both cases
        nothing is stored.
        """
        ...


@runtime_checkable
class EventLog(Protocol):
    """The events the reporting writes stored, in the order those writes were committed."""

    def after(self, cursor: str | None, limit: int) -> list[LoggedEvent]:
        """At most ``limit`` events logged after ``cursor`` (None: from the first), oldest
        first, each with the cursor that reads on after it.

        Commit order: a reader that goes on from the last cursor it was given never misses an
        event, also one whose write began before an event it has read but was committed after
        it (the log hands out an event only once every write that could come before it has
        ended). ``Missing("cursor")`` for a cursor this log did not make.
        """
        ...

    def heads_after(self, cursor: str | None, limit: int) -> list[LoggedHead]:
        """What ``after`` hands out, each event's head only (id, type and time, not its data,
        which may be large): what making deliveries reads."""
        ...

    def end(self) -> str | None:
        """The cursor after the newest event a reader can be handed now (``after`` from it
        returns only later events), or None when there is none."""
        ...

    def get_many(self, event_ids: Iterable[str]) -> dict[str, Event]:
        """The logged events with these ids, by id."""
        ...

    def prune(self, before: str) -> int:
        """Delete the events whose ``timestamp`` is before ``before`` and of which no delivery
        is pending, but the newest event (the log numbers on from it); how many went
        (docs/webhooks.md#how-long-events-are-kept). Every cursor handed out stays one the log
        made: ``after`` from it reads the events after it that are left. One statement on SQLite
        and PostgreSQL; on MongoDB and in memory the pending deliveries are read first, so a
        delivery made meanwhile of an event that old may find it gone (a delivery is made
        within a round of its event's write, not days later).
        """
        ...


@runtime_checkable
class WebhookRepository(Protocol):
    """The endpoints editors registered (docs/webhooks.md)."""

    def add(self, webhook: WebhookRecord) -> None:
        """Store a new webhook; ``DuplicateKey("webhook.id")`` for a stored id."""
        ...

    def get(self, webhook_id: str) -> WebhookRecord | None:
        """The webhook with this id, or None."""
        ...

    def find(self, offset: int, limit: int) -> list[WebhookRecord]:
        """Webhooks, oldest first (by ``created``, then id), sliced."""
        ...

    def update(self, webhook_id: str, changes: Mapping[str, Any]) -> None:
        """Set the named members (of ``WebhookRecord``, not ``id``) and leave the others as
        stored, atomically; ``Missing("webhook")`` when there is none."""
        ...

    def advance(self, webhook_id: str, expected: str | None, cursor: str) -> bool:
        """Set the webhook's ``cursor`` to ``cursor`` if it is ``expected`` now; whether it
        was (a process that read the same events first advanced it already, or it is gone)."""
        ...

    def remove(self, webhook_id: str) -> bool:
        """Delete the webhook and its deliveries, atomically; whether it existed."""
        ...


@runtime_checkable
class DeliveryRepository(Protocol):
    """Each event to each webhook, and its attempts (docs/webhooks.md)."""

    def add_many(self, deliveries: Iterable[Delivery]) -> int:
        """Store new deliveries as given; one of a webhook and event that is stored already is
        left as it is (two processes may make the same one). Returns how many were new."""
        ...

    def claim(
        self, now: str, until: str, owner: str, limit: int, skip: Collection[str] = ()
    ) -> list[Delivery]:
        """Lease to ``owner`` until ``until`` at most ``limit`` pending deliveries due at
        ``now`` (``next_attempt`` at or before it) that no process holds (no lease, or one that
        ended at or before ``now``), earliest ``next_attempt`` first (then by webhook and
        event id), and return them as leased. Atomic per delivery, across processes: a
        delivery is leased to one owner at a time. The deliveries of the webhooks in ``skip``
        are passed over (a caller that holds enough of theirs leaves the others to the rest).
        """
        ...

    def finish(self, delivery: Delivery, owner: str) -> bool:
        """Store ``delivery`` (its attempts, state and schedule) over the stored one if
        ``owner`` holds its lease still, and end the lease; whether it did (a lease that ran
        out and was taken by another process is not written over)."""
        ...

    def get(self, webhook_id: str, event_id: str) -> Delivery | None:
        """The webhook's delivery of this event, or None."""
        ...

    def of_webhook(self, webhook_id: str, offset: int, limit: int) -> list[Delivery]:
        """The webhook's deliveries, newest first (by ``created``, then event id descending),
        sliced."""
        ...

    def count(self, webhook_id: str) -> int:
        """How many deliveries the webhook has."""
        ...

    def redeliver(self, webhook_id: str, event_id: str, now: str) -> bool:
        """Make the delivery pending and due at ``now`` again, its ``failures`` 0 and no
        lease; whether there is such a delivery."""
        ...


@runtime_checkable
class SignInFailures(Protocol):
    """Failed sign-ins, each a time under an opaque key, for every process on the store to
    count: storage only; the limit is the core's (``storycore.usecases.sign_in_limit``). A key
    is any text of up to a few hundred characters but NUL (which PostgreSQL's text cannot
    hold), compared exactly; a time is a stored timestamp
    (``storycore.rules.timestamps.format_timestamp``), whose text sorts as the times do.
    """

    def add(self, keys: Sequence[str], at: str) -> None:
        """Record one failure at ``at`` under each of ``keys``. Several processes adding at
        once lose none: two failures at one time (under one key) are two."""
        ...

    def since(self, key: str, after: str, limit: int) -> list[str]:
        """The times of the key's failures later than ``after`` (not at it), oldest first, at
        most ``limit``: a read of the key's failures after ``after`` only (an index on key and
        time), whatever other keys hold."""
        ...

    def prune(self, before: str) -> int:
        """Delete every key's failures at or before ``before``; how many went."""
        ...


@runtime_checkable
class KeptFiles(Protocol):
    """The files of kept pictures, each named by the SHA-256 of its bytes and stored once, in
    the store itself (docs/media-storage.md). Storage only: the adapter stores what it is given;
    that a name is the hash of its bytes, and what a file may be, are the core's to check.
    """

    def put(self, file: KeptFile, data: bytes) -> None:
        """Store ``data`` as the file ``file.name`` with its members (``file.size`` is
        ``len(data)``), unless a file of that name is stored: then its bytes and members stay as
        they are, and only its ``at`` moves to ``file.at`` when that is later (a file put again
        is not pruned as one long unshown). Atomic: a reader finds the whole file or none, and
        several processes putting one name at once store it once."""
        ...

    def head(self, name: str) -> KeptFile | None:
        """The file's members without its bytes, or None."""
        ...

    def get(self, name: str) -> tuple[KeptFile, bytes] | None:
        """The file's members and its bytes, exactly as put, or None."""
        ...

    def scan(self, after: str | None, limit: int) -> list[KeptFile]:
        """At most ``limit`` files whose names sort after ``after`` (None: from the first),
        by name, without their bytes: a walk of every file (an export)."""
        ...

    def delete(self, names: Collection[str]) -> int:
        """Delete the files of these names; how many there were."""
        ...

    def delete_unshown(self, before: str, limit: int) -> list[str]:
        """Delete at most ``limit`` files last put before ``before`` that no source record
        names among its ``copies`` (``KeptSources``), the oldest first, and return their
        names. What "unshown for long enough" means is the core's: it forgets the source
        records nothing shows first (``KeptSources.forget``), then calls this."""
        ...


@runtime_checkable
class KeptSources(Protocol):
    """What each source address of a picture became (``KeptSource``), by address: the keeper's
    queue, leased to one process at a time as webhook deliveries are, and what pages look up
    (docs/media-storage.md). An address is compared exactly, and may be as long as the limit
    of addresses allows, of any characters but NUL."""

    def want(
        self,
        addresses: Collection[str],
        at: str,
        story: str | None = None,
        stale: str | None = None,
    ) -> int:
        """For each address without a record, store one pending and due at ``at``, wanted by
        ``story`` (a story's id, or None); for each with one, set its ``seen`` to ``at`` (only
        when it is before ``stale``, if given: a record seen lately needs no write), and its
        ``wanted_by`` to ``story`` when it has none, and leave the rest as it is: the first
        story that wants an address keeps it. Returns how many were new. Several processes
        wanting one address at once store one record."""
        ...

    def touch(self, addresses: Collection[str], at: str) -> int:
        """Set ``seen`` to ``at`` in the records of these addresses that exist (nothing else
        changes); how many there were."""
        ...

    def get_many(self, addresses: Iterable[str]) -> dict[str, KeptSource]:
        """The records of these addresses that exist, by address: one read however many (a
        page shows up to 50 pictures)."""
        ...

    def claim(self, now: str, until: str, owner: str, limit: int) -> list[KeptSource]:
        """Lease to ``owner`` until ``until`` at most ``limit`` records due at ``now``
        (``next_attempt`` at or before it) that no process holds (no lease, or one that ended
        at or before ``now``), earliest ``next_attempt`` first, and return them as leased.
        Atomic per record, across processes: a record is leased to one owner at a time."""
        ...

    def finish(self, source: KeptSource, owner: str) -> bool:
        """Store ``source``'s outcome (``state``, ``copies``, ``fetched``, ``attempts``,
        ``reason``, ``next_attempt``) over the stored record if ``owner`` holds its lease still,
        and end the lease; whether it did (a lease that ran out and was taken by another
        process, or a record forgotten meanwhile, is not written). ``seen`` and ``wanted_by``
        stay as stored."""
        ...

    def retry_failed(self, now: str) -> int:
        """Make every record that failed for good (``failed`` with no ``next_attempt``) due at
        ``now`` again, its ``attempts`` 0; how many."""
        ...

    def scan(self, after: str | None, limit: int) -> list[KeptSource]:
        """At most ``limit`` records whose addresses sort after ``after`` (None: from the
        first), in an order of the store's own that stays the same while records are added
        and removed: a walk of every record (an export, ``keep-media``). Resume ``after`` the
        address of the last record of the previous page."""
        ...

    def restore(self, sources: Iterable[KeptSource]) -> None:
        """Store each record as given but without a lease, in place of a stored record of its
        address (an import: what an export of another store says the address became)."""
        ...

    def forget(self, before: str) -> int:
        """Delete the records whose ``seen`` is before ``before``; how many went. Their files
        stay until ``KeptFiles.delete_unshown``."""
        ...


class StoryRead(NamedTuple):
    """What reading a story takes from storage (``Store.read_story``)."""

    #: The user the address names, or None when there is none.
    author: UserRecord | None
    #: Their story at the address's slug, or None when they have none there.
    story: StoryRecord | None
    #: The story's element documents in the asked window (none without a story).
    documents: list[str]


@runtime_checkable
class Store(Protocol):
    """One storage backend: the repositories over one database, as plain attributes."""

    #: How many calls can usefully run at once. Bindings that answer requests in threads use
    #: this many: a store whose calls queue on one connection says 1, and more threads would
    #: only add hand-offs; a store on a connection pool gains from several.
    parallel_calls: int = 4
    #: Whether a read never waits for a write, another caller or a server: bindings then answer
    #: reads where the request arrived (an ASGI app on its event loop) instead of handing them
    #: to a thread. A SQLite file says True (each read is a snapshot, on a connection of its
    #: own); a store whose reads queue behind writes on one connection, or cross a network,
    #: says False.
    reads_never_wait: bool = False

    stories: StoryRepository
    revisions: RevisionRepository
    search: SearchIndex
    users: UserRepository
    apps: ApplicationRepository
    tokens: TokenRepository
    identities: IdentityRepository
    events: EventLog
    webhooks: WebhookRepository
    deliveries: DeliveryRepository
    sign_in_failures: SignInFailures
    kept_files: KeptFiles
    kept_sources: KeptSources

    def read_story(self, username: str, slug: str, offset: int, limit: int) -> StoryRead:
        """The user ``username`` (compared regardless of case), their story that lives at
        ``slug`` (not one that left it: no alias is followed) and its element documents from
        ``offset``, at most ``limit``: a story read's three reads. This default makes them one
        after another; a store whose every call is a round trip to a server answers them in one
        (a measured exception to "one way to read": on PostgreSQL the three round trips cost
        more than a hand-written read, benchmarks/README.md).
        """
        author = self.users.get_by_username(username)
        story = None if author is None else self.stories.get_by_slug(author.id, slug)
        if story is not None and story.slug != slug:  # the story that left ``slug``
            story = None
        documents = [] if story is None else self.stories.element_documents(story.id, offset, limit)
        return StoryRead(author, story, documents)

    def derivation(self) -> int | None:
        """The derivation version (``storycore.model.derived.DERIVATION_VERSION``) the core last
        recorded with ``set_derivation``, or None when none is recorded: a new store, one
        written before stores kept it, or one a migration marked for recomputing. None means
        "unknown": the core recomputes the derived data of a store that holds any record. One
        cheap read; the service makes it at every open.
        """
        ...

    def set_derivation(self, version: int) -> None:
        """Record ``version`` as the derivation of the stored data, durably, over any earlier
        one, for every process sharing the storage. Only the core calls it, once every derived
        member is recomputed by that version; the store never sets it by itself.
        """
        ...

    def close(self) -> None:
        """Release the connection. The store is not used afterwards."""
        ...
