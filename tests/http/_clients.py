"""One client over ``HttpApp`` or a binding, so every HTTP test is written once.

``AppClient`` hands ``storycore.http.HttpApp`` the ``HttpRequest`` a binding would build, in
process: the HTTP suite runs through it once, since every rule lives in ``HttpApp``.
``AsgiClient`` drives ``contrib/asgi.py`` through the testing kit's ``asgi_client`` (an
``httpx.Client`` over ``httpx.ASGITransport``); ``WsgiClient`` drives ``contrib/wsgi.py``
through werkzeug's test ``Client``, with the application wrapped in
``wsgiref.validate.validator`` so every exchange is also checked against PEP 3333. The binding
conformance tests (``test_bindings.py``) send the same requests through each binding and
``AppClient`` and require the same answer. All three send the same raw request and answer the
same ``Answer``. A ``prefix`` mounts the application under a path, as a host application would:
``root_path`` for ``HttpApp`` and ASGI, werkzeug's ``DispatcherMiddleware`` (``SCRIPT_NAME``)
for WSGI.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple
from urllib.parse import quote, unquote, urlencode
from wsgiref.validate import validator

import httpx
import orjson
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.test import Client as WerkzeugClient

from storycore import Service
from storycore.contrib.asgi import StorycoreASGI
from storycore.contrib.wsgi import StorycoreWSGI
from storycore.http import HttpApp, HttpRequest
from storycore.testing.client import asgi_client

#: the ``Host`` every client sends: the web host's address in answers is taken from it
#: (docs/api.md#credentials), so ``Client.web_url`` is the same through every client
HOST = "stories.test"
FORM = "application/x-www-form-urlencoded"
JSON = "application/json"

Body = bytes | Iterable[bytes]

# what an HTTP client leaves as it is in a query string: printable ASCII, escapes included
_QUERY_SAFE = "".join(chr(code) for code in range(0x21, 0x7F))


@dataclass(frozen=True)
class Answer:
    """One response: status, headers (``joined_headers``) and the body."""

    status: int
    headers: Mapping[str, str]
    body: bytes

    def json(self) -> Any:
        return orjson.loads(self.body)


def joined_headers(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Headers by lowercased name, the values of a repeated one joined by commas."""
    joined: dict[str, str] = {}
    for name, value in pairs:
        key = name.lower()
        joined[key] = f"{joined[key]}, {value}" if key in joined else value
    return joined


def from_httpx(response: httpx.Response) -> Answer:
    """The ``Answer`` of an httpx response."""
    return Answer(
        response.status_code, joined_headers(response.headers.multi_items()), response.content
    )


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


class Prepared(NamedTuple):
    """A request as a client sends it (the arguments of ``Client._send``)."""

    method: str
    target: str
    query: str
    headers: dict[str, str]
    body: Body


class Client:
    """What a test sends; a subclass delivers it to ``HttpApp`` or through a binding."""

    def __init__(self, prefix: str = "") -> None:
        self.prefix = prefix

    @property
    def web_url(self) -> str:
        """The web host's address in the answers this client gets."""
        return f"http://{HOST}{self.prefix}"

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
        return self.send(
            self.prepare(
                method, path, params=params, headers=headers, body=body, content_type=content_type
            )
        )

    def send(self, prepared: Prepared) -> Answer:
        """Send a request ``prepare`` made."""
        return self._send(*prepared)

    def prepare(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | str | None = None,
        headers: Mapping[str, str] | None = None,
        body: Body = b"",
        content_type: str | None = None,
    ) -> Prepared:
        """What ``request`` sends: the method, the target (prefix and path), the query string,
        the headers and the body.
        """
        query = params if isinstance(params, str) else urlencode(form_fields(params or {}))
        sent = {"Host": HOST, **(headers or {})}
        if content_type is not None:
            sent["Content-Type"] = content_type
        return Prepared(method, self.prefix + path, query, sent, body)

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


class AppClient(Client):
    """``HttpApp.handle`` called directly with the ``HttpRequest`` a binding would build: the
    path percent-decoded (and as sent, ``raw_path``) and without the prefix (which goes as
    ``root_path``), header names lowercased, the body read whole.
    """

    def __init__(self, service: Service, prefix: str = "") -> None:
        super().__init__(prefix)
        self.app = HttpApp(service)

    def http_request(
        self, method: str, target: str, query: str, headers: dict[str, str], body: Body
    ) -> HttpRequest:
        """The ``HttpRequest`` a binding makes of what a client sends."""
        sent = target.removeprefix(self.prefix) or "/"
        return HttpRequest(
            method=method,
            path=unquote(sent),
            raw_path=sent,
            query_string=quote(query, safe=_QUERY_SAFE).encode("ascii"),
            headers=[(name.lower(), value) for name, value in headers.items()],
            body=body if isinstance(body, bytes) else b"".join(body),
            root_path=self.prefix,
        )

    def _send(
        self, method: str, target: str, query: str, headers: dict[str, str], body: Body
    ) -> Answer:
        response = self.app.handle(self.http_request(method, target, query, headers, body))
        return Answer(response.status, joined_headers(response.headers), response.body)


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
            return Answer(
                response.status_code, joined_headers(response.headers.items()), response.data
            )
        finally:
            response.close()


BINDINGS: dict[str, Callable[[Service, str], Client]] = {"asgi": AsgiClient, "wsgi": WsgiClient}
"""The clients of the bindings, by name: what ``test_bindings.py`` checks against ``AppClient``."""
