"""The writer's profile (``/me/profile``, docs/editor.md#the-profile): the members of a profile
(name, bio, location, website, avatar) and the password, each a form of its own posted to the
same address (its ``action`` field says which), going back there saying what was saved.

A refused value is shown beside its field with everything typed kept (a password is never sent
back), with the API's status. Changing the password ends every other session of the writer
(and every token an API client holds for them) and keeps this one. When the host application
signs its users in (``editor_user``), storycore's password is not how they sign in, so the
page offers no password form and refuses its action.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import InvalidParameter
from ...model.members import PROFILE_WRITE
from ...presentation import editor
from ...rules.paths import PROFILE
from ..messages import HttpResponse
from ..pages import not_found_page
from . import sessions
from .call import EditorCall
from .frames import desk_of

__all__ = ["change", "profile_page"]

#: The form fields of the profile: the members a profile takes, by the same names.
PROFILE_FIELDS = tuple(PROFILE_WRITE)
#: The form fields of the password change, named as ``Accounts.change_password`` names them.
PASSWORD_FIELDS = ("current_password", "new_password")


def profile_page(call: EditorCall) -> HttpResponse:
    """The page with the writer's profile as it is stored."""
    return _page(call, _stored(call))


def change(call: EditorCall) -> HttpResponse:
    """Saves the profile (``action=profile``) or changes the password (``action=password``);
    a 303 back to the page, or the page saying what was refused."""
    action = call.form.get("action")
    if action == "profile":
        return _save_profile(call)
    if action == "password" and not call.hosted:
        return _change_password(call)
    if action == "password":
        return not_found_page(call.service, "page")
    unknown = InvalidParameter("The form did not say what to change. Load the page again.")
    return _refused(call, unknown)


def _save_profile(call: EditorCall) -> HttpResponse:
    typed = {name: call.form.get(name) for name in PROFILE_FIELDS}
    try:
        call.service.accounts.update(call.user.username, typed, viewer=call.viewer)
    except InvalidParameter as refused:
        return _refused(call, refused, typed)
    return call.see_other(PROFILE, done="profile")


def _change_password(call: EditorCall) -> HttpResponse:
    current, new = (call.form.get(name) for name in PASSWORD_FIELDS)
    session = call.request.cookie(sessions.SESSION_COOKIE)  # the one session that stays
    try:
        call.service.accounts.change_password(call.viewer, current, new, session=session)
    except InvalidParameter as refused:
        return _refused(call, refused)
    return call.see_other(PROFILE, done="password")


def _refused(
    call: EditorCall, refused: InvalidParameter, typed: Mapping[str, str] | None = None
) -> HttpResponse:
    """The page again with the API's status, saying why beside the field refused (or above
    the forms when it names none of theirs); the profile as typed when it was refused."""
    typed = _stored(call) if typed is None else typed
    field = (refused.field or "").removeprefix("user.")
    message = _words(refused.message, refused.field or "", field)
    if field in PROFILE_FIELDS or field in PASSWORD_FIELDS:
        return _page(call, typed, {field: message}, status=refused.status)
    return _page(call, typed, summary=message, status=refused.status)


def _words(message: str, named: str, field: str) -> str:
    """The service's ``message`` about the member ``named`` in the page's words: the field's
    label where the message starts with the member's name."""
    if field == "current_password":
        return "This is not your current password."
    if named and message.startswith(named) and field in editor.PROFILE_LABELS:
        return editor.PROFILE_LABELS[field] + message[len(named) :]
    return message


def _stored(call: EditorCall) -> dict[str, str]:
    """The writer's profile as it is stored, by the form's field names."""
    stored = call.service.accounts.get(call.user.username).model_dump()
    return {name: stored[name] for name in PROFILE_FIELDS}


def _page(
    call: EditorCall,
    values: Mapping[str, str],
    problems: Mapping[str, str] | None = None,
    *,
    summary: str = "",
    status: int = 200,
) -> HttpResponse:
    body = editor.profile_page(
        desk_of(call, "profile"),
        action=call.url(PROFILE),
        values=values,
        problems=problems or {},
        summary=summary,
        passwords=not call.hosted,
    )
    return call.page(body, status)
