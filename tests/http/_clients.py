"""One client over either binding, so every HTTP test is written once and runs per binding.

``AsgiClient`` drives ``contrib/asgi.py`` through the testing kit's ``asgi_client`` (an
``httpx.Client`` over ``httpx.ASGITransport``); ``WsgiClient`` drives ``contrib/wsgi.py``
through werkzeug's test ``Client``, with the application wrapped in
``wsgiref.validate.validator`` so every exchange is also checked against PEP 3333. Both send
the same raw request and answer the same ``Answer``. A ``prefix`` mounts the application under
a path, as a host application would: ``root_path`` for ASGI, werkzeug's
``DispatcherMiddleware`` (``SCRIPT_NAME``) for WSGI.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode
from wsgiref.validate import validator

import httpx
import orjson
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.test import Client as WerkzeugClient

from storycore import Service
from storycore.contrib.asgi import StorycoreASGI
from storycore.contrib.wsgi import StorycoreWSGI
from storycore.testing.client import asgi_client

FORM = "application/x-www-form-urlencoded"
JSON = "application/json"

Body = bytes | Iterable[bytes]


@dataclass(frozen=True)
class Answer:
    """One response: status, headers (names lowercased, repeats joined) and the body."""

    status: int
    headers: Mapping[str, str]
    body: bytes

    def json(self) -> Any:
        return orjson.loads(self.body)


def _headers(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    joined: dict[str, str] = {}
    for name, value in pairs:
        key = name.lower()
        joined[key] = f"{joined[key]}, {value}" if key in joined else value
    return joined


def from_httpx(response: httpx.Response) -> Answer:
    """The ``Answer`` of an httpx response."""
    return Answer(response.status_code, _headers(response.headers.multi_items()), response.content)


def form_fields(values: Mapping[str, Any]) -> dict[str, str]:
    """Form values as sent: objects and arrays as serialized JSON, booleans as true/false."""
    fields = {}
    for name, value in values.items():
        if isinstance(value, dict | list):
            fields[name] = orjson.dumps(value).decode()
        elif isinstance(value, bool):
            fields[name] = "true" if value else "false"
        else:
            fields[name] = str(value)
    return fields


class Client:
    """What a test sends; a binding subclass delivers it."""

    def __init__(self, prefix: str = "") -> None:
        self.prefix = prefix

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | str | None = None,
        headers: Mapping[str, str] | None = None,
        body: Body = b"",
        content_type: str | None = None,
    ) -> Answer:
        """``method`` on ``path`` (under the prefix), ``params`` as the query string."""
        query = params if isinstance(params, str) else urlencode(form_fields(params or {}))
        sent = dict(headers or {})
        if content_type is not None:
            sent["Content-Type"] = content_type
        return self._send(method, self.prefix + path, query, sent, body)

    def get(
        self,
        path: str,
        params: Mapping[str, Any] | str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Answer:
        return self.request("GET", path, params=params, headers=headers)

    def post_form(self, path: str, values: Mapping[str, Any]) -> Answer:
        """A form body; ``story`` and ``user`` objects go as serialized JSON strings."""
        body = urlencode(form_fields(values)).encode()
        return self.request("POST", path, body=body, content_type=FORM)

    def post_json(self, path: str, values: Any, headers: Mapping[str, str] | None = None) -> Answer:
        return self.request(
            "POST", path, body=orjson.dumps(values), content_type=JSON, headers=headers
        )

    def _send(
        self, method: str, target: str, query: str, headers: dict[str, str], body: Body
    ) -> Answer:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the client holds."""


class AsgiClient(Client):
    """The testing kit's ``asgi_client`` (an ``httpx.Client`` over ``httpx.ASGITransport``)."""

    def __init__(self, service: Service, prefix: str = "") -> None:
        super().__init__(prefix)
        self._client = asgi_client(StorycoreASGI(service), root_path=prefix)

    def _send(
        self, method: str, target: str, query: str, headers: dict[str, str], body: Body
    ) -> Answer:
        url = f"{target}?{query}" if query else target
        return from_httpx(self._client.request(method, url, headers=headers, content=body))

    def close(self) -> None:
        self._client.close()


class _Stream(io.RawIOBase):
    """A request body read from an iterable of chunks, as a server would read a socket."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks: Iterator[bytes] = iter(chunks)
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._pending:
            try:
                self._pending = next(self._chunks)
            except StopIteration:
                return 0
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size


def _host_application(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
    """The host application around a mounted storycore: it knows no path."""
    body = b"the host application has no such page"
    start_response(
        "404 Not Found", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))]
    )
    return [body]


class WsgiClient(Client):
    """werkzeug's test ``Client`` over the WSGI application, checked by ``validator``."""

    def __init__(self, service: Service, prefix: str = "") -> None:
        super().__init__(prefix)
        app: Any = validator(StorycoreWSGI(service))
        if prefix:
            app = validator(DispatcherMiddleware(_host_application, {prefix: app}))
        self._client = WerkzeugClient(app)

    def _send(
        self, method: str, target: str, query: str, headers: dict[str, str], body: Body
    ) -> Answer:
        sent: dict[str, Any] = {"data": body}
        if not isinstance(body, bytes):  # a stream werkzeug must not measure: it is never seeked
            stream = {"wsgi.input": _Stream(body), "CONTENT_LENGTH": headers["Content-Length"]}
            sent = {"environ_overrides": stream}
        response = self._client.open(
            f"{target}?{query}" if query else target,
            method=method,
            headers=list(headers.items()),
            buffered=True,
            **sent,
        )
        try:
            return Answer(response.status_code, _headers(response.headers.items()), response.data)
        finally:
            response.close()


BINDINGS: dict[str, Callable[[Service, str], Client]] = {"asgi": AsgiClient, "wsgi": WsgiClient}
