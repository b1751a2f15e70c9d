"""The paths of the web host (docs/api.md#the-web-host): every path template it answers itself,
written once, here, and the part under ``/v1`` it leaves to the API.

The route table (``storycore.http.table``) gives each of these templates its handler; they are
kept on this floor so that the rules below the HTTP mapping read what the web host owns from the
same place: no user is named like the first segment of one of them (``usernames``).

A template is the path with its parameters in braces: ``{username}`` takes one segment,
``{slug}.js`` one segment ending in ``.js``, and ``{rest:path}`` the rest of the path, none or
more segments (``storycore.http.routing`` reads them).
"""

from __future__ import annotations

from urllib.parse import quote

__all__ = [
    "API",
    "API_REFERENCE",
    "API_REFERENCE_FILE",
    "AUTHOR",
    "AUTHOR_FEED",
    "CHANGE_SLUG",
    "DELETE",
    "DESK",
    "EDITOR",
    "EDITOR_PATHS",
    "FRONT",
    "HISTORY",
    "MEDIA_FILE",
    "NEW_STORY",
    "NUMBERED_SITEMAP",
    "OPENAPI",
    "PAGE_SCRIPT",
    "PREVIEW",
    "PROFILE",
    "PUBLISH",
    "ROBOTS",
    "SCHEDULE",
    "SCRIPT",
    "SEARCH",
    "SHORTLINK",
    "SIGN_IN",
    "SIGN_OUT",
    "SITEMAP",
    "SITE_FEED",
    "STATIC_FILE",
    "STORY",
    "STORY_PAGE_WORDS",
    "TAG",
    "TAG_FEED",
    "TOPIC",
    "TOPIC_FEED",
    "UNDER_DOCS",
    "UNDER_MEDIA",
    "UNDER_STATIC",
    "UNPUBLISH",
    "UNSCHEDULE",
    "WEB_PATHS",
    "filled",
    "first_words",
]

#: The API's part: every path under it is the API's (its route table, ``storycore.http.api``).
API = "/v1"
#: The OpenAPI document of the API (docs/decisions.md#the-api-reference).
OPENAPI = f"{API}/openapi.json"

FRONT = "/"
SEARCH = "/search"
AUTHOR = "/{username}"
STORY = "/{username}/{slug}"
#: A story's embed script (docs/api.md#the-web-host).
SCRIPT = "/{username}/{slug}.js"
SHORTLINK = "/s/{code}"
TOPIC = "/topics/{topic}"
TAG = "/tags/{tag}"
#: The feeds (docs/feeds.md); no slug holds a dot, so ``feed.atom`` never hides a story.
SITE_FEED = "/feed.atom"
AUTHOR_FEED = "/{username}/feed.atom"
TOPIC_FEED = "/topics/{topic}/feed.atom"
TAG_FEED = "/tags/{tag}/feed.atom"
#: What crawlers read (docs/api.md#crawlers): their rules, and the sitemap, an index of the
#: numbered sitemaps when it holds too many addresses for one.
ROBOTS = "/robots.txt"
SITEMAP = "/sitemap.xml"
NUMBERED_SITEMAP = "/sitemaps/{number}.xml"
#: The demo's files (docs/decisions.md), and every other path under ``/static``.
STATIC_FILE = "/static/demo/{name}"
#: The pages' scripts (the video posters' player), each named for its content.
PAGE_SCRIPT = "/static/{name}.js"
UNDER_STATIC = "/static/{rest:path}"
#: The pictures storycore keeps (docs/media.md#how-a-kept-picture-is-served), each named by the
#: SHA-256 of its bytes, and every other path under ``/media``.
MEDIA_FILE = "/media/{name}"
UNDER_MEDIA = "/media/{rest:path}"
#: The API reference and its viewer's files, and every other path under ``/docs``.
API_REFERENCE = "/docs/api"
API_REFERENCE_FILE = "/docs/api/{name}"
UNDER_DOCS = "/docs/{rest:path}"

#: The editor's pages (docs/editor.md): signing in and out, the writer's desk, a new story, the
#: writer's profile, and a story's editor (with the page asking before a delete), preview and
#: history; its scripts are the pages' scripts (``PAGE_SCRIPT``).
SIGN_IN = "/signin"
SIGN_OUT = "/signout"
DESK = "/me"
NEW_STORY = "/me/new"
PROFILE = "/me/profile"
EDITOR = "/{username}/{slug}/edit"
DELETE = "/{username}/{slug}/edit/delete"
PREVIEW = "/{username}/{slug}/preview"
HISTORY = "/{username}/{slug}/history"
#: The forms of a story's editor that publish it, schedule it or cancel its schedule,
#: unpublish it and change its address (docs/editor.md#publishing-the-address-and-deleting).
PUBLISH = "/{username}/{slug}/edit/publish"
SCHEDULE = "/{username}/{slug}/edit/schedule"
UNSCHEDULE = "/{username}/{slug}/edit/unschedule"
UNPUBLISH = "/{username}/{slug}/edit/unpublish"
CHANGE_SLUG = "/{username}/{slug}/edit/slug"
#: The editor's paths, which crawlers are asked to leave alone.
EDITOR_PATHS = (
    SIGN_IN,
    SIGN_OUT,
    DESK,
    NEW_STORY,
    EDITOR,
    PROFILE,
    PREVIEW,
    HISTORY,
    PUBLISH,
    SCHEDULE,
    UNSCHEDULE,
    UNPUBLISH,
    CHANGE_SLUG,
    DELETE,
)
#: The words a story's editor pages add after its slug: never slugs (``slugs``).
STORY_PAGE_WORDS = frozenset(template.rsplit("/", 1)[1] for template in (EDITOR, PREVIEW, HISTORY))

#: Every path the web host answers, the API's document included.
WEB_PATHS = (
    *EDITOR_PATHS,
    FRONT,
    SEARCH,
    AUTHOR,
    STORY,
    SCRIPT,
    SHORTLINK,
    TOPIC,
    TAG,
    SITE_FEED,
    AUTHOR_FEED,
    TOPIC_FEED,
    TAG_FEED,
    ROBOTS,
    SITEMAP,
    NUMBERED_SITEMAP,
    STATIC_FILE,
    PAGE_SCRIPT,
    UNDER_STATIC,
    MEDIA_FILE,
    UNDER_MEDIA,
    API_REFERENCE,
    API_REFERENCE_FILE,
    UNDER_DOCS,
    OPENAPI,
)


def first_words(templates: tuple[str, ...]) -> frozenset[str]:
    """The fixed first segments of ``templates`` (``/topics/{topic}`` gives ``topics``; a
    template whose first segment is a parameter gives none)."""
    firsts = (template.strip("/").split("/")[0] for template in templates)
    return frozenset(first for first in firsts if first and not first.startswith("{"))


def filled(template: str, **arguments: str) -> str:
    """The path of ``template`` with each parameter's value, percent-encoded as one segment
    (the topic ``a/b`` is at ``/topics/a%2Fb``): how every link to a topic's or a tag's page is
    written, so that any topic has a page (the route table decodes a segment once the path is
    split at its slashes)."""
    path = template
    for name, value in arguments.items():
        path = path.replace("{" + name + "}", quote(value, safe=""))
    return path
