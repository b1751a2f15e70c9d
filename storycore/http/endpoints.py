"""The endpoints of API v1: each turns a call into one service operation and its answer.

An endpoint takes the operation's arguments from its route's declaration (``Call.arguments``:
the path's, then each parameter read as declared, under its keyword), so no parameter's name
or reading is written here. The caller (``call.viewer``) was resolved from the credentials
before the endpoint runs, as its route declares (``Credentials``); an endpoint never reads them
itself.
"""

from __future__ import annotations

from ..errors import InvalidParameter
from ..presentation.embed.oembed import oembed_xml
from .call import Call, reading_content
from .callers import sent_token
from .messages import XML_TYPE, HttpResponse, json_response

__all__: list[str] = []  # the route table (``api.py``) is the public face of these


# -- stories: lists --------------------------------------------------------------------------


def search(call: Call) -> HttpResponse:
    return call.listing(call.service.listings.search(**call.arguments(), viewer=call.viewer))


def list_stories(call: Call) -> HttpResponse:
    return call.listing(call.service.listings.stories(**call.arguments()))


def latest(call: Call) -> HttpResponse:
    return call.listing(call.service.listings.latest(**call.arguments()))


def featured(call: Call) -> HttpResponse:
    return call.listing(call.service.listings.featured(**call.arguments()))


def popular(call: Call) -> HttpResponse:
    return call.listing(call.service.listings.popular(**call.arguments()))


def topic(call: Call) -> HttpResponse:
    return call.listing(call.service.listings.topic(**call.arguments()))


def user_stories(call: Call) -> HttpResponse:
    return call.listing(call.service.listings.user(**call.arguments(), viewer=call.viewer))


# -- stories: one story ----------------------------------------------------------------------


def read_story(call: Call) -> HttpResponse:
    reading = call.service.stories.open(**call.arguments(), viewer=call.viewer, as_documents=True)
    # the read's own tag costs no digest of the answer (``conditional`` answers the 304)
    headers = [("ETag", reading.etag), *call.element_links(reading)]
    return call.ok(reading_content(reading), headers)


def create_story(call: Call) -> HttpResponse:
    return call.ok(call.service.stories.create(**call.arguments(), viewer=call.viewer))


def save_story(call: Call) -> HttpResponse:
    return call.ok(call.service.stories.save(**call.arguments(), viewer=call.viewer))


def publish_story(call: Call) -> HttpResponse:
    return call.ok(call.service.stories.publish(**call.arguments(), viewer=call.viewer))


def unpublish_story(call: Call) -> HttpResponse:
    return call.ok(call.service.stories.unpublish(**call.arguments(), viewer=call.viewer))


def delete_story(call: Call) -> HttpResponse:
    return call.ok(call.service.stories.delete(**call.arguments(), viewer=call.viewer))


def feature_story(call: Call) -> HttpResponse:
    return call.ok(call.service.stories.feature(**call.arguments(), viewer=call.viewer))


def unfeature_story(call: Call) -> HttpResponse:
    return call.ok(call.service.stories.unfeature(**call.arguments(), viewer=call.viewer))


def edit_slug(call: Call) -> HttpResponse:
    return call.ok(call.service.stories.change_slug(**call.arguments(), viewer=call.viewer))


# -- revisions (docs/api.md#revisions) ---------------------------------------------------------


def list_revisions(call: Call) -> HttpResponse:
    return call.listing(call.service.revisions.list(**call.arguments(), viewer=call.viewer))


def read_revision(call: Call) -> HttpResponse:
    reading = call.service.revisions.open(**call.arguments(), viewer=call.viewer)
    return call.ok(reading.detail, call.element_links(reading))


def restore_revision(call: Call) -> HttpResponse:
    return call.ok(call.service.revisions.restore(**call.arguments(), viewer=call.viewer))


# -- users and authentication ----------------------------------------------------------------


def list_users(call: Call) -> HttpResponse:
    return call.listing(call.service.accounts.list(**call.arguments()))


def read_user(call: Call) -> HttpResponse:
    return call.ok(call.service.accounts.get(**call.arguments()))


def update_user(call: Call) -> HttpResponse:
    return call.ok(call.service.accounts.update(**call.arguments(), viewer=call.viewer))


def authenticate(call: Call) -> HttpResponse:
    return call.ok(call.service.accounts.authenticate(**call.arguments()))


def revoke(call: Call) -> HttpResponse:
    """The token the call proved itself with ends (docs/api.md#credentials)."""
    return call.ok(call.service.accounts.revoke(sent_token(call.request, call.params) or ""))


# -- the public web host's API part ----------------------------------------------------------


def oembed(call: Call) -> HttpResponse:
    """oEmbed answers a bare object, as oEmbed clients expect (docs/api.md), in
    JSON or in oEmbed's XML (``format``, read before the operation's own parameters)."""
    form = (call.read("format") or "json").lower()
    if form not in ("json", "xml"):
        raise InvalidParameter("format must be json or xml", field="format")
    answer = call.service.embeds.oembed(**call.arguments())
    if form == "xml":
        return HttpResponse(200, [("Content-Type", XML_TYPE)], oembed_xml(answer))
    return json_response(answer)


def delegated_create(call: Call) -> HttpResponse:
    """The identity provider and the user's authorization for it come in headers of their
    own (docs/delegation.md)."""
    created = call.service.delegation.create(
        **call.arguments(),
        provider=call.request.header("x-auth-service-provider"),
        authorization=call.request.header("x-verify-credentials-authorization"),
    )
    return call.ok(created)


# -- webhooks (docs/webhooks.md) -------------------------------------------------------------


def add_webhook(call: Call) -> HttpResponse:
    return call.ok(call.service.webhooks.add(**call.arguments(), viewer=call.viewer))


def list_webhooks(call: Call) -> HttpResponse:
    return call.listing(call.service.webhooks.list(**call.arguments(), viewer=call.viewer))


def read_webhook(call: Call) -> HttpResponse:
    return call.ok(call.service.webhooks.read(**call.arguments(), viewer=call.viewer))


def remove_webhook(call: Call) -> HttpResponse:
    return call.ok(call.service.webhooks.remove(**call.arguments(), viewer=call.viewer))


def list_deliveries(call: Call) -> HttpResponse:
    return call.listing(call.service.webhooks.deliveries(**call.arguments(), viewer=call.viewer))


def redeliver(call: Call) -> HttpResponse:
    return call.ok(call.service.webhooks.redeliver(**call.arguments(), viewer=call.viewer))
