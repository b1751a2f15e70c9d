"""Lists and search (docs/api.md#lists-filters-sorting-and-search,
docs/api.md#lists-filters-sorting-and-search).

Public lists hold published, non-private stories. A user's list adds private and working
stories for that user and editors. Every list has a total order, so pages never overlap.

A catalog's items are made from the presenter's documents by the shaping it is given:
``Service.catalog`` makes models (``StorySummary``, ``SearchItem``), ``Service.listings``
keeps the documents, which the HTTP layer writes as they are (docs/architecture.md#answers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

from ..errors import InvalidParameter
from ..model.documents import Document, shape_of
from ..model.heads import ProfileFields, StoryHead
from ..model.kept import NOTHING_KEPT, KeptPictures
from ..model.pagination import PageRequest, page_of
from ..model.queries import Audience, SortField, StoryQuery, parse_order, parse_sort
from ..model.records import Status, Stored, UserRecord
from ..model.shapes import Page, StorySummary
from ..model.shown_pictures import answer_shown, story_shown, user_shown
from ..model.visibility import ANONYMOUS, Viewer, can_see_hidden_stories_of, is_author_or_editor
from ..rules.addresses import validate_url
from ..rules.hashtags import normalize_tag
from ..rules.searchtext import query_tokens
from ..rules.usernames import username_key
from .context import Context

__all__ = ["FEED_SIZE", "Catalog", "FeedEntry"]

#: The most stories a feed holds (docs/feeds.md).
FEED_SIZE = 50


class FeedEntry(NamedTuple):
    """A story of a feed: its summary, when it was published, and the kept copies of the
    pictures of the feed (its one lookup)."""

    story: StorySummary
    published: str
    kept: KeptPictures = NOTHING_KEPT


#: The public stories whose topic keys a catalog keeps (``Catalog.topics``); past it, it
#: starts over.
_KEPT_TOPICS = 4096

_STATUS_NAMES: dict[str, Status] = {
    "working": "working",
    "draft": "working",
    "published": "published",
}

PageParam = int | str | None

#: What a catalog's list items and search results are.
SummaryT = TypeVar("SummaryT")
SearchT = TypeVar("SearchT")


class Catalog(Generic[SummaryT, SearchT]):
    """The public lists, a user's list and search; their items made from the presenter's
    documents by ``summary`` and ``search_item``."""

    def __init__(
        self,
        context: Context,
        summary: Callable[[Document], SummaryT],
        search_item: Callable[[Document], SearchT],
    ) -> None:
        self._ctx = context
        self._summary = summary
        self._search_item = search_item
        #: the topic keys of public stories, by (id, updated): ``topics``
        self._topic_keys: dict[tuple[str, str], tuple[str, ...]] = {}

    def stories(
        self,
        *,
        sort: str | None = None,
        order: str | None = None,
        permalink: str | None = None,
        tag: str | None = None,
        containing_element: str | None = None,
        page: PageParam = None,
        per_page: PageParam = None,
        total: bool = False,
    ) -> Page[SummaryT]:
        """Public stories, by ``sort`` (``date.published`` by default) and ``order``."""
        if containing_element is not None:  # as stored: a //host/path is https://host/path
            limit = self._ctx.settings.limits.address
            containing_element = validate_url(containing_element, "containingElement", limit)
        return self._list(
            page,
            per_page,
            total=total,
            permalink=permalink,
            sort=parse_sort(sort),
            descending=parse_order(order),
            tag=_tag(tag),
            containing_element=containing_element,
        )

    def latest(
        self,
        *,
        permalink: str | None = None,
        tag: str | None = None,
        page: PageParam = None,
        per_page: PageParam = None,
        total: bool = False,
    ) -> Page[SummaryT]:
        """Public stories, newest publication first."""
        return self._list(page, per_page, total=total, permalink=permalink, tag=_tag(tag))

    def popular(
        self,
        *,
        permalink: str | None = None,
        tag: str | None = None,
        page: PageParam = None,
        per_page: PageParam = None,
        total: bool = False,
    ) -> Page[SummaryT]:
        """Public stories, most popular first."""
        return self._list(
            page, per_page, total=total, permalink=permalink, tag=_tag(tag), sort="popularity"
        )

    def featured(
        self,
        *,
        permalink: str | None = None,
        tag: str | None = None,
        page: PageParam = None,
        per_page: PageParam = None,
        total: bool = False,
    ) -> Page[SummaryT]:
        """Featured public stories, newest feature first."""
        return self._list(
            page,
            per_page,
            total=total,
            permalink=permalink,
            tag=_tag(tag),
            sort="featured_at",
            featured=True,
        )

    def topic(
        self,
        topic: str,
        *,
        sort: str | None = None,
        order: str | None = None,
        permalink: str | None = None,
        tag: str | None = None,
        page: PageParam = None,
        per_page: PageParam = None,
        total: bool = False,
    ) -> Page[SummaryT]:
        """Public stories of a topic (compared regardless of case)."""
        return self._list(
            page,
            per_page,
            total=total,
            permalink=permalink,
            sort=parse_sort(sort),
            descending=parse_order(order),
            tag=_tag(tag),
            topic=normalize_tag(topic),
        )

    def user(
        self,
        username: str,
        *,
        viewer: Viewer = ANONYMOUS,
        filter: str | Iterable[str] | None = None,
        sort: str | None = None,
        order: str | None = None,
        permalink: str | None = None,
        tag: str | None = None,
        page: PageParam = None,
        per_page: PageParam = None,
        total: bool = False,
    ) -> Page[SummaryT]:
        """A user's stories. For that user and editors, private and working ones too;
        ``filter`` chooses statuses (``draft`` means ``working``), leaving out silently the
        ones the caller may not see.
        """
        author = self._ctx.user_named(username)
        statuses = _statuses(filter)
        audience: Audience = "owner" if can_see_hidden_stories_of(viewer, author.id) else "public"
        if audience == "public":
            statuses = tuple(s for s in statuses if s == "published")
        return self._list(
            page,
            per_page,
            total=total,
            permalink=permalink,
            sort=parse_sort(sort),
            descending=parse_order(order),
            tag=_tag(tag),
            author=author,
            audience=audience,
            statuses=statuses,
        )

    def more_by(self, author: UserRecord, story_id: str, count: int) -> list[StoryHead]:
        """The heads of up to ``count`` public stories of ``author`` other than the story
        ``story_id``, newest publication first: the author's public list (``user``, for
        anyone), read for the author a story page already holds, as its page shows it after
        the story (docs/api.md#the-web-host). One more is read, in case the story is among
        them, within the service's page limit (``Settings.limits.per_page``). Heads, not
        summaries: a page kept rendered for the same heads needs no summary made
        (``summaries_of``)."""
        per_page = min(count + 1, self._ctx.settings.limits.per_page)
        query = self._query(self._ctx.page(1, per_page), author=author, filters={})
        heads = [] if query is None else self._ctx.store.stories.find(query)
        return [head for head in heads if head.id != story_id][:count]

    def summaries_of(self, heads: Sequence[StoryHead], author: UserRecord) -> list[StorySummary]:
        """The summaries of heads of ``author``'s stories (``more_by``'s), as lists show them."""
        return self._summaries(heads, author)

    def feed(
        self, *, username: str | None = None, topic: str | None = None, tag: str | None = None
    ) -> list[FeedEntry]:
        """The public stories of a feed (docs/feeds.md), newest publication first: the
        latest, a user's (``NotFound`` for an unknown user), a topic's or a hashtag's; at most
        ``FEED_SIZE``, fewer when the page limit is lower.
        """
        author = None if username is None else self._ctx.user_named(username)
        size = min(FEED_SIZE, self._ctx.settings.limits.per_page)
        filters: dict[str, Any] = {}
        if topic is not None:
            filters["topic"] = normalize_tag(topic)
        if tag is not None:
            filters["tag"] = normalize_tag(tag)
        request = self._ctx.page(1, size)
        query = self._query(request, author=author, filters=filters)
        heads = [] if query is None else self._ctx.store.stories.find(query)[:size]
        documents, kept = self._summaries_kept(heads, author)
        return [
            FeedEntry(shape_of(StorySummary, document), head.published or head.created, kept)
            for document, head in zip(documents, heads, strict=True)
        ]

    def topics(self, stories: Iterable[StorySummary]) -> list[str]:
        """The topics of the public stories among ``stories`` (items of a list), the most
        frequent first (then by name): the topics a page of stories links to
        (docs/api.md#the-web-host)."""
        counts: dict[str, int] = {}
        for story_id, updated in dict.fromkeys((story.id, story.updated) for story in stories):
            for key in self._topics_of(story_id, updated):
                counts[key] = counts.get(key, 0) + 1
        return sorted(counts, key=lambda topic: (-counts[topic], topic))

    def _topics_of(self, story_id: str, updated: str) -> tuple[str, ...]:
        """A public story's topic keys, none for another. A public story's are read once for
        each ``updated`` (its topics change only by a write, which changes it), not on every
        page that lists it."""
        kept = self._topic_keys.get((story_id, updated))
        if kept is not None:
            return kept
        story = self._ctx.store.stories.get(story_id)
        if story is None or not story.is_public:
            return ()
        kept = tuple(key for key in map(normalize_tag, story.topics) if key)
        if len(self._topic_keys) >= _KEPT_TOPICS:
            self._topic_keys.clear()
        self._topic_keys[(story_id, updated)] = kept
        return kept

    def search(
        self,
        q: str | None,
        *,
        viewer: Viewer = ANONYMOUS,
        page: PageParam = None,
        per_page: PageParam = None,
        total: bool = False,
    ) -> Page[SearchT]:
        """Public stories holding every word of ``q``, newest publication first."""
        limits = self._ctx.settings.limits
        if q is None or not q.strip():
            raise InvalidParameter("q is required and must not be blank", field="q")
        if len(q) > limits.query:
            raise InvalidParameter(
                f"q is longer than the limit of {limits.query} characters", field="q"
            )
        words = query_tokens(q)
        request = self._ctx.page(page, per_page)
        # a query without a letter or digit is valid and matches nothing
        index = self._ctx.store.search
        stored = index.search_stored(words, request.offset, request.probe_limit) if words else []
        found = (index.count(words) if words else 0) if total else None
        items, kept = self._search_items(stored[: request.per_page], viewer)
        return page_of(request, stored, lambda _: items, total=found, kept=kept)

    def _search_items(
        self, stories: Sequence[Stored], viewer: Viewer
    ) -> tuple[list[SearchT], KeptPictures]:
        """The search results of ``stories`` (their records' members), and the kept copies of
        the pictures they show (their thumbnails, their authors' avatars: one read)."""
        author_ids = {story["author_id"] for story in stories}
        authors = self._ctx.store.users.get_many_stored(author_ids)
        stats = self._ctx.store.stories.author_stats(author_ids)
        embeds = self._ctx.store.stories.embeds(story["id"] for story in stories)
        kept = self._ctx.kept_pictures(
            pair for s in stories for pair in answer_shown(s, authors[s["author_id"]])
        )
        presenter = self._ctx.presenter
        items = [
            self._search_item(
                presenter.search_document(
                    story,
                    authors[story["author_id"]],
                    stats[story["author_id"]],
                    embeds.get(story["id"], []),
                    can_edit=is_author_or_editor(viewer, story["author_id"]),
                    kept=kept,
                )
            )
            for story in stories
        ]
        return items, kept

    def _list(
        self,
        page: PageParam,
        per_page: PageParam,
        *,
        total: bool,
        permalink: str | None,
        sort: SortField = "published",
        descending: bool = True,
        audience: Audience = "public",
        statuses: Sequence[Status] = ("published",),
        author: UserRecord | None = None,
        **filters: Any,
    ) -> Page[SummaryT]:
        """A page of summaries; with ``author``, of their stories only; with ``total``, the
        number of stories on every page."""
        request = self._ctx.page(page, per_page)
        query = self._query(
            request,
            permalink=permalink,
            sort=sort,
            descending=descending,
            audience=audience,
            statuses=statuses,
            author=author,
            filters=filters,
        )
        stories = self._ctx.store.stories
        heads = [] if query is None else stories.find(query)
        found = (0 if query is None else stories.count(query)) if total else None
        documents, kept = self._summaries_kept(heads[: request.per_page], author)
        summaries = [self._summary(document) for document in documents]
        return page_of(request, heads, lambda _: summaries, total=found, kept=kept)

    def _query(
        self,
        request: PageRequest,
        *,
        permalink: str | None = None,
        sort: SortField = "published",
        descending: bool = True,
        audience: Audience = "public",
        statuses: Sequence[Status] = ("published",),
        author: UserRecord | None = None,
        filters: dict[str, Any],
    ) -> StoryQuery | None:
        """The query of a page of a list (``_list``), with the one more head that tells a
        next; None for a list that holds nothing."""
        author_id = None if author is None else author.id
        if permalink is not None:
            target = self._permalink_target(permalink)
            if target is None or (author_id is not None and target[0] != author_id):
                return None
            author_id, filters["slug"] = target
        if not statuses:
            return None
        return StoryQuery(
            offset=request.offset,
            limit=request.probe_limit,
            sort=sort,
            descending=descending,
            author_id=author_id,
            audience=audience,
            status=statuses[0] if audience == "owner" and len(statuses) == 1 else None,
            **filters,
        )

    def _summaries(
        self, heads: Sequence[StoryHead], author: UserRecord | None = None
    ) -> list[StorySummary]:
        """The heads' summaries, without kept copies. With ``author``, the author of every
        head (a list of their stories), their profile needs no read."""
        authors = self._authors(heads, author)
        return [self._ctx.presenter.summary(h, authors[h.author_id]) for h in heads]

    def _summaries_kept(
        self, heads: Sequence[StoryHead], author: UserRecord | None = None
    ) -> tuple[list[Document], KeptPictures]:
        """The heads' summaries as documents, with the kept copies of the pictures they show
        (their thumbnails, their authors' avatars; ``author``'s even without a head), looked up
        with one read."""
        authors = self._authors(heads, author)
        shown = [pair for head in heads for pair in story_shown(head)]
        shown.extend(pair for profile in authors.values() for pair in user_shown(profile))
        kept = self._ctx.kept_pictures(shown)
        presenter = self._ctx.presenter
        return [presenter.summary_document(h, authors[h.author_id], kept) for h in heads], kept

    def _authors(
        self, heads: Sequence[StoryHead], author: UserRecord | None
    ) -> dict[str, ProfileFields]:
        if author is not None:
            return {author.id: ProfileFields.of(author)}
        return self._ctx.store.users.profiles({h.author_id for h in heads})

    def _permalink_target(self, permalink: str) -> tuple[str, str] | None:
        """The (author id, slug) a permalink of this service names, or None."""
        permalink = validate_url(permalink, "permalink", self._ctx.settings.limits.address)
        parts = self._ctx.presenter.addresses.parse_story(permalink)
        if parts is None:
            return None
        author = self._ctx.store.users.get_by_username(parts[0])
        if author is None or username_key(author.username) != username_key(parts[0]):
            return None
        return author.id, parts[1]


def _tag(tag: str | None) -> str | None:
    if tag is None:
        return None
    key = normalize_tag(tag)
    if not key:
        raise InvalidParameter("tag must not be blank", field="tag")
    return key


def _statuses(value: str | Iterable[str] | None) -> tuple[Status, ...]:
    if value is None or value == "":
        return ("working", "published")
    names = value.split(",") if isinstance(value, str) else list(value)
    chosen: dict[Status, None] = {}
    for name in names:
        status = _STATUS_NAMES.get(name.strip().lower())
        if status is None:
            raise InvalidParameter("filter takes working, draft and published", field="filter")
        chosen[status] = None
    return tuple(chosen)
