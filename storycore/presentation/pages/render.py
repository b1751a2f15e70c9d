"""The pages (docs/api.md#the-web-host), each rendered from its template: the story page, the
author page, the front page, a topic's or a hashtag's page, the search page and the 404.

Each function takes what the service read (records and shapes) and the ``Site``, and answers
the whole HTML document. The head of every page is ``templates/base.html``'s: ``lang``, a
viewport, ``<title>``, a description, a canonical link, Open Graph and Twitter-card tags; the
stylesheet is inlined (``style.css``, a few KB), so a page needs no other request to be read.

``kept_story_page`` renders a story page once for each content it shows and answers it again
from memory: the story page is asked for 0.7 of the API's story read, which answers its
stored element documents as they are (benchmarks/README.md).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from markupsafe import Markup
from pydantic import TypeAdapter

from ...model.element_kinds import ImageElement
from ...model.heads import StoryHead
from ...model.reading import reading_minutes
from ...model.records import Element, StoryRecord, UserRecord, element_of
from ...model.shapes import Page, SearchItem, StorySummary, UserProfile
from ...rules.paths import PAGE_SCRIPT, filled
from ...rules.searchtext import query_tokens
from ..embed.oembed import embed_code
from ..scripts import script_name
from .document import asset as _asset
from .document import render_document as _render
from .elements import element_view, render_views
from .environment import environment
from .site import Site
from .text import linked_hashtags, marked

__all__ = [
    "Preview",
    "StoryCard",
    "author_page",
    "embedded_story",
    "error_page",
    "front_page",
    "kept_front_page",
    "kept_story_page",
    "not_found_page",
    "page_style",
    "pager_of",
    "player_script",
    "player_script_name",
    "search_page",
    "story_page",
    "tagged_page",
]

Author = UserRecord | UserProfile


@dataclass(frozen=True, slots=True)
class StoryCard:
    """A story in a list: what its card shows. Its title and description are HTML: the text
    escaped, each word a search found ``marked``; in the description, each hashtag a link to its
    tag's page (``linked_hashtags``, as on the story page), none in the title, for the whole
    title is the link to the story (a link holds no link)."""

    title: Markup
    url: str
    description: Markup
    thumbnail: str
    author_name: str
    author_url: str
    avatar: str
    date: str

    @classmethod
    def of(
        cls, story: StorySummary | SearchItem, site: Site, words: Collection[str] = ()
    ) -> StoryCard:
        """The card of a list item or a search result; with ``words`` (a search's query
        tokens), the words the search found in its title and description marked."""
        author = story.author
        if isinstance(story, SearchItem):
            url, date = story.permalink, story.date.published or story.date.modified
        else:
            url, date = site.story(author.username, story.slug), story.updated
        return cls(
            title=marked(story.title or "Untitled story", words),
            url=url,
            description=linked_hashtags(story.description or "", site.tag, words),
            thumbnail=story.thumbnail or "",
            author_name=author.name or author.username,
            author_url=site.author(author.username),
            avatar=author.avatar,
            date=date,
        )


@dataclass(frozen=True, slots=True)
class Pager:
    """Links to the pages before and after one page of a list."""

    page: int
    previous: str
    next: str


def pager_of(address: str, page: int, has_next: bool) -> Pager:
    """Links to the pages before and after ``page`` of the list at ``address``."""
    joint = "&" if "?" in address else "?"

    def at(number: int) -> str:
        return address if number == 1 else f"{address}{joint}page={number}"

    return Pager(page, at(page - 1) if page > 1 else "", at(page + 1) if has_next else "")


def _paged(address: str, page: int) -> str:
    """``address`` of the list's ``page`` (the first page has no ``page``)."""
    return pager_of(address, page + 1, False).previous


def _name(author: Author) -> str:
    return author.name or author.username


@dataclass(frozen=True, slots=True)
class Preview:
    """What makes a story page its preview (docs/editor.md#preview-and-history): the banner's
    words, the preview's own address (its pages link there), the story's editor and, once it
    is published, its page. A preview is never indexed, names no canonical address, offers no
    embed code and runs no script (the editor's pages allow no inline one)."""

    notice: str
    address: str
    editor_url: str
    page_url: str = ""


