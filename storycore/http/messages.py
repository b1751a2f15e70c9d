"""HTTP requests and responses as plain values: what the bindings convert to and from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, quote, unquote

import orjson

__all__ = [
    "JSON_TYPE",
    "PATH_SAFE",
    "XML_TYPE",
    "HttpRequest",
    "HttpResponse",
    "json_response",
    "raw_path_of",
]

JSON_TYPE = "application/json; charset=utf-8"
XML_TYPE = "text/xml; charset=utf-8"
#: What a path leaves unencoded (RFC 3986's ``pchar`` and the slash): the rest is escaped.
PATH_SAFE = "/!$&'()*+,;=:@"


@dataclass(frozen=True, slots=True)
class HttpRequest:
    """One request. ``path`` is percent-decoded and excludes ``root_path`` (the prefix the
    application is mounted under); header names are lowercase; ``scheme`` is the one the
    client used (``http`` or ``https``), as the server knows it.

    ``raw_path`` is the same path as the client sent it, still percent-encoded, when the
    binding knows it (``None`` otherwise): only there is a slash inside a segment (``%2F``, a
    topic ``a/b``) told from one between segments. Paths are matched on ``encoded_path``.
    """

    method: str
    path: str
    query_string: bytes = b""
    headers: Sequence[tuple[str, str]] = ()
    body: bytes = b""
    root_path: str = ""
    scheme: str = "http"
    raw_path: str | None = None
    #: the client's address, as the server saw it, when the binding knows it (the sign-in
    #: limit counts failures by it: docs/editor.md#signing-in)
    client: str | None = None

    @property
    def encoded_path(self) -> str:
        """The path percent-encoded, split at its slashes to find its route
        (``routing.Router``): ``raw_path``, or ``path`` encoded again, where an encoded slash
        the binding decoded is lost."""
        if self.raw_path is not None:
            return self.raw_path
        return quote(self.path, safe=PATH_SAFE)

    def query(self) -> dict[str, str]:
        """The query string's parameters, the last value of each (the web host's pages and
        scripts; the API reads its parameters through ``params``)."""
        text = self.query_string.decode("utf-8", "replace")
        return dict(parse_qsl(text, keep_blank_values=True))

    def cookie(self, name: str) -> str | None:
        """The value of the cookie ``name`` the request sent, or None."""
        for key, value in self.headers:
            if key == "cookie":
                for pair in value.split(";"):
                    found, _, text = pair.strip().partition("=")
                    if found == name:
                        return text.strip()
        return None

    def header(self, name: str) -> str | None:
        """The last value of a header, or None."""
        found = None
        for key, value in self.headers:
            if key == name:
                found = value
        return found


@dataclass(slots=True)
class HttpResponse:
    """One response: status, headers (names as sent) and the whole body."""

    status: int
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""


def json_response(
    data: Any, status: int = 200, headers: Sequence[tuple[str, str]] = ()
) -> HttpResponse:
    """A JSON response; its status is the body's ``code`` by the decisions' rule."""
    return HttpResponse(status, [("Content-Type", JSON_TYPE), *headers], orjson.dumps(data))


def raw_path_of(target: str, path: str) -> str | None:
    """The part of ``target`` (a request's path as sent, percent-encoded: a binding's raw path,
    which may lead with the mount prefix and end with the query) that is ``path`` (the same
    path decoded, without the prefix); None when no such part is there, as when a server
    rewrote the path. So a binding keeps ``%2F`` inside a segment (``HttpRequest.raw_path``).
    """
    sent = target.partition("?")[0]
    wanted = path.count("/")
    slashes = 0  # in sent[end:], as written and escaped
    end = len(sent)
    while slashes < wanted:
        at = sent.rfind("/", 0, end)
        if at == -1:
            return None
        slashes += 1 + sent.count("%2F", at, end) + sent.count("%2f", at, end)
        end = at
    tail = sent[end:]
    return tail if slashes == wanted and unquote(tail) == path else None
