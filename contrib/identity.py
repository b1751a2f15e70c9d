"""The real identity-provider client of delegated creation: one GET through httpx.

The timeout is one deadline for the whole exchange (docs/decisions.md#serving): connecting, the
status
line, the headers and the body together. httpx's own timeouts bound each socket operation, so a
provider that trickles a byte at a time would never meet them; the request therefore runs on
asyncio under ``asyncio.timeout``, which cancels it wherever it is when the time is up.

No redirect is followed, at most about ``max_bytes`` bytes of the answer are read (one network
read past the cap at most), and the ``Authorization`` value goes into that one request and
nowhere else: every call has a client of its own (no pooled connection, no cookie, no netrc,
no proxy from the environment).
"""

from __future__ import annotations

import asyncio
import socket
import ssl

from storycore.extras import imported_from
from storycore.resolving.coroutines import run_to_end
from storycore.usecases.identity import NoAnswer, ProviderAnswer, ProviderClient

__all__ = ["HttpProviderClient"]


class HttpProviderClient(ProviderClient):
    """Sends delegated creation's verify-credentials request."""

    def __init__(self) -> None:
        # the system's trust store, as ``http.client`` and ``urllib`` use it
        self._tls = ssl.create_default_context()

    def get(
        self, url: str, authorization: str, *, timeout: float, max_bytes: int
    ) -> ProviderAnswer | NoAnswer:
        request = self._fetch(url, authorization, timeout, max_bytes)
        return run_to_end(request, thread_name="storycore-provider")

    async def _fetch(
        self, url: str, authorization: str, timeout: float, max_bytes: int
    ) -> ProviderAnswer | NoAnswer:
        with imported_from("serve"):  # only delegated creation asks a provider
            import httpx

        try:
            async with (
                asyncio.timeout(timeout),
                httpx.AsyncClient(
                    follow_redirects=False, trust_env=False, verify=self._tls, timeout=timeout
                ) as client,
                client.stream(
                    "GET",
                    url,
                    headers=[
                        (b"Authorization", authorization.encode("latin-1")),
                        (b"Accept", b"application/json"),
                        (b"Accept-Encoding", b"identity"),
                        (b"User-Agent", b"storycore-delegation"),
                    ],
                ) as response,
            ):
                body = bytearray()
                async for chunk in response.aiter_raw():
                    body += chunk
                    if len(body) > max_bytes:
                        break
                return ProviderAnswer(response.status_code, bytes(body[: max_bytes + 1]))
        except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError) as exc:
            # OSError covers TimeoutError (the deadline); ValueError an unencodable value
            return _why(exc, httpx.TimeoutException)


def _why(exc: BaseException, timeouts: type[BaseException]) -> NoAnswer:
    """Why ``exc`` (raised by httpx or the deadline) left no answer, read from its causes."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, TimeoutError | timeouts):
            return NoAnswer("timeout")
        if isinstance(seen, socket.gaierror):
            return NoAnswer("unresolved")
        if isinstance(seen, ConnectionRefusedError):
            return NoAnswer("refused")
        seen = seen.__cause__ or seen.__context__
    return NoAnswer("failed")
