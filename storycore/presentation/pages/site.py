"""The site a page belongs to: its address, its name and the addresses of its pages."""

from __future__ import annotations

from dataclasses import dataclass, replace
from urllib.parse import urlencode

from ...model.kept import NOTHING_KEPT, KeptCopy, KeptPictures
from ...rules.own_files import OWN_FILES, shown_at
from ...rules.paths import TAG, TOPIC, filled
from ...rules.permalinks import Permalinks
from ...rules.video_players import VideoPlayer
from ...settings import Limits
from .. import own_pictures

__all__ = ["Site"]


@dataclass(frozen=True, slots=True)
class Site:
    """The web host at ``web_url`` (without a trailing slash), named ``name``
    (``Service.site_name``), whose video posters give way to ``players`` and whose searches
    hold at most ``query_limit`` characters (``Settings.limits.query``). A page shows the
    pictures of ``kept`` (what its one lookup found, docs/media.md#where-kept-pictures-show)
    from the copies storycore keeps, so a page is rendered again once one is kept."""

    web_url: str
    name: str
    players: tuple[VideoPlayer, ...] = ()
    query_limit: int = Limits().query
    kept: KeptPictures = NOTHING_KEPT

    def showing(self, kept: KeptPictures) -> Site:
        """This site, its pages showing the kept copies of ``kept`` too."""
        return replace(self, kept=self.kept | kept) if kept else self

    def picture(self, address: str) -> str:
        """Where a page of this site shows the picture stored at ``address``: its kept copy
        (the widest), once kept; a file storycore serves itself from this site
        (``storycore.rules.own_files``); any other as stored."""
        copy = self.kept.original(address)
        if copy is not None:
            return self._kept_file(copy)
        return shown_at(address, self.web_url)

    def picture_size(self, address: str) -> tuple[int, int] | None:
        """The width and height of the kept copy ``picture`` shows, or None while there is
        none."""
        copy = self.kept.original(address)
        return None if copy is None else (copy.width, copy.height)

    def picture_widths(self, address: str) -> tuple[tuple[str, int], ...]:
        """The addresses of the picture stored at ``address`` in each width this site serves
        it in, with the width, narrowest first (docs/api.md#pictures-in-widths): its kept
        copies, once kept; one of storycore's own files that comes in several widths
        (``own_pictures.widths``); none for any other, which is shown as it is, there being
        nothing to resize."""
        copies = self.kept.copies(address)
        if copies:
            widths = ((self._kept_file(copy), copy.width) for copy in copies)
            return tuple(sorted(widths, key=lambda found: found[1]))
        shown = self.picture(address)
        own = f"{self.web_url}{OWN_FILES}"
        if not shown.startswith(own):
            return ()
        return tuple((own + name, width) for name, width in own_pictures.widths(shown[len(own) :]))

    def srcset(self, address: str) -> str:
        """The ``srcset`` of an ``<img>`` of the picture stored at ``address``: each width
        this site serves it in (``picture_widths``), or nothing."""
        return ", ".join(f"{url} {width}w" for url, width in self.picture_widths(address))

    def _kept_file(self, copy: KeptCopy) -> str:
        return Permalinks(self.web_url).media(copy.file_name)

    @property
    def home(self) -> str:
        """The front page."""
        return f"{self.web_url}/"

    @property
    def feed(self) -> str:
        """The site's Atom feed (docs/feeds.md)."""
        return f"{self.web_url}/feed.atom"

    @property
    def search_url(self) -> str:
        """The search page, without a query."""
        return f"{self.web_url}/search"

    def story(self, username: str, slug: str) -> str:
        """A story's permalink."""
        return Permalinks(self.web_url).story(username, slug)

    def script(self, username: str, slug: str) -> str:
        """A story's embed script."""
        return Permalinks(self.web_url).script(username, slug)

    def author(self, username: str) -> str:
        """An author's page."""
        return Permalinks(self.web_url).author(username)

    def author_feed(self, username: str) -> str:
        """An author's Atom feed."""
        return f"{self.author(username)}/feed.atom"

    def topic(self, topic: str) -> str:
        """A topic's page."""
        return self.web_url + filled(TOPIC, topic=topic)

    def tag(self, tag: str) -> str:
        """A hashtag's page."""
        return self.web_url + filled(TAG, tag=tag)

    def search(self, q: str) -> str:
        """The search page for ``q``."""
        return f"{self.search_url}?{urlencode({'q': q})}"

    def oembed(self, permalink: str) -> str:
        """The oEmbed answer for ``permalink`` (docs/api.md#the-web-host)."""
        return f"{self.web_url}/v1/oembed?{urlencode({'url': permalink, 'format': 'json'})}"
