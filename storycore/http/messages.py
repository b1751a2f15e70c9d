"""HTTP requests and responses as plain values: what the bindings convert to and from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import orjson

__all__ = ["JSON_TYPE", "XML_TYPE", "HttpRequest", "HttpResponse", "json_response"]

JSON_TYPE = "application/json; charset=utf-8"
XML_TYPE = "text/xml; charset=utf-8"


@dataclass(frozen=True, slots=True)
class HttpRequest:
    """One request. ``path`` is percent-decoded and excludes ``root_path`` (the prefix the
    application is mounted under); header names are lowercase; ``scheme`` is the one the
    client used (``http`` or ``https``), as the server knows it.
    """

    method: str
    path: str
    query_string: bytes = b""
    headers: Sequence[tuple[str, str]] = ()
    body: bytes = b""
    root_path: str = ""
    scheme: str = "http"

    def query(self) -> dict[str, str]:
        """The query string's parameters, the last value of each (the web host's pages and
        scripts; the API reads its parameters through ``params``)."""
        text = self.query_string.decode("utf-8", "replace")
        return dict(parse_qsl(text, keep_blank_values=True))

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
