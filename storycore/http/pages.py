"""The pages people read on the web host (docs/api.md#the-web-host): the story page, the author
page, the front page, a topic's and a hashtag's pages, the search page, and the web host's HTML
404. Each reads the service, then hands what it read to ``storycore.presentation.pages``, which
renders the HTML. Each handler answers a row of the route table (``table``); ``HttpApp`` gives
every 200 its ``ETag`` and ``Cache-Control`` (``conditional``), as it does every answer of the web
host. Every page carries the headers of ``page_headers`` (its security policy among them).

A page number (``?page=N``) that is not a whole number from 1, or a page past the last (but
the first), is the HTML 404: there is no such page. A topic's or a hashtag's page without a
public story is the 404 too, its first page included (an empty list is no page). A search the
service refuses (a query longer than its limit) is the search page holding the query and saying
what is wrong, a 400.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from ..errors import InvalidParameter, NotFound, StorycoreError, StoryMoved
from ..presentation import pages
from ..rules.hashtags import normalize_tag
from ..service import Service
from .messages import HttpRequest, HttpResponse
from .page_headers import service_page_headers
from .redirects import redirect

__all__ = [
    "author",
    "error_answer",
    "front",
    "no_page",
    "not_found_page",
    "search",
    "story",
    "tag",
    "topic",
]

#: The featured stories the front page shows above the latest.
FRONT_FEATURED = 4
#: The stories a list page shows at once.
LIST_SIZE = 20
#: The author's other stories a story page shows after the story's last page.
MORE = 3


def site_of(service: Service) -> pages.Site:
    """The site whose pages ``service`` answers with."""
    settings = service.settings
    return pages.Site(
        service.web_url, service.site_name, settings.video_players, settings.limits.query
    )


def not_found_page(service: Service, what: str) -> HttpResponse:
    """The web host's 404 page for a missing ``what`` (a story, a user, a page, ...)."""
    body = pages.not_found_page(site_of(service), what)
    return HttpResponse(404, service_page_headers(service), body.encode())


#: The heading of the page of a refused request, by its status.
_REFUSALS = {
    405: "Not a request this page takes",
    413: "Too large",
    429: "Too many requests",
    503: "Busy for a moment",
}


def error_answer(service: Service, error: StorycoreError) -> HttpResponse:
    """The web host's page for a request it refuses (a method a page does not take, a body
    over the limit, ...): ``error``'s status and headers, and what it says, as a page, for no
    JSON reaches a browser from the web host's paths."""
    heading = _REFUSALS.get(error.status, "This request cannot be answered")
    if error.status >= 500:
        heading = _REFUSALS.get(error.status, "Something went wrong")
    body = pages.error_page(site_of(service), heading, str(error))
    headers = service_page_headers(service) + error.headers()
    return HttpResponse(error.status, headers, body.encode())


def _html(service: Service, body: str) -> HttpResponse:
    return HttpResponse(200, service_page_headers(service), body.encode())


def _page(request: HttpRequest) -> str | None:
    return request.query().get("page")


