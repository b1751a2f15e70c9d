"""The embed, the permalink page, shortlinks and oEmbed as service operations (decisions 9).

Embeds are loaded by anyone, without credentials: they show published, non-private stories
only, and every load counts as a view of the story and of the page it was loaded from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..errors import InvalidParameter, NotFound, StoryMoved
from ..model.heads import StoryHead
from ..model.kept import KeptPictures
from ..model.pagination import PageRequest
from ..model.reading import reading_minutes
from ..model.records import Element, StoryRecord, UserRecord, element_of
from ..model.shown_pictures import Shown, answer_shown, story_shown
from ..model.visibility import ANONYMOUS, Viewer
from ..presentation.embed import EmbedStory, embed_script, oembed
from ..presentation.pages import Site, kept_embedded_story
from ..rules.addresses import is_http_url
from ..rules.numbers import whole_number
from .context import Context

__all__ = ["PAGE_ELEMENTS", "Embeds", "StoryOnPage"]

_DEFAULT_PORTS = {"http": 80, "https": 443}
#: The reading times an ``Embeds`` keeps, by story and version; past it, it starts over.
_KEPT_MINUTES = 4096
#: The elements a story page shows at once (docs/api.md#the-web-host).
PAGE_ELEMENTS = 50


@dataclass(frozen=True, slots=True)
class StoryOnPage:
    """What a story page shows: the story, its author, one page of its elements (``page``,
    from 1, ``PAGE_ELEMENTS`` each), whether another page follows, and the minutes the whole
    story takes to read (``model.reading``). The elements are kept as their stored documents:
    a page already rendered for the same documents needs no more."""

    author: UserRecord
    story: StoryRecord
    documents: list[str]
    page: int
    has_next: bool
    minutes: int

    @property
    def elements(self) -> list[Element]:
        """The page's elements, made from their documents."""
        return [element_of(document) for document in self.documents]


