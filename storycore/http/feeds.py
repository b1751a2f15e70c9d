"""Atom 1.0 feeds on the public web host (docs/feeds.md).

``GET /feed.atom`` holds the latest public stories, ``GET /{username}/feed.atom`` a user's
public stories, ``GET /topics/{topic}/feed.atom`` a topic's and ``GET /tags/{tag}/feed.atom`` a
hashtag's, at most ``FEED_SIZE`` each, newest publication first. A feed's title says what it
holds and names the site (``Latest stories on Harbour News``, ``Service.site_name``). Each entry
names its story by the permalink (as ``link`` and ``id``) and carries its title, publication and
update times, author's display name (the username when there is none), description (as a
text ``summary``) and picture (a Media RSS ``media:thumbnail``: its kept copy with its size,
or its source address until it is kept, docs/media.md#where-kept-pictures-show).

The XML is built with ElementTree, which escapes whatever a title or description holds; the
few characters XML 1.0 cannot hold at all (U+FFFE, U+FFFF, lone surrogates) become U+FFFD.
No slug can be ``feed.atom`` (slugs hold no dot), so a user's feed never hides a story.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..errors import NotFound
from ..presentation import pages
from ..rules.hashtags import normalize_tag
from ..rules.paths import SITE_FEED, TAG_FEED, TOPIC_FEED, filled
from ..rules.permalinks import Permalinks
from ..service import Service
from ..usecases.catalog import FEED_SIZE, FeedEntry
from .messages import HttpRequest, HttpResponse
from .pages import not_found_page, site_of

__all__ = [
    "ATOM_TYPE",
    "EMPTY_FEED_UPDATED",
    "FEED_NAME",
    "FEED_SIZE",
    "author_feed",
    "site_feed",
    "tag_feed",
    "topic_feed",
]

#: The last segment of every feed's path (``paths.SITE_FEED``).
FEED_NAME = SITE_FEED.strip("/")
ATOM_TYPE = "application/atom+xml; charset=utf-8"
#: The ``updated`` of a feed without entries: fixed, so that its ETag stays the same.
EMPTY_FEED_UPDATED = "1970-01-01T00:00:00.000Z"

_ATOM_NAMESPACE = "http://www.w3.org/2005/Atom"
#: Media RSS, whose ``media:thumbnail`` feed readers show beside an entry.
_MEDIA_NAMESPACE = "http://search.yahoo.com/mrss/"
_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n'
_ATOM_HEADERS = [("Content-Type", ATOM_TYPE), ("X-Content-Type-Options", "nosniff")]
# what XML 1.0 cannot hold (its Char production); the service refuses the C0 and C1 controls
# already, but U+FFFE, U+FFFF and surrogates may reach a title
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


@dataclass(frozen=True, slots=True)
class _Entry:
    title: str
    permalink: str
    published: str
    updated: str
    author: str
    summary: str
    #: the picture's address, and its width and height once kept (None before)
    thumbnail: tuple[str, tuple[int, int] | None] | None = None


@dataclass(frozen=True, slots=True)
class _Missing:
    """What a feed's address names that does not exist: ``user``, ``topic`` or ``tag``."""

    what: str


@dataclass(frozen=True, slots=True)
class _Feed:
    title: str
    address: str
    alternate: str
    entries: Sequence[_Entry]

    @property
    def updated(self) -> str:
        """The latest update of an entry (timestamps sort as text), or the fixed empty value."""
        return max((entry.updated for entry in self.entries), default=EMPTY_FEED_UPDATED)


