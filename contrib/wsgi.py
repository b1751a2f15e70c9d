"""A PEP 3333 application for storycore.

Mount it with werkzeug's ``DispatcherMiddleware`` in Flask, or in any WSGI server: it honours
``SCRIPT_NAME``. It converts the environ and nothing else; every rule lives in
``storycore.http.HttpApp``. PEP 3333 gives the path decoded, so a slash escaped in a segment
(``%2F``: a topic ``a/b``) is found only where the server also passes the path as sent
(``REQUEST_URI`` or ``RAW_URI``); elsewhere it is a slash between segments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import Any

from storycore.http import HttpApp, HttpRequest, HttpResponse, raw_path_of
from storycore.http.editor import EditorUser
from storycore.service import Service

__all__ = ["StorycoreWSGI"]

StartResponse = Callable[[str, list[tuple[str, str]]], Any]


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


class StorycoreWSGI:
    """``StorycoreWSGI(service)``: the HTTP API as a WSGI application. ``compress``: text
    answers over 1 KiB go gzipped to clients that accept it
    (docs/api.md#caching-and-compression). ``editor`` and ``editor_user``: as for
    ``StorycoreASGI``."""

    def __init__(
        self,
        service: Service | HttpApp,
        *,
        compress: bool = False,
        editor: bool = True,
        editor_user: EditorUser | None = None,
    ) -> None:
        self.app = (
            service
            if isinstance(service, HttpApp)
            else HttpApp(service, compress=compress, editor=editor, editor_user=editor_user)
        )

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        response = self._respond(environ)
        start_response(f"{response.status} {_reason(response.status)}", response.headers)
        return [response.body]

    def _respond(self, environ: dict[str, Any]) -> HttpResponse:
        length_text = environ.get("CONTENT_LENGTH") or "0"
        # isdigit alone also takes "²", which int() refuses
        length = int(length_text) if length_text.isascii() and length_text.isdigit() else 0
        if length > self.app.body_limit:
            return self.app.too_large()
        body = environ["wsgi.input"].read(length) if length else b""
        headers = [
            (key[5:].replace("_", "-").lower(), value)
            for key, value in environ.items()
            if key.startswith("HTTP_")
        ]
        if environ.get("CONTENT_TYPE"):
            headers.append(("content-type", environ["CONTENT_TYPE"]))
        path = _text(environ.get("PATH_INFO", "")) or "/"
        # PEP 3333 gives the path decoded; servers that keep the target as sent
        # (``REQUEST_URI``: werkzeug, uWSGI, Apache; ``RAW_URI``: gunicorn) let a topic
        # ``a/b`` (``%2F``) be told from two segments
        target = environ.get("REQUEST_URI") or environ.get("RAW_URI")
        request = HttpRequest(
            method=environ["REQUEST_METHOD"],
            path=path,
            query_string=environ.get("QUERY_STRING", "").encode("latin-1"),
            headers=headers,
            body=body,
            root_path=_text(environ.get("SCRIPT_NAME", "")),
            scheme=environ.get("wsgi.url_scheme", "http"),
            raw_path=raw_path_of(_text(target), path) if target else None,
            client=environ.get("REMOTE_ADDR") or None,
        )
        return self.app.handle(request)


def _text(wsgi_string: str) -> str:
    """A PEP 3333 "bytes as latin-1" string as the UTF-8 text it carries."""
    return wsgi_string.encode("latin-1").decode("utf-8", "replace")