class Embeds:
    """What the public web host serves: scripts, pages, shortlinks, oEmbed."""

    def __init__(self, context: Context) -> None:
        self._ctx = context
        #: the minutes each story takes to read, by (id, version, updated): ``_minutes``
        self._minutes_of: dict[tuple[str, int, str], int] = {}

    def script(
        self, username: str, slug: str, *, css: str | None = None, referer: str | None = None
    ) -> str:
        """The embed script of a public story; the load counts as a view from ``referer``.

        Raises ``NotFound`` for unknown and hidden stories and ``StoryMoved`` for a retired slug.
        """
        author, story = self._ctx.visible_story(ANONYMOUS, username, slug, follow_alias=True)
        self._ctx.views.add(story.id, _page_address(referer, self._ctx))
        return embed_script(self._embed_story(author, story), css)

    def page(self, username: str, slug: str, *, page: int | str | None = None) -> StoryOnPage:
        """The story page of a public story (docs/api.md#the-web-host): the story and its
        elements' ``page``. A retired slug raises ``StoryMoved``; an unknown or hidden story,
        or a page past the last (but the first), ``NotFound``; a ``page`` that is not a whole
        number from 1, ``InvalidParameter``. A page read is a view of the story, as an embed's
        load is.
        """
        request = _page_request(page)
        read = self._ctx.store.read_story(username, slug, request.offset, request.probe_limit)
        author = self._ctx.found_user(username, read.author)
        story = self._ctx.found_story(ANONYMOUS, author, slug, read.story, follow_alias=True)
        shown = self._on_page(author, story, read.documents, request.page)
        self._ctx.views.add(story.id)
        return shown

    def preview(
        self, username: str, slug: str, *, viewer: Viewer, page: int | str | None = None
    ) -> StoryOnPage:
        """The story page of a story as its author and editors see it before readers do
        (docs/editor.md#preview-and-history): working, scheduled, private or published alike,
        one ``page`` of its elements as ``page`` gives them. For anyone else there is no such
        story (``NotFound``, as for its revisions); a page past the last (but the first) is
        ``NotFound`` and a ``page`` that is not a whole number from 1 ``InvalidParameter``. A
        preview is no view of the story."""
        request = _page_request(page)
        author, story = self._ctx.revisable_story(viewer, username, slug)
        found = self._ctx.store.stories.element_documents(
            story.id, request.offset, request.probe_limit
        )
        return self._on_page(author, story, found, request.page)

    def kept_on_page(self, shown: StoryOnPage, more: Sequence[StoryHead] = ()) -> KeptPictures:
        """The kept copies of the pictures a story page shows
        (docs/media.md#where-kept-pictures-show): the story's, its author's avatar, its page's
        elements' and the thumbnails of ``more`` (the author's other stories it shows after
        the story), looked up with one read."""
        pictures = self._pictures(shown)
        return self._ctx.kept_pictures(
            [*pictures, *(pair for head in more for pair in story_shown(head))]
        )

    def _pictures(self, shown: StoryOnPage) -> list[Shown]:
        """The pictures of ``shown``'s story, author and elements (``Context.pictures``: read
        from its documents once for each version of the story)."""
        offset = (shown.page - 1) * PAGE_ELEMENTS if shown.page else 0
        elements = self._ctx.pictures.of(shown.story, offset, shown.documents)
        found = answer_shown(shown.story, shown.author)
        found.extend(pair for pictures in elements for pair in pictures)
        return found

    def _on_page(
        self, author: UserRecord, story: StoryRecord, documents: Sequence[str], page: int
    ) -> StoryOnPage:
        """The story page ``page`` of ``story``, from the element documents read for it (one
        past the page, if there is one); a page past the last (but the first) is
        ``NotFound``."""
        if page > 1 and not documents:
            raise NotFound(f"the story {author.username}/{story.slug} has no page {page}")
        shown = list(documents[:PAGE_ELEMENTS])
        has_next = len(documents) > PAGE_ELEMENTS
        whole = shown if page == 1 and not has_next else None
        return StoryOnPage(author, story, shown, page, has_next, self._minutes(story, whole))

    def _minutes(self, story: StoryRecord, documents: Sequence[str] | None) -> int:
        """The minutes ``story`` takes to read, from the documents of all its elements
        (``documents``, or read when None: a story of more than a page). They are worked out
        once for each version of the story: only a write changes its elements, and every
        write changes its version."""
        key = (story.id, story.version, story.updated)
        minutes = self._minutes_of.get(key)
        if minutes is None:
            if documents is None:
                limit = self._ctx.settings.limits.elements
                documents = self._ctx.store.stories.element_documents(story.id, 0, limit)
            minutes = reading_minutes(element_of(document) for document in documents)
            if len(self._minutes_of) >= _KEPT_MINUTES:
                self._minutes_of.clear()
            self._minutes_of[key] = minutes
        return minutes

    def shortlink(self, code: str) -> str:
        """The permalink a shortlink code leads to (public stories only)."""
        story = self._ctx.store.stories.get(code)
        author = self._ctx.store.users.get(story.author_id) if story else None
        if story is None or author is None or not story.is_public:
            raise NotFound(f"there is no story at /s/{code}")
        return self._ctx.presenter.permalink(author.username, story.slug)

    def oembed(
        self, url: str | None, *, maxwidth: int | None = None, maxheight: int | None = None
    ) -> dict[str, Any]:
        """The oEmbed 1.0 ``rich`` object for a story's permalink. A retired permalink answers
        for the story at its new slug: oEmbed consumers ask again rarely and follow no
        redirect to another API."""
        if not url:
            raise InvalidParameter("url is required", field="url")
        maxwidth = None if maxwidth is None else whole_number(maxwidth, "maxwidth")
        maxheight = None if maxheight is None else whole_number(maxheight, "maxheight")
        named = self._ctx.presenter.addresses.parse_story(url)
        if named is None:
            raise NotFound("url is not the permalink of a story of this service")
        try:
            author, story = self._ctx.visible_story(ANONYMOUS, *named, follow_alias=True)
        except StoryMoved as moved:
            author, story = self._ctx.visible_story(ANONYMOUS, moved.username, moved.slug)
        kept = self._ctx.kept_pictures(story_shown(story))
        media = self._ctx.presenter.addresses.media
        thumbnails = [
            (media(copy.file_name), copy.width, copy.height)
            for _, address in story_shown(story)
            for copy in kept.copies(address)
        ]
        return oembed(
            title=story.title,
            author_name=author.name or author.username,
            author_url=self._ctx.presenter.addresses.author(author.username),
            provider_name=self._ctx.presenter.site_name,
            provider_url=self._ctx.presenter.web_url,
            script_url=self._script_url(author, story),
            maxwidth=maxwidth,
            maxheight=maxheight,
            thumbnails=thumbnails,
        )

    def _script_url(self, author: UserRecord, story: StoryRecord) -> str:
        return self._ctx.presenter.addresses.script(author.username, story.slug)

    def _embed_story(self, author: UserRecord, story: StoryRecord) -> EmbedStory:
        """What the embed shows: the story page's header and elements (all of them, not a
        page), rendered by the pages' one renderer."""
        presenter = self._ctx.presenter
        documents = self._ctx.store.stories.element_documents(
            story.id, 0, self._ctx.settings.limits.elements
        )
        whole = StoryOnPage(author, story, documents, 0, False, 0)
        site = Site(presenter.web_url, presenter.site_name, self._ctx.settings.video_players)
        site = site.showing(self.kept_on_page(whole))
        return EmbedStory(
            id=story.id,
            markup=kept_embedded_story(site, author=author, story=story, documents=documents),
            author_plan=author.plan,
        )


def _page_request(page: int | str | None) -> PageRequest:
    """The page of a story page's elements asked for: ``PAGE_ELEMENTS`` each."""
    return PageRequest.parse(
        page, PAGE_ELEMENTS, default_per_page=PAGE_ELEMENTS, max_per_page=PAGE_ELEMENTS
    )


def _page_address(referer: str | None, context: Context) -> str | None:
    """The page an embed was loaded from: its ``Referer``'s origin and path (docs/api.md#limits), or
    None when the ``Referer`` is not an http(s) address. The query and fragment are
    left out (they may carry secrets and would split one page into many), and so are
    credentials; the origin is written as browsers write it: scheme and host in lower case,
    no default port.
    """
    if not referer or not is_http_url(referer):
        return None
    parts = urlsplit(referer)
    scheme = parts.scheme.lower()
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    if parts.port is not None and parts.port != _DEFAULT_PORTS[scheme]:
        host = f"{host}:{parts.port}"
    page = f"{scheme}://{host}{parts.path or '/'}"
    return page if len(page) <= context.settings.limits.address else None