def site_feed(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """The latest public stories of the site."""
    return _answer(service, _site_feed(service))


def author_feed(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """An author's latest public stories, or the 404 page when there is no such user."""
    return _answer(service, _user_feed(service, arguments["username"]))


def topic_feed(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """A topic's latest public stories."""
    return _answer(service, _labelled_feed(service, "topic", arguments["topic"]))


def tag_feed(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """The latest public stories with a hashtag."""
    return _answer(service, _labelled_feed(service, "tag", arguments["tag"]))


def _answer(service: Service, feed: _Feed | _Missing) -> HttpResponse:
    """The feed, or the web host's HTML 404 page (as for a missing story page)."""
    if isinstance(feed, _Missing):
        return not_found_page(service, feed.what)
    return HttpResponse(200, list(_ATOM_HEADERS), _document(feed).encode())


def _site_feed(service: Service) -> _Feed:
    web_url = service.web_url
    return _Feed(
        _titled("Latest stories", service),
        f"{web_url}/{FEED_NAME}",
        f"{web_url}/",
        _entries(service, service.catalog.feed()),
    )


def _user_feed(service: Service, username: str) -> _Feed | _Missing:
    try:
        author = service.accounts.get(username)
        stories = service.catalog.feed(username=author.username)
    except NotFound:
        return _Missing("user")
    addresses = Permalinks.of(service.web_url)
    return _Feed(
        _titled(f"Stories by {author.name or author.username}", service),
        f"{addresses.author(author.username)}/{FEED_NAME}",
        addresses.author(author.username),
        _entries(service, stories),
    )


#: The feeds of a topic's and a hashtag's stories: what each holds, and its address.
_LABELLED = {
    "topic": ("Stories about {}", TOPIC_FEED),
    "tag": ("Stories tagged #{}", TAG_FEED),
}


def _labelled_feed(service: Service, kind: Literal["topic", "tag"], name: str) -> _Feed | _Missing:
    """The feed of the stories with the topic or hashtag ``name`` (``kind``), or the 404 for a
    name that is blank once normalized."""
    key = normalize_tag(name)
    if not key:
        return _Missing(kind)
    title, template = _LABELLED[kind]
    return _Feed(
        _titled(title.format(key), service),
        service.web_url + filled(template, **{kind: key}),
        f"{service.web_url}/",
        _entries(service, service.catalog.feed(**{kind: key})),
    )


def _titled(what: str, service: Service) -> str:
    """A feed's title: what it holds, on which site (``Service.site_name``, docs/decisions.md)."""
    return f"{what} on {service.site_name}"


def _entries(service: Service, stories: Sequence[FeedEntry]) -> list[_Entry]:
    addresses = Permalinks.of(service.web_url)
    site = site_of(service).showing(stories[0].kept) if stories else site_of(service)
    return [
        _Entry(
            entry.story.title,
            addresses.story(entry.story.author.username, entry.story.slug),
            entry.published,
            entry.story.updated,
            entry.story.author.name or entry.story.author.username,
            entry.story.description,
            _thumbnail(site, entry.story.thumbnail),
        )
        for entry in stories
    ]


def _thumbnail(site: pages.Site, address: str) -> tuple[str, tuple[int, int] | None] | None:
    """Where a feed shows the picture at ``address`` (as a page does), and its size once kept."""
    if not address:
        return None
    return site.picture(address), site.picture_size(address)


def _document(feed: _Feed) -> str:
    """The Atom document of ``feed``."""
    root = ET.Element("feed", xmlns=_ATOM_NAMESPACE)
    if any(entry.thumbnail for entry in feed.entries):
        root.set("xmlns:media", _MEDIA_NAMESPACE)
    _add(root, "id", feed.address)
    _add(root, "title", feed.title)
    _add(root, "updated", feed.updated)
    ET.SubElement(root, "link", rel="self", type="application/atom+xml", href=_xml(feed.address))
    ET.SubElement(root, "link", rel="alternate", type="text/html", href=_xml(feed.alternate))
    for entry in feed.entries:
        item = ET.SubElement(root, "entry")
        _add(item, "id", entry.permalink)
        _add(item, "title", entry.title)
        ET.SubElement(item, "link", rel="alternate", type="text/html", href=_xml(entry.permalink))
        _add(item, "published", entry.published)
        _add(item, "updated", entry.updated)
        _add(ET.SubElement(item, "author"), "name", entry.author)
        if entry.summary:
            _add(item, "summary", entry.summary, type="text")
        if entry.thumbnail is not None:
            address, size = entry.thumbnail
            thumbnail = ET.SubElement(item, "media:thumbnail", url=_xml(address))
            if size is not None:
                thumbnail.set("width", str(size[0]))
                thumbnail.set("height", str(size[1]))
    return _DECLARATION + ET.tostring(root, encoding="unicode") + "\n"


def _add(parent: ET.Element, tag: str, text: str, **attributes: str) -> None:
    ET.SubElement(parent, tag, attributes).text = _xml(text)


def _xml(text: str) -> str:
    """``text`` with what XML 1.0 cannot hold replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)