def story_page(
    site: Site,
    *,
    author: Author,
    story: StoryRecord,
    elements: Sequence[Element],
    page: int,
    has_next: bool,
    minutes: int | None = None,
    more: Sequence[StoryCard] = (),
    preview: Preview | None = None,
) -> str:
    """A story's page: its picture leading the first page (``_lead``), its title,
    description, byline, dates and reading time (``minutes``, by default of ``elements`` as the
    whole story), one page of its elements, links to the pages before and after; after the
    story's last page, its author's card and ``more`` of their stories; then the embed code to
    copy. With ``preview``, the same page marked as the story's preview."""
    permalink = site.story(author.username, story.slug)
    image = story.thumbnail or story.cover
    title = story.title or "Untitled story"
    shown = _story_parts(site, author, story, elements)
    pager = pager_of(preview.address if preview else permalink, page, has_next)
    json_ld: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "Article",
        "headline": title,
        "description": story.description or "",
        "url": permalink,
        "mainEntityOfPage": permalink,
        "author": {"@type": "Person", "name": _name(author), "url": site.author(author.username)},
        "publisher": {"@type": "Organization", "name": site.name, "url": site.home},
        "datePublished": story.published or story.created,
        "dateModified": story.updated,
    }
    if image:
        json_ld["image"] = [site.picture(image)]
    return _render(
        "story.html",
        site,
        head={
            "title": title,
            "description": story.description or f"A story by {_name(author)} on {site.name}",
            "canonical": "" if preview else _paged(permalink, page),
            "image": image,
            "noindex": story.not_indexed or preview is not None,
            "og_type": "article",
            "feed": site.author_feed(author.username),
            "feed_title": f"Stories by {_name(author)}",
            "oembed": "" if preview else site.oembed(permalink),
            "json_ld": None if preview else json_ld,
            "next": pager.next,
            "prev": pager.previous,
        },
        heading="h1",
        player_src=site.web_url + filled(PAGE_SCRIPT, name=player_script_name()),
        pager=pager,
        lead=_lead(image, elements) if page == 1 else "",
        minutes=reading_minutes(elements) if minutes is None else minutes,
        more=more,
        embed_code=embed_code(site.script(author.username, story.slug)),
        preview=preview,
        **{**shown, "player": shown["player"] and preview is None},
    )


def _lead(picture: str, elements: Sequence[Element]) -> str:
    """The stored address of the picture that leads a story's first page: the story's thumbnail
    (the first image element's without one, as lists show it), or none when the story has
    no picture or opens with that one (a picture shown twice in a row)."""
    if not picture:
        return ""
    first = elements[0] if elements else None
    if isinstance(first, ImageElement) and first.data["image"]["src"] == picture:
        return ""
    return picture


#: The pages ``kept_story_page`` and ``kept_front_page`` keep; past it, they start over (a few
#: MB at most).
KEPT_PAGES = 256
_kept: dict[tuple[object, ...], str] = {}
_summaries = TypeAdapter(list[StorySummary])


def _kept_page(key: tuple[object, ...], render: Callable[[], str]) -> str:
    """The page ``render`` makes, rendered once for each ``key``: everything it is made of."""
    body = _kept.get(key)
    if body is None:
        body = render()
        if len(_kept) >= KEPT_PAGES:
            _kept.clear()
        _kept[key] = body
    return body


def kept_story_page(
    site: Site,
    *,
    author: Author,
    story: StoryRecord,
    documents: Sequence[str],
    page: int,
    has_next: bool,
    minutes: int,
    more: Sequence[StoryHead],
    summaries: Callable[[], Sequence[StorySummary]],
) -> str:
    """``story_page`` for a page of element documents as stored, rendered once for each
    content. It is kept by everything the page is made of: the site, the author's and the
    story's records whole (as JSON), the documents, the page, the reading time and the heads of
    the author's other stories it shows after the story, so that a change to any of them (a
    save, a new bio, another story of theirs published or gone) is another page and a kept
    one is never stale. A page is a pure function of these: its templates read no clock and no
    file after the first render. ``more`` are the heads of the author's other stories (all
    their cards show but the author, who is in the key already); ``summaries`` makes their
    summaries, called only when the page is rendered."""
    key = ("story", site, author.model_dump_json(), story.model_dump_json(), tuple(documents))
    return _kept_page(
        (*key, page, has_next, minutes, tuple(more)),
        lambda: story_page(
            site,
            author=author,
            story=story,
            elements=[element_of(document) for document in documents],
            page=page,
            has_next=has_next,
            minutes=minutes,
            more=[StoryCard.of(summary, site) for summary in summaries()],
        ),
    )


