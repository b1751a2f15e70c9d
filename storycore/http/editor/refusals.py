"""The editor's answers to requests it refuses before any page's work: a form without its
session's token (403), and too many failed sign-ins (429)."""

from __future__ import annotations

from ...presentation import editor
from ...rules.paths import DESK
from ..messages import HttpResponse
from .call import EditorCall
from .frames import desk_of

__all__ = ["expired_form", "too_many"]


def expired_form(call: EditorCall) -> HttpResponse:
    """The 403 page of a form that does not carry its session's token: nothing changed."""
    body = editor.refused_page(
        desk_of(call),
        "This form has expired",
        "Nothing was changed: the form was not sent from a page of your current session. "
        "Go back, load the page again and send it once more.",
        back=call.url(DESK),
        back_text="Go to your stories",
    )
    return call.page(body, 403)


def too_many(call: EditorCall, retry_after: int) -> HttpResponse:
    """The 429 page of a sign-in over the limit of failures, with ``Retry-After``."""
    minutes = "a minute" if retry_after > 30 else f"{retry_after} seconds"
    body = editor.refused_page(
        desk_of(call),
        "Too many attempts",
        f"There were too many failed attempts to sign in. Try again in {minutes}.",
    )
    response = call.page(body, 429)
    response.headers.append(("Retry-After", str(retry_after)))
    return response
