"""The route table: everything the app answers, one row each (docs/architecture.md#routes).

API v1's operations come first (``api``: their parameters and what documents them), then the
web host's rows, each a path of ``storycore.rules.paths`` (where the reserved usernames are read
from), the handler that answers it, and what kind of answer it is. A path means the first row
that fits it (``routing``), so a row comes before the rows it must win over: a shortlink, a file
and the API reference before a user's pages, a feed and a script before a topic's or a tag's page
(``/topics/feed.atom`` is the feed of the user ``topics``, whom no one can be). A new page is a
template, a handler and a row here.
"""

from __future__ import annotations

from ..rules import paths
from . import apidocs, crawlers, feeds, media, pages, static, web
from .api import ROUTES
from .editor import deleting, desk, editing, history, preview, profile, publishing, signin
from .openapi import openapi_document
from .routing import Kind, Route, web_route

__all__ = ["TABLE"]

TABLE: tuple[Route, ...] = (
    *ROUTES,
    web_route(paths.OPENAPI, openapi_document, Kind.DOCUMENT),
    web_route(paths.SHORTLINK, web.shortlink, Kind.REDIRECT),
    web_route(paths.STATIC_FILE, static.demo_file_answer, Kind.FILE),
    web_route(paths.PAGE_SCRIPT, static.page_script_answer, Kind.FILE),
    web_route(paths.UNDER_STATIC, static.no_file, Kind.FILE),
    web_route(paths.MEDIA_FILE, media.kept_file, Kind.FILE),
    web_route(paths.UNDER_MEDIA, media.no_kept_file, Kind.FILE),
    web_route(paths.API_REFERENCE, apidocs.reference_page, Kind.PAGE),
    web_route(paths.API_REFERENCE_FILE, apidocs.reference_file, Kind.FILE),
    web_route(paths.UNDER_DOCS, pages.no_page, Kind.PAGE),
    web_route(paths.SITE_FEED, feeds.site_feed, Kind.FEED),
    web_route(paths.AUTHOR_FEED, feeds.author_feed, Kind.FEED),
    web_route(paths.TOPIC_FEED, feeds.topic_feed, Kind.FEED),
    web_route(paths.TAG_FEED, feeds.tag_feed, Kind.FEED),
    web_route(paths.ROBOTS, crawlers.robots, Kind.CRAWLERS),
    web_route(paths.SITEMAP, crawlers.sitemap, Kind.CRAWLERS),
    web_route(paths.NUMBERED_SITEMAP, crawlers.numbered_sitemap, Kind.CRAWLERS),
    web_route(paths.SCRIPT, web.script, Kind.SCRIPT),
    web_route(paths.SIGN_IN, signin.sign_in_page, Kind.EDITOR),
    web_route(paths.SIGN_IN, signin.sign_in, Kind.EDITOR, method="POST"),
    web_route(paths.SIGN_OUT, signin.sign_out, Kind.EDITOR, method="POST"),
    web_route(paths.DESK, desk.desk, Kind.EDITOR, signed_in=True),
    web_route(paths.NEW_STORY, desk.new_story, Kind.EDITOR, method="POST", signed_in=True),
    web_route(paths.EDITOR, editing.editor_page, Kind.EDITOR, signed_in=True),
    web_route(paths.EDITOR, editing.edit, Kind.EDITOR, method="POST", signed_in=True),
    web_route(paths.PROFILE, profile.profile_page, Kind.EDITOR, signed_in=True),
    web_route(paths.PROFILE, profile.change, Kind.EDITOR, method="POST", signed_in=True),
    web_route(paths.PREVIEW, preview.preview, Kind.EDITOR, signed_in=True),
    web_route(paths.HISTORY, history.history, Kind.EDITOR, signed_in=True),
    web_route(paths.HISTORY, history.restore, Kind.EDITOR, method="POST", signed_in=True),
    *(
        web_route(path, handler, Kind.EDITOR, method="POST", signed_in=True)
        for path, handler in (
            (paths.PUBLISH, publishing.publish),
            (paths.SCHEDULE, publishing.schedule),
            (paths.UNSCHEDULE, publishing.unschedule),
            (paths.UNPUBLISH, publishing.unpublish),
            (paths.CHANGE_SLUG, publishing.change_slug),
            (paths.DELETE, deleting.delete),
        )
    ),
    web_route(paths.DELETE, deleting.delete_page, Kind.EDITOR, signed_in=True),
    web_route(paths.FRONT, pages.front, Kind.PAGE),
    web_route(paths.SEARCH, pages.search, Kind.PAGE),
    web_route(paths.TOPIC, pages.topic, Kind.PAGE),
    web_route(paths.TAG, pages.tag, Kind.PAGE),
    web_route(paths.AUTHOR, pages.author, Kind.PAGE),
    web_route(paths.STORY, pages.story, Kind.PAGE),
)