def kept_front_page(
    site: Site,
    *,
    featured: Sequence[StorySummary],
    latest: Page[StorySummary],
    topics: Sequence[str],
) -> str:
    """``front_page``, rendered once for each content: kept by the site, the featured and
    latest stories whole (as JSON), the page of the latest and the topics."""
    key = (
        "front",
        site,
        _summaries.dump_json(list(featured)),
        _summaries.dump_json(latest.items),
        latest.page,
        latest.has_next,
        tuple(topics),
    )
    render = lambda: front_page(site, featured=featured, latest=latest, topics=topics)  # noqa: E731
    return _kept_page(key, render)


def embedded_story(
    site: Site, *, author: Author, story: StoryRecord, elements: Sequence[Element]
) -> str:
    """What the embed script inserts inside its ``div.s-story`` (docs/api.md#the-web-host):
    the story page's header (its title an ``h2``, as a part of the host page; its byline's
    reading time of ``elements``, the whole story) and the same elements' markup as the story
    page, then a link to the story page."""
    template = environment().get_template("embed.html")
    return template.render(
        site=site,
        heading="h2",
        permalink=site.story(author.username, story.slug),
        minutes=reading_minutes(elements),
        **_story_parts(site, author, story, elements),
    )


def kept_embedded_story(
    site: Site, *, author: Author, story: StoryRecord, documents: Sequence[str]
) -> str:
    """``embedded_story`` for every element document as stored, rendered once for each
    content, kept as ``kept_story_page`` keeps a page (by the site, the records whole and the
    documents), so a kept one is never stale."""
    key = ("embed", site, author.model_dump_json(), story.model_dump_json(), tuple(documents))
    return _kept_page(
        key,
        lambda: embedded_story(
            site,
            author=author,
            story=story,
            elements=[element_of(document) for document in documents],
        ),
    )


def page_style() -> str:
    """The stylesheet every page inlines in its ``<style>`` (the web host's policy allows it
    by its hash: ``storycore.http.page_headers``)."""
    return _asset("style.css")


def player_script() -> str:
    """The script that turns a video poster into its provider's player on a click: the
    story page loads it as a file of the web host (``player_script_name``), the embed runs it
    on its story (``/*SCOPE*/document``)."""
    return _asset("player.js")


def player_script_name() -> str:
    """The name the web host serves ``player_script`` under (``paths.PAGE_SCRIPT``):
    ``player.`` and the start of its content's sha256 (``storycore.presentation.scripts``)."""
    return script_name("player")


def _story_parts(
    site: Site, author: Author, story: StoryRecord, elements: Sequence[Element]
) -> dict[str, Any]:
    """What the story page and the embed show of a story alike: the header's title,
    description, byline, dates and topics, and the elements' markup."""
    views = [element_view(element, site) for element in elements]
    return {
        "story": story,
        "title": linked_hashtags(story.title or "Untitled story", site.tag),
        "description": linked_hashtags(story.description or "", site.tag),
        "author": author,
        "author_name": _name(author),
        "author_url": site.author(author.username),
        "published": story.published or story.created,
        "elements": render_views(views),
        "player": any(view.player for view in views),
        "topics": [(topic, site.topic(topic)) for topic in story.topics],
    }


def author_page(site: Site, author: UserProfile, stories: Page[StorySummary]) -> str:
    """An author's page: avatar, name, bio, location, website, a page of their public
    stories and their feed."""
    address = site.author(author.username)
    pager = pager_of(address, stories.page, stories.has_next)
    return _render(
        "author.html",
        site,
        head={
            "title": _name(author),
            "description": author.bio or f"Stories by {_name(author)} on {site.name}",
            "canonical": _paged(address, stories.page),
            "image": author.avatar,
            "og_type": "profile",
            "feed": site.author_feed(author.username),
            "feed_title": f"Stories by {_name(author)}",
            "next": pager.next,
            "prev": pager.previous,
        },
        author=author,
        author_name=_name(author),
        cards=[StoryCard.of(story, site) for story in stories.items],
        pager=pager,
    )


