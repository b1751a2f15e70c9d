"""The route table of API v1 (docs/api.md#calls-and-answers to 8).

Limits and enums are read from the core (``SORT_KEYS``) and from the service's ``Settings``
(page size, query length) when the document is made, so they are never copied here. Each
parameter says how it is read and under which keyword its operation takes it (``Parameter``):
the handlers take their arguments from here, and the OpenAPI document describes the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..input.declared import Flag
from ..model.queries import SORT_KEYS, parse_sort
from ..model.shapes import (
    DelegatedCreated,
    DeliveryItem,
    RevisionItem,
    Revoked,
    SearchItem,
    SlugChanged,
    StoryCreated,
    StoryDeleted,
    StoryDetail,
    StorySummary,
    TokenGrant,
    UserProfile,
    WebhookCreated,
    WebhookRemoved,
    WebhookShape,
)
from ..model.webhooks import webhook_write
from ..rules.numbers import STORE_INT_MAX
from ..settings import Settings
from . import _schema_rules as rules
from . import endpoints as e
from ._write_schemas import STORY, USER, member_schema
from .params import Read
from .routing import Credentials, Parameter, Route, Schema

__all__ = ["ROUTES"]

_TEXT = rules.text()
_BOOLEAN = {"oneOf": [{"type": "boolean"}, rules.boolean_text()]}
_WHOLE = {"type": "integer", "minimum": 1, "maximum": STORE_INT_MAX}
_DEFAULT_SORT = next(key for key, member in SORT_KEYS.items() if member == parse_sort(None))


def _page_size(settings: Settings) -> Schema:
    limits = settings.limits
    return rules.empty_or(
        {
            "type": "integer",
            "minimum": 1,
            "maximum": limits.per_page,
            "default": limits.per_page_default,
        }
    )


def _page_number(settings: Settings) -> Schema:
    # the last page whose items every page size can still count to (``PageRequest.parse``)
    last = (STORE_INT_MAX - 1) // settings.limits.per_page
    return rules.empty_or({"type": "integer", "minimum": 1, "maximum": last, "default": 1})


def _query(settings: Settings) -> Schema:
    return rules.words(max_length=settings.limits.query)


def _address(settings: Settings) -> Schema:
    return rules.address(settings.limits.address)


def _object(name: str) -> Schema:
    """A JSON object parameter: the object, or its serialized JSON
    (docs/api.md#calls-and-answers)."""
    ref = {"$ref": f"#/components/schemas/{name}"}
    return {"oneOf": [ref, rules.json_text(ref)]}


_PAGES = (
    Parameter("page", _page_number, "page number", read=Read.PAGE),
    Parameter("per_page", _page_size, "page size", read=Read.PAGE),
)
#: a list's pages, and on request the number of its items on every page (docs/decisions.md)
_LIST_PAGES = (
    *_PAGES,
    Parameter(
        "total",
        rules.boolean_text(),
        "true: the answer's `total` counts every page",
        read=Read.BOOLEAN,
    ),
)
_SORT = (
    Parameter(
        "sort",
        rules.empty_or({"type": "string", "enum": list(SORT_KEYS)}),
        f"sort key (default {_DEFAULT_SORT})",
    ),
    Parameter("order", rules.empty_or(rules.one_of_words("desc", "asc")), "default desc"),
)
_FILTERS = (
    Parameter("permalink", _address, "only the story with this permalink"),
    Parameter("tag", rules.tag(), "only stories with this hashtag (with or without #)"),
)
_STORY = Parameter(
    "story",
    _object(STORY),
    "the story members as an object or serialized JSON: title, slug, description, thumbnail, "
    "elements, private, topics, hashtags",
    required=True,
    read=Read.OBJECT,
)
_VERSION = Parameter(
    "version",
    {"oneOf": [_WHOLE, rules.positive_integer_text()]},
    "the version the change is based on (409 when it is not the current one)",
    read=Read.INTEGER,
)
#: a time to publish at, or its cancellation (docs/api.md#scheduled-publishing)
_PUBLISH_AT = Parameter(
    "publish_at",
    {
        "oneOf": [
            rules.timestamp(),
            {"type": "null"},
            {"type": "string", "maxLength": 0},
        ]
    },
    "when to publish (ISO 8601 with a zone, one second to one year ahead): the story stays "
    "working until then; null or empty cancels a schedule",
    read=Read.SCHEDULE,
)
_STORY_PATH = "/v1/stories/{username}/{slug}"
_WEBHOOKS_PATH = "/v1/webhooks"
_WEBHOOK_PATH = _WEBHOOKS_PATH + "/{webhook}"


def _webhook_member(name: str) -> Callable[[Settings], Schema]:
    """The schema of the webhook registration's member ``name``, from its declaration
    (``webhooks.webhook_write``) under the service's settings; a flag is also taken as the
    text a form sends."""

    def schema(settings: Settings) -> Schema:
        kind = webhook_write(settings.resolver_allowed_hosts)[name]
        return _BOOLEAN if isinstance(kind, Flag) else member_schema(kind, settings.limits)

    return schema


_REVISIONS_PATH = _STORY_PATH + "/revisions"
# the statuses of the operations' own faults; a route that reads credentials adds their 400
# and 401 (``openapi.py``)
_LIST_ERRORS = (400, 404)
_WRITE_ERRORS = (400, 403, 404, 409)
_ANYONE = Credentials.OPTIONAL
_USER = Credentials.REQUIRED
_IGNORED = Credentials.NONE


def _story_write(action: str, handler: object, summary: str, **extra: object) -> Route:
    return Route(
        "POST",
        f"{_STORY_PATH}/{action}",
        handler,  # type: ignore[arg-type]
        summary,
        errors=_WRITE_ERRORS,
        credentials=_USER,
        tags=("stories",),
        **extra,  # type: ignore[arg-type]
    )


ROUTES: tuple[Route, ...] = (
    Route("GET", "/v1/stories/search", e.search, "Search public stories",
          (Parameter("q", _query, "the words to find (not blank)", required=True,
                     absent_to_operation=True), *_LIST_PAGES),
          SearchItem, "stories", _LIST_ERRORS, tags=("stories",), credentials=_ANYONE),
    Route("GET", "/v1/stories", e.list_stories, "List public stories",
          (*_SORT, *_FILTERS, Parameter("containingElement", _address,
           "only stories holding an element with this permalink",
           keyword="containing_element"), *_LIST_PAGES),
          StorySummary, "stories", _LIST_ERRORS, tags=("stories",), credentials=_ANYONE),
    Route("GET", "/v1/stories/browse/latest", e.latest, "List public stories, latest first",
          (*_FILTERS, *_LIST_PAGES), StorySummary, "stories", _LIST_ERRORS, tags=("stories",),
          credentials=_ANYONE),
    Route("GET", "/v1/stories/browse/featured", e.featured, "List featured public stories",
          (*_FILTERS, *_LIST_PAGES), StorySummary, "stories", _LIST_ERRORS, tags=("stories",),
          credentials=_ANYONE),
    Route("GET", "/v1/stories/browse/popular", e.popular, "List public stories, most popular first",
          (*_FILTERS, *_LIST_PAGES), StorySummary, "stories", _LIST_ERRORS, tags=("stories",),
          credentials=_ANYONE),
    Route("GET", "/v1/stories/browse/topic/{topic}", e.topic, "List public stories of a topic",
          (*_SORT, *_FILTERS, *_LIST_PAGES), StorySummary, "stories", _LIST_ERRORS,
          tags=("stories",), credentials=_ANYONE),
    Route("GET", "/v1/stories/{username}", e.user_stories, "List a user's stories",
          (Parameter("filter", rules.empty_or(rules.word_list("working", "draft", "published")),
                     "statuses, comma-separated: working (or draft), published"),
           *_SORT, *_FILTERS, *_LIST_PAGES),
          StorySummary, "stories", _LIST_ERRORS, tags=("stories",), credentials=_ANYONE),
    Route("POST", "/v1/stories/{username}/create", e.create_story, "Create a story",
          (_STORY, Parameter("publish", _BOOLEAN, "publish now (default false)",
                             read=Read.BOOLEAN), _PUBLISH_AT),
          StoryCreated, None, _WRITE_ERRORS, tags=("stories",), credentials=_USER,
          resolves=True),
    Route("GET", _STORY_PATH, e.read_story, "Read a story with a page of its elements",
          _PAGES, StoryDetail, None, (301, 400, 404), tags=("stories",), credentials=_ANYONE),
    _story_write("save", e.save_story, "Save a story",
                 parameters=(_STORY, _VERSION, _PUBLISH_AT), content=StoryDetail, resolves=True),
    _story_write("publish", e.publish_story, "Publish a story, now or at publish_at",
                 parameters=(replace(_STORY, required=False), _VERSION, _PUBLISH_AT),
                 content=StoryDetail, resolves=True),
    _story_write("unpublish", e.unpublish_story, "Take a story back to working",
                 content=StoryDetail),
    _story_write("delete", e.delete_story, "Delete a story", content=StoryDeleted),
    _story_write("feature", e.feature_story, "Feature a story", content=StorySummary),
    _story_write("unfeature", e.unfeature_story, "Stop featuring a story", content=StorySummary),
    _story_write("editslug", e.edit_slug, "Change a story's slug",
                 parameters=(Parameter("slug", lambda s: rules.slug(s.limits.slug),
                                       "the new slug", required=True, keyword="new_slug"),),
                 content=SlugChanged),
    Route("GET", _REVISIONS_PATH, e.list_revisions, "List a story's revisions, newest first",
          _LIST_PAGES, RevisionItem, "revisions", _LIST_ERRORS, tags=("revisions",),
          credentials=_ANYONE),
    Route("GET", _REVISIONS_PATH + "/{revision}", e.read_revision,
          "Read a story as it was at a revision", _PAGES, StoryDetail, None, (400, 404),
          tags=("revisions",), credentials=_ANYONE),
    Route("POST", _REVISIONS_PATH + "/{revision}/restore", e.restore_revision,
          "Restore a revision's title, description, thumbnail and elements",
          (replace(_VERSION, schema={"oneOf": [_WHOLE, rules.positive_integer_text(empty=False)]},
                   description="the story's current version (409 when it is not)",
                   required=True),),
          StoryDetail, None, (400, 404, 409), tags=("revisions",), credentials=_ANYONE),
    Route("GET", "/v1/users", e.list_users, "List users", _LIST_PAGES, UserProfile, "users",
          (400,), tags=("users",), credentials=_ANYONE),
    Route("GET", "/v1/users/{username}", e.read_user, "Read a profile", (), UserProfile, None,
          (404,), tags=("users",), credentials=_ANYONE),
    Route("POST", "/v1/users/{username}/update", e.update_user, "Update a profile",
          (Parameter("user", _object(USER), "name, bio, location, website, avatar",
                     required=True, read=Read.OBJECT),),
          UserProfile, None, (400, 403, 404), tags=("users",), credentials=_USER),
    Route("POST", _WEBHOOKS_PATH, e.add_webhook,
          "Register a webhook; the answer holds its signing secret, shown once",
          (Parameter("url", _webhook_member("url"),
                     "where events are POSTed: http or https, without credentials, on a public "
                     "address (an IP address must be a public one; a name is checked on every "
                     "delivery), unless the deployment allowed the host",
                     required=True),
           Parameter("events", _webhook_member("events"),
                     'the event types to send: a list, or ["*"] for all (the default)',
                     read=Read.OBJECT),
           Parameter("private", _webhook_member("private"),
                     "told of private and working stories in full (default false: their "
                     "sid, username, slug, status and private only)", read=Read.BOOLEAN)),
          WebhookCreated, None, (400, 403, 409, 503), tags=("webhooks",), credentials=_USER),
    Route("GET", _WEBHOOKS_PATH, e.list_webhooks, "List the webhooks, oldest first", _PAGES,
          WebhookShape, "webhooks", (400, 403), tags=("webhooks",), credentials=_USER),
    Route("GET", _WEBHOOK_PATH, e.read_webhook, "Read a webhook", (), WebhookShape, None,
          (403, 404), tags=("webhooks",), credentials=_USER),
    Route("POST", _WEBHOOK_PATH + "/delete", e.remove_webhook,
          "Remove a webhook and its deliveries", (), WebhookRemoved, None, (403, 404),
          tags=("webhooks",), credentials=_USER),
    Route("GET", _WEBHOOK_PATH + "/deliveries", e.list_deliveries,
          "List a webhook's deliveries, newest first", _LIST_PAGES, DeliveryItem,
          "deliveries", (400, 403, 404), tags=("webhooks",), credentials=_USER),
    Route("POST", _WEBHOOK_PATH + "/deliveries/{event}/redeliver", e.redeliver,
          "Send an event to a webhook again, now", (), DeliveryItem, None, (403, 404),
          tags=("webhooks",), credentials=_USER),
    # oEmbed clients send no credentials; any sent are ignored
    Route("GET", "/v1/oembed", e.oembed, "oEmbed 1.0 answer for a story's permalink",
          (Parameter("url", {**_TEXT, "minLength": 1}, "the story's permalink", required=True,
                     absent_to_operation=True),
           Parameter("format", rules.empty_or(rules.one_of_words("json", "xml")),
                     "json (the default) or xml", keyword=None),
           Parameter("maxwidth", rules.empty_or(_WHOLE), "largest width", read=Read.INTEGER),
           Parameter("maxheight", rules.empty_or(_WHOLE), "largest height",
                     read=Read.INTEGER)),
          None, None, (400, 404), bare=True, tags=("embed",), credentials=_IGNORED),
    # the caller is proven by the identity provider (OAuth Echo), the application by api_key
    Route("POST", "/v1/delegated/create", e.delegated_create,
          "Create a story for an identity-provider user (OAuth Echo; experimental)",
          (replace(_STORY, absent_to_operation=True),
           Parameter("publish", _BOOLEAN, "publish now (default true)", read=Read.BOOLEAN,
                     default=True),
           Parameter("api_key", _TEXT, "key of an application with a delegation grant "
                     "(or the X-Api-Key header)")),
          DelegatedCreated, None, (400, 401, 403, 429, 502), tags=("delegation",),
          credentials=_IGNORED, calls_out=True),
    # the caller proves itself with a password: api_key and username are this route's own
    Route("POST", "/v1/auth", e.authenticate, "Get a user token",
          (Parameter("api_key", _TEXT, "application key (or the X-Api-Key header)"),
           Parameter("username", _TEXT, "", required=True),
           Parameter("password", _TEXT, "", required=True)),
          TokenGrant, None, (400, 401), tags=("auth",), credentials=_IGNORED),
    # authenticated by the token it ends: a bearer token, or api_key, username and _token
    Route("POST", "/v1/auth/revoke", e.revoke, "Revoke the token the call is made with",
          (), Revoked, None, (400, 401), tags=("auth",), credentials=_USER),
)  # fmt: skip