def front(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """The front page: featured stories, then the latest."""
    page = _page(request)
    return _listed(service, lambda: _front(service, page))


def search(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """The search page."""
    return _search(service, request, _page(request))


def topic(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """A topic's public stories."""
    page = _page(request)
    return _listed(service, lambda: _tagged(service, "topic", arguments["topic"], page))


def tag(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """The public stories with a hashtag."""
    page = _page(request)
    return _listed(service, lambda: _tagged(service, "tag", arguments["tag"], page))


def author(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """An author's page and their public stories."""
    page = _page(request)
    return _listed(service, lambda: _author(service, arguments["username"], page), "user")


def story(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """The story page."""
    return _story(service, request, arguments["username"], arguments["slug"], _page(request))


def no_page(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """The HTML 404 of a path under a first segment the web host keeps for itself."""
    return not_found_page(service, "page")


def _listed(service: Service, render: Callable[[], str], missing: str = "page") -> HttpResponse:
    """The page ``render`` makes, or the 404 when what it shows, or its page, does not
    exist."""
    try:
        return _html(service, render())
    except NotFound:
        return not_found_page(service, missing)
    except InvalidParameter:
        return not_found_page(service, "page")


def _story(
    service: Service, request: HttpRequest, username: str, slug: str, page: str | None
) -> HttpResponse:
    try:
        shown = service.embeds.page(username, slug, page=page)
    except StoryMoved as moved:
        return redirect(request, f"/{moved.username}/{moved.slug}")
    except NotFound:
        return not_found_page(service, "story")
    except InvalidParameter:
        return not_found_page(service, "page")
    more = [] if shown.has_next else service.catalog.more_by(shown.author, shown.story.id, MORE)
    site = site_of(service).showing(service.embeds.kept_on_page(shown, more))
    author = shown.author
    body = pages.kept_story_page(
        site,
        author=shown.author,
        story=shown.story,
        documents=shown.documents,
        page=shown.page,
        has_next=shown.has_next,
        minutes=shown.minutes,
        more=more,
        summaries=lambda: service.catalog.summaries_of(more, author),
    )
    return _html(service, body)


def _author(service: Service, username: str, page: str | None) -> str:
    author = service.accounts.get(username)
    stories = service.catalog.user(author.username, page=page, per_page=LIST_SIZE)
    _exists(stories.page, stories.items)
    return pages.author_page(site_of(service).showing(stories.kept), author, stories)


def _front(service: Service, page: str | None) -> str:
    latest = service.catalog.latest(page=page, per_page=LIST_SIZE)
    _exists(latest.page, latest.items)
    featured = service.catalog.featured(per_page=FRONT_FEATURED) if latest.page == 1 else None
    shown = [] if featured is None else featured.items
    topics = service.catalog.topics([*shown, *latest.items])
    site = site_of(service).showing(latest.kept | featured.kept if featured else latest.kept)
    return pages.kept_front_page(site, featured=shown, latest=latest, topics=topics)


def _tagged(service: Service, kind: Literal["topic", "tag"], name: str, page: str | None) -> str:
    """A topic's or a hashtag's page; ``NotFound`` when that page holds no public story, the
    first too: a list any word's address reaches is no page when it is empty (a "soft 404")."""
    key = normalize_tag(name)
    if not key:
        raise NotFound(f"there is no {kind} {name!r}")
    if kind == "topic":
        stories = service.catalog.topic(key, page=page, per_page=LIST_SIZE)
    else:
        stories = service.catalog.latest(tag=key, page=page, per_page=LIST_SIZE)
    if not stories.items:
        raise NotFound(f"the {kind} {key!r} has no public story on page {stories.page}")
    return pages.tagged_page(site_of(service).showing(stories.kept), kind, key, stories)


def _search(service: Service, request: HttpRequest, page: str | None) -> HttpResponse:
    """The search page. Without words, the form alone (an empty search is not an error, and
    no page number is read); a query the search refuses, the form holding it and saying why
    (400, still the search page); a page number that is no page of the results, the 404."""
    site = site_of(service)
    q = request.query().get("q", "").strip()
    if not q:
        return _html(service, pages.search_page(site, "", None))
    try:
        # counted for the page's heading ("12 stories found"): docs/api.md#the-search-page
        results = service.catalog.search(q, page=page, per_page=LIST_SIZE, total=True)
        _exists(results.page, results.items)
    except NotFound:
        return not_found_page(service, "page")
    except InvalidParameter as invalid:
        if invalid.field != "q":
            return not_found_page(service, "page")
        # the search's one rule on a query with words is its length (Settings.limits.query)
        problem = (
            f"A search can be at most {site.query_limit} characters long, and this one is "
            f"{len(q)}. Shorten it and search again."
        )
        body = pages.search_page(site, q, None, problem=problem)
        return HttpResponse(400, service_page_headers(service), body.encode())
    return _html(service, pages.search_page(site.showing(results.kept), q, results))


def _exists(page: int, items: Sequence[object]) -> None:
    """``NotFound`` for a page past the last of a list; its first page always exists."""
    if page > 1 and not items:
        raise NotFound(f"this list has no page {page}")
