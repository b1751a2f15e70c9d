"""The endpoints of API v1: each turns a call into one service operation and its answer.

The caller (``call.viewer``) was resolved from the credentials before the endpoint runs, as
its route declares (``Credentials``); an endpoint never reads them itself.
"""

from __future__ import annotations

from collections.abc import Callable

from ..presentation.embed.oembed import oembed_xml
from ..errors import InvalidParameter
from .call import Call, reading_content
from .callers import sent_token
from .messages import XML_TYPE, HttpResponse, json_response

__all__: list[str] = []  # the route table (``api.py``) is the public face of these


def _story_param(call: Call, *, required: bool) -> object:
    story = call.params.raw("story")
    if story is None and required:
        raise InvalidParameter("story is required", field="story")
    return story


# -- stories: lists --------------------------------------------------------------------------


def search(call: Call) -> HttpResponse:
    page = call.service.catalog.search(
        call.params.text("q"),
        viewer=call.viewer,
        **call.pages(),
    )
    return call.listing(page, "stories")


def list_stories(call: Call) -> HttpResponse:
    page = call.service.catalog.stories(
        containing_element=call.params.text("containingElement"),
        sort=call.params.text("sort"),
        order=call.params.text("order"),
        permalink=call.params.text("permalink"),
        tag=call.params.text("tag"),
        **call.pages(),
    )
    return call.listing(page, "stories")


def latest(call: Call) -> HttpResponse:
    return call.listing(
        call.service.catalog.latest(
            permalink=call.params.text("permalink"),
            tag=call.params.text("tag"),
            **call.pages(),
        ),
        "stories",
    )


def featured(call: Call) -> HttpResponse:
    page = call.service.catalog.featured(
        permalink=call.params.text("permalink"),
        tag=call.params.text("tag"),
        **call.pages(),
    )
    return call.listing(page, "stories")


def popular(call: Call) -> HttpResponse:
    page = call.service.catalog.popular(
        permalink=call.params.text("permalink"),
        tag=call.params.text("tag"),
        **call.pages(),
    )
    return call.listing(page, "stories")


def topic(call: Call) -> HttpResponse:
    page = call.service.catalog.topic(
        call.args["topic"],
        sort=call.params.text("sort"),
        order=call.params.text("order"),
        permalink=call.params.text("permalink"),
        tag=call.params.text("tag"),
        **call.pages(),
    )
    return call.listing(page, "stories")


def user_stories(call: Call) -> HttpResponse:
    page = call.service.catalog.user(
        call.args["username"],
        viewer=call.viewer,
        filter=call.params.text("filter"),
        sort=call.params.text("sort"),
        order=call.params.text("order"),
        permalink=call.params.text("permalink"),
        tag=call.params.text("tag"),
        **call.pages(),
    )
    return call.listing(page, "stories")


# -- stories: one story ----------------------------------------------------------------------


def read_story(call: Call) -> HttpResponse:
    reading = call.service.stories.open(
        call.args["username"],
        call.args["slug"],
        viewer=call.viewer,
        page=call.params.page("page"),
        per_page=call.params.page("per_page"),
        as_documents=True,
    )
    # the read's own tag costs no digest of the answer (``conditional`` answers the 304)
    headers = [("ETag", reading.etag), *call.link_headers(reading.detail.page, reading.has_next)]
    return call.ok(reading_content(reading), headers)


def create_story(call: Call) -> HttpResponse:
    created = call.service.stories.create(
        call.args["username"],
        _story_param(call, required=True),  # type: ignore[arg-type]
        viewer=call.viewer,
        publish=call.params.boolean("publish", False),
    )
    return call.ok(created)


def save_story(call: Call) -> HttpResponse:
    saved = call.service.stories.save(
        call.args["username"],
        call.args["slug"],
        _story_param(call, required=True),  # type: ignore[arg-type]
        viewer=call.viewer,
        version=call.params.integer("version"),
    )
    return call.ok(saved)


def publish_story(call: Call) -> HttpResponse:
    published = call.service.stories.publish(
        call.args["username"],
        call.args["slug"],
        _story_param(call, required=False),  # type: ignore[arg-type]
        viewer=call.viewer,
        version=call.params.integer("version"),
    )
    return call.ok(published)


def _story_action(action: str) -> Callable[[Call], HttpResponse]:
    """The endpoint of a story operation that takes no parameter but the caller."""

    def endpoint(call: Call) -> HttpResponse:
        operation = getattr(call.service.stories, action)
        return call.ok(operation(call.args["username"], call.args["slug"], viewer=call.viewer))

    endpoint.__name__ = f"{action}_story"
    return endpoint


unpublish_story = _story_action("unpublish")
delete_story = _story_action("delete")
feature_story = _story_action("feature")
unfeature_story = _story_action("unfeature")


def edit_slug(call: Call) -> HttpResponse:
    new_slug = call.params.text("slug", required=True)
    assert new_slug is not None
    changed = call.service.stories.change_slug(
        call.args["username"], call.args["slug"], new_slug, viewer=call.viewer
    )
    return call.ok(changed)


# -- users and authentication ----------------------------------------------------------------


def list_users(call: Call) -> HttpResponse:
    return call.listing(
        call.service.accounts.list(**call.pages()),
        "users",
    )


def read_user(call: Call) -> HttpResponse:
    return call.ok(call.service.accounts.get(call.args["username"]))


def update_user(call: Call) -> HttpResponse:
    user = call.params.raw("user")
    if user is None:
        raise InvalidParameter("user is required", field="user")
    return call.ok(call.service.accounts.update(call.args["username"], user, viewer=call.viewer))


def authenticate(call: Call) -> HttpResponse:
    grant = call.service.accounts.authenticate(
        call.params.text("api_key"),
        call.params.text("username", required=True) or "",
        call.params.text("password", required=True) or "",
    )
    return call.ok(grant)


def revoke(call: Call) -> HttpResponse:
    """The token the call proved itself with ends (decisions section 15)."""
    return call.ok(call.service.accounts.revoke(sent_token(call.request, call.params) or ""))


# -- the public web host's API part ----------------------------------------------------------


def oembed(call: Call) -> HttpResponse:
    """oEmbed answers a bare object, as oEmbed clients expect (decisions section 13), in
    JSON or in oEmbed's XML."""
    form = (call.params.text("format") or "json").lower()
    if form not in ("json", "xml"):
        raise InvalidParameter("format must be json or xml", field="format")
    answer = call.service.embeds.oembed(
        call.params.text("url"),
        maxwidth=call.params.integer("maxwidth"),
        maxheight=call.params.integer("maxheight"),
    )
    if form == "xml":
        return HttpResponse(200, [("Content-Type", XML_TYPE)], oembed_xml(answer))
    return json_response(answer)


def delegated_create(call: Call) -> HttpResponse:
    created = call.service.delegation.create(
        api_key=call.params.text("api_key"),
        provider=call.request.header("x-auth-service-provider"),
        authorization=call.request.header("x-verify-credentials-authorization"),
        story=call.params.raw("story"),
        publish=call.params.boolean("publish", True),
    )
    return call.ok(created)
