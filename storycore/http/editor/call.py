"""One request to the editor (docs/editor.md): who is asking, the form they posted and the
answers the editor's pages give.

``answer`` resolves the caller once, before the page's handler runs, as the API resolves its
credentials: the session cookie (a token of the web host's application), or the host
application's ``editor_user`` callable. A page that needs a writer answers someone signed out
with a 303 to the sign-in page, which returns there after. Every ``POST`` must carry the form
token of the caller's session (``sessions``): without it, or with another session's, it is
the 403 page and nothing changes. Every answer is ``no-store``, ``noindex`` and never framed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING
from urllib.parse import quote, urlencode

from ...errors import NotFound, Unauthorized
from ...model.records import UserRecord
from ...model.visibility import ANONYMOUS, Viewer
from ...rules.appnames import WEB_HOST_APP_ID
from ...rules.paths import SIGN_IN
from ...service import Service
from ..forms import Form
from ..messages import HttpRequest, HttpResponse
from ..page_headers import service_page_headers
from ..pages import site_of
from . import sessions

if TYPE_CHECKING:
    from ...presentation.pages import Site
    from ..routing import Route

__all__ = ["EditorCall", "EditorUser", "answer", "local_path"]

#: The host application's sign-in, when it signs its users in itself: the username of the
#: user a request comes from (read from its headers and cookies), or None.
EditorUser = Callable[[HttpRequest], str | None]

_NO_STORE = [("Cache-Control", "no-store"), ("X-Robots-Tag", "noindex")]


@dataclass
class EditorCall:
    """A request to one of the editor's pages: the service, the request, the path's arguments,
    the caller (``viewer``: anonymous when signed out) and the secret their forms' token comes
    from. ``hosted``: the host application signs users in (no sign-in form, no sign-out)."""

    service: Service
    request: HttpRequest
    arguments: dict[str, str]
    viewer: Viewer
    secret: str
    hosted: bool = False
    #: ``Set-Cookie`` values the answer carries
    cookies: list[str] = field(default_factory=list)

    @cached_property
    def form(self) -> Form:
        """The form the request posts (empty for a ``GET``)."""
        return Form.of(self.request)

    @property
    def user(self) -> UserRecord:
        """The signed-in writer (the page's row makes sure there is one)."""
        assert self.viewer.user is not None
        return self.viewer.user

    @cached_property
    def site(self) -> Site:
        """The site the pages belong to."""
        return site_of(self.service)

    @property
    def form_token(self) -> str:
        """The token every form of this session carries (its ``form_token`` field)."""
        return sessions.form_token(self.secret)

    def url(self, path: str, **query: str) -> str:
        """The address of the web host's ``path`` (``/me``), with ``query``."""
        address = self.service.web_url + path
        return f"{address}?{urlencode(query)}" if query else address

    def page(self, body: str, status: int = 200) -> HttpResponse:
        """An HTML page."""
        return HttpResponse(status, [("Content-Type", "text/html; charset=utf-8")], body.encode())

    def see_other(self, path: str, **query: str) -> HttpResponse:
        """A 303 to the web host's ``path``: where a form's action goes on (redirect after
        post), and where a page sends someone who must sign in first."""
        return HttpResponse(303, [("Location", self.url(path, **query))])


def local_path(next_path: str) -> str | None:
    """``next_path`` when it is a path of this site (``/me``, ``/alice/a-story/edit?x=1``), else
    None: the sign-in page returns only there, never to another host."""
    if not next_path.startswith("/") or next_path.startswith("//") or "\\" in next_path:
        return None
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in next_path):
        return None
    return next_path


def answer(
    service: Service,
    route: Route,
    request: HttpRequest,
    arguments: dict[str, str],
    editor_user: EditorUser | None,
) -> HttpResponse:
    """The answer of the editor's page ``route`` to ``request``."""
    call = _call(service, request, arguments, editor_user)
    if route.signed_in and call.viewer.user is None:
        response = call.see_other(SIGN_IN, next=_asked(request))
    elif request.method == "POST" and not _form_ok(call):
        from .refusals import expired_form

        response = expired_form(call)
    else:
        response = route.handler(call)
    added = service_page_headers(service, framed=False) + _NO_STORE
    names = {name.lower() for name, _ in added}
    kept = [header for header in response.headers if header[0].lower() not in names]
    response.headers = kept + added
    response.headers += [("Set-Cookie", value) for value in call.cookies]
    return response


def _asked(request: HttpRequest) -> str:
    """The path (and query) asked for, relative to the web host: where signing in returns."""
    path = quote(request.path)
    query = request.query_string.decode("latin-1")
    return f"{path}?{query}" if query else path


def _form_ok(call: EditorCall) -> bool:
    sent = call.form.get("form_token")
    return bool(sent) and sessions.same_token(sent, call.form_token)


def _call(
    service: Service,
    request: HttpRequest,
    arguments: dict[str, str],
    editor_user: EditorUser | None,
) -> EditorCall:
    """The call, its caller resolved: from the host application's ``editor_user``, or from the
    session cookie. A session that is no longer valid (signed out elsewhere, expired) is
    deleted from the browser."""
    cookies: list[str] = []
    viewer = ANONYMOUS
    secret = ""
    if editor_user is not None:
        username = editor_user(request)
        if username:
            try:
                viewer = service.accounts.as_user(username)
            except NotFound:
                viewer = ANONYMOUS
    else:
        token = request.cookie(sessions.SESSION_COOKIE)
        if token:
            viewer = _session_viewer(service, token)
            if viewer.user is None:
                cookies.append(sessions.expired_cookie(service.web_url, sessions.SESSION_COOKIE))
            else:
                secret = token
    if not secret:
        secret = request.cookie(sessions.FORM_COOKIE) or ""
        if len(secret) < 32:
            secret = sessions.new_form_secret()
            cookies.append(sessions.cookie(service.web_url, sessions.FORM_COOKIE, secret, None))
    return EditorCall(service, request, arguments, viewer, secret, editor_user is not None, cookies)


def _session_viewer(service: Service, token: str) -> Viewer:
    """The writer a session's token proves, or anonymous: only a live token of the web host's
    application is a session (a token an API client holds is not)."""
    try:
        viewer = service.accounts.bearer(token)
    except Unauthorized:
        return ANONYMOUS
    if viewer.app is None or viewer.app.id != WEB_HOST_APP_ID:
        return ANONYMOUS
    return viewer
