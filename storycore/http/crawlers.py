"""What crawlers read on the web host (docs/api.md#crawlers): ``/robots.txt`` and the sitemaps.

robots.txt asks every crawler to leave the editor's paths alone (``rules.crawlers``: the same
lines whether or not the app serves the editor, for the paths are the web host's either way)
and names the sitemap. The sitemap (sitemaps.org 0.9) names the front page, every author of a
public story search engines may index and every such story (``usecases.sitemap``), each with
its last change as ``lastmod``; when it would name more than ``SITEMAP_SIZE`` addresses it is
an index of numbered sitemaps (``/sitemaps/{n}.xml``), each of at most that many. Every answer
is cached as the web host's others are (``conditional``: an ETag of its content).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit
from xml.sax.saxutils import escape

from ..rules.crawlers import disallowed
from ..rules.paths import NUMBERED_SITEMAP, SITEMAP, filled
from ..rules.permalinks import Permalinks
from ..service import Service
from ..usecases.sitemap import SitemapEntry
from .messages import HttpRequest, HttpResponse
from .pages import not_found_page

__all__ = ["SITEMAP_SIZE", "numbered_sitemap", "robots", "sitemap"]

#: The most addresses one sitemap names (sitemaps.org's limit).
SITEMAP_SIZE = 50_000

_TEXT = "text/plain; charset=utf-8"
_XML = "application/xml; charset=utf-8"
_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9"
_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
# a sitemap's number as its address writes it: no sign, no leading zero, not absurdly long
_NUMBER = re.compile(r"\A[1-9][0-9]{0,8}\Z")


def robots(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """The rules for every crawler: the editor's paths disallowed, the sitemap named."""
    web_url = service.web_url
    prefix = urlsplit(web_url).path.rstrip("/")
    lines = [
        "# Pages people read may be crawled; the editor's may not.",
        "User-agent: *",
        *(f"Disallow: {pattern}" for pattern in disallowed(prefix)),
        "",
        f"Sitemap: {web_url}{SITEMAP}",
    ]
    return _answer(_TEXT, "\n".join(lines) + "\n")


def sitemap(
    service: Service,
    request: HttpRequest,
    arguments: dict[str, str],
    *,
    size: int = SITEMAP_SIZE,
) -> HttpResponse:
    """The sitemap, or past ``size`` addresses the index of the numbered sitemaps."""
    total = service.sitemap.size()
    if total <= size:
        return _answer(_XML, _urlset(service, service.sitemap.entries(0, size)))
    web_url = service.web_url
    sitemaps = "".join(
        f"<sitemap><loc>{escape(web_url + filled(NUMBERED_SITEMAP, number=str(number)))}"
        "</loc></sitemap>\n"
        for number in range(1, _parts(total, size) + 1)
    )
    body = f'{_DECLARATION}<sitemapindex xmlns="{_NAMESPACE}">\n{sitemaps}</sitemapindex>\n'
    return _answer(_XML, body)


def numbered_sitemap(
    service: Service,
    request: HttpRequest,
    arguments: dict[str, str],
    *,
    size: int = SITEMAP_SIZE,
) -> HttpResponse:
    """The ``number``-th sitemap of the index: the addresses after the ``number - 1`` before
    it, at most ``size``; the HTML 404 for a number past the last."""
    number = arguments["number"]
    if not _NUMBER.fullmatch(number) or int(number) > _parts(service.sitemap.size(), size):
        return not_found_page(service, "sitemap")
    entries = service.sitemap.entries((int(number) - 1) * size, size)
    return _answer(_XML, _urlset(service, entries))


def _parts(total: int, size: int) -> int:
    """How many sitemaps of at most ``size`` addresses hold ``total``."""
    return max(1, -(-total // size))


def _urlset(service: Service, entries: Iterable[SitemapEntry]) -> str:
    """The sitemap of ``entries``. Usernames and slugs hold no character XML escapes (letters,
    digits, ``_`` and ``-``: ``rules.usernames``, ``rules.slugs``), so only the web address is
    escaped, once."""
    base = escape(service.web_url)
    addresses = Permalinks.of(base)
    urls = []
    for username, slug, updated in entries:
        if username is None:
            loc = f"{base}/"
        elif slug is None:
            loc = addresses.author(username)
        else:
            loc = addresses.story(username, slug)
        lastmod = "" if updated is None else f"<lastmod>{updated}</lastmod>"
        urls.append(f"<url><loc>{loc}</loc>{lastmod}</url>\n")
    return f'{_DECLARATION}<urlset xmlns="{_NAMESPACE}">\n{"".join(urls)}</urlset>\n'


def _answer(content_type: str, body: str) -> HttpResponse:
    headers = [("Content-Type", content_type), ("X-Content-Type-Options", "nosniff")]
    return HttpResponse(200, headers, body.encode())