def front_page(
    site: Site,
    *,
    featured: Sequence[StorySummary],
    latest: Page[StorySummary],
    topics: Sequence[str],
) -> str:
    """The front page (docs/api.md#the-front-page): on its first page, the newest featured
    story as its lead and the other featured stories after it; then the latest, in a grid on
    wide screens; links to topics and the search form."""
    pager = pager_of(site.home, latest.page, latest.has_next)
    shown = [StoryCard.of(story, site) for story in featured] if latest.page == 1 else []
    return _render(
        "front.html",
        site,
        head={
            "title": site.name if latest.page == 1 else f"{site.name}, page {latest.page}",
            "description": f"The latest stories on {site.name}",
            "canonical": _paged(site.home, latest.page),
            "feed": site.feed,
            "feed_title": f"Latest stories on {site.name}",
            "next": pager.next,
            "prev": pager.previous,
        },
        body_class="wide",
        lead=shown[0] if shown else None,
        featured=shown[1:],
        cards=[StoryCard.of(story, site) for story in latest.items],
        topics=[(topic, site.topic(topic)) for topic in topics],
        pager=pager,
        q="",
        problem="",
    )


def tagged_page(
    site: Site, kind: Literal["topic", "tag"], name: str, stories: Page[StorySummary]
) -> str:
    """A topic's page or a hashtag's: the public stories it holds."""
    address = site.topic(name) if kind == "topic" else site.tag(name)
    heading = f"Stories about {name}" if kind == "topic" else f"Stories tagged #{name}"
    pager = pager_of(address, stories.page, stories.has_next)
    feed = f"{address}/feed.atom"
    return _render(
        "tagged.html",
        site,
        head={
            "title": heading,
            "description": f"{heading} on {site.name}",
            "canonical": _paged(address, stories.page),
            "feed": feed,
            "feed_title": heading,
            "next": pager.next,
            "prev": pager.previous,
        },
        heading=heading,
        cards=[StoryCard.of(story, site) for story in stories.items],
        pager=pager,
    )


def search_page(site: Site, q: str, results: Page[SearchItem] | None, *, problem: str = "") -> str:
    """The search page (docs/api.md#the-search-page): the form, and for a query, how many
    stories it finds (``results.total``, when counted) and a page of them, the query's words
    marked in their titles and descriptions. With a ``problem`` (what is wrong with ``q``, said
    to a reader), the form holds ``q`` and says so beside it, and the page finds nothing and is
    not indexed."""
    searched = results is not None
    address = site.search(q) if searched else site.search_url
    page, has_next = (results.page, results.has_next) if results is not None else (1, False)
    pager = pager_of(address, page, has_next)
    title = f"Search: {q}" if searched else "Search"
    words = query_tokens(q) if searched else []
    return _render(
        "search.html",
        site,
        head={
            "title": title,
            "description": f"Search the stories of {site.name}",
            "canonical": _paged(address, page),
            "noindex": bool(problem),
            "next": pager.next,
            "prev": pager.previous,
        },
        q=q,
        problem=problem,
        searched=searched,
        heading=_found_heading(q, results.total) if results is not None else "Search",
        cards=[StoryCard.of(item, site, words) for item in results.items] if results else [],
        pager=pager,
    )


def _found_heading(q: str, total: int | None) -> str:
    """What the search page says it found for ``q``: how many stories, when counted."""
    if total is None:
        return f"Search: {q}"
    if total == 0:
        return f"No stories found for “{q}”"
    return f"{total:,} {'story' if total == 1 else 'stories'} found for “{q}”"


def not_found_page(site: Site, what: str) -> str:
    """The web host's 404 page: there is no such ``what`` (a story, a user, a page). It is
    not indexed and names no canonical address: a missing page is no copy of another (a
    canonical link to the front page would make it a "soft 404")."""
    return error_page(site, "Not found", f"There is no such {what}.")


def error_page(site: Site, heading: str, message: str) -> str:
    """A page of the web host saying why it answers no page here (``heading``, ``message``):
    not indexed, with no canonical address."""
    return _render(
        "not_found.html",
        site,
        head={
            "title": heading,
            "description": f"{message} ({site.name})",
            "canonical": "",
            "noindex": True,
        },
        heading=heading,
        message=message,
    )
