"""Signing in and out (docs/editor.md#signing-in): the sign-in form, which returns to the page
that asked for it, and the sign-out, which ends the session's token everywhere.

Every failure says the same thing (401), whether the username is unknown or the password wrong;
past the limit of failures (per username and per client address, across every process on the
store) the page is a 429 with ``Retry-After``, and the password is not even tried.
"""

from __future__ import annotations

from ...errors import RateLimited, Unauthorized
from ...presentation import editor
from ...rules.paths import DESK, SIGN_IN
from ..messages import HttpResponse
from ..pages import not_found_page
from . import sessions
from .call import EditorCall, local_path
from .frames import desk_of
from .refusals import too_many

__all__ = ["sign_in", "sign_in_page", "sign_out"]

_WRONG = "The username or the password is wrong. Check both and try again."


def sign_in_page(call: EditorCall) -> HttpResponse:
    """The sign-in form; for a writer signed in already, where it would return."""
    if call.hosted:
        return not_found_page(call.service, "page")
    next_path = local_path(call.request.query().get("next", "")) or DESK
    if call.viewer.user is not None:
        return call.see_other(next_path)
    return _form(call, next_path)


def sign_in(call: EditorCall) -> HttpResponse:
    """A sign-in: the session cookie and a 303 to where the form returns; the form again
    saying what was wrong (401), or the 429 page past the limit."""
    if call.hosted:
        return not_found_page(call.service, "page")
    form = call.form
    username = form.get("username").strip()
    next_path = local_path(form.get("next")) or DESK
    try:
        token = call.service.accounts.sign_in(
            username, form.get("password"), address=call.request.client
        )
    except RateLimited as limited:
        return too_many(call, limited.retry_after)
    except Unauthorized:
        return _form(call, next_path, username, _WRONG, 401)
    lifetime = int(call.service.settings.token_lifetime.total_seconds())
    session = sessions.cookie(call.service.web_url, sessions.SESSION_COOKIE, token, lifetime)
    response = call.see_other(next_path)
    response.headers.append(("Set-Cookie", session))
    return response


def sign_out(call: EditorCall) -> HttpResponse:
    """Ends the session: its token is revoked (refused everywhere from now on) and the
    cookie deleted; back to the sign-in page, which says so."""
    token = call.request.cookie(sessions.SESSION_COOKIE)
    if token and call.viewer.user is not None:
        call.service.accounts.revoke(token)
    call.cookies.append(sessions.expired_cookie(call.service.web_url, sessions.SESSION_COOKIE))
    return call.see_other(SIGN_IN, done="signed-out")


def _form(
    call: EditorCall, next_path: str, username: str = "", problem: str = "", status: int = 200
) -> HttpResponse:
    body = editor.signin_page(
        desk_of(call),
        action=call.url(SIGN_IN),
        next_path=next_path,
        username=username,
        problem=problem,
    )
    return call.page(body, status)
