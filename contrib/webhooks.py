"""The real webhook sender (docs/webhooks.md): one ``POST`` through httpx, safe as the
fetcher is (``storycore.contrib.fetch``, docs/resolver.md).

- The host connected to is the one the registration judged (``fetch.connection_url``: a name
  in full-width letters is its ASCII form); the webhook's ``url`` stays as it was written.
- Only http and https, to public addresses checked on the address connected to
  (``AddressGuard``), unless the deployment allowed the host (``--resolve-allow-host``); an
  attempt the address rules refuse is ``Attempt.refused``, and says which setting admits it.
- No redirect is followed: a 3xx is the endpoint's answer, and a failure.
- One attempt takes at most ``ATTEMPT_SECONDS``, connecting, sending and the answer included;
  at most ``MAX_ANSWER_BYTES`` of the answer's body are read.
- One client per endpoint origin, kept between attempts (keep-alive): a connection made for
  one name never carries a request for another, and a busy endpoint is not paid a new
  connection (and TLS handshake) per event. No proxy or netrc from the environment.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from storycore.extras import imported_from
from storycore.usecases.delivery import ATTEMPT_SECONDS, MAX_ANSWER_BYTES, Attempt, WebhookSender

if TYPE_CHECKING:
    import httpx

#: A host name and port to the addresses they connect to (``fetch.system_lookup``).
NameLookup = Callable[[str, int], Awaitable[Sequence[str]]]

__all__ = ["HttpWebhookSender"]

#: What allows a host the address rules refuse: the one setting every command reads.
_ADMITS = (
    "a deployment allows its host with STORYCORE_RESOLVER_ALLOWED_HOSTS or --resolve-allow-host"
)
#: Clients kept, one per endpoint origin; the oldest is closed past this.
_KEPT_CLIENTS = 128


class HttpWebhookSender(WebhookSender):
    """``HttpWebhookSender(allowed_hosts=...)``: the real sender; ``lookup`` replaces the
    system's name lookup (tests), as the fetcher's does."""

    def __init__(
        self, *, allowed_hosts: Iterable[str] = (), lookup: NameLookup | None = None
    ) -> None:
        self._allowed = frozenset(host.strip("[]").lower() for host in allowed_hosts)
        self._lookup = lookup
        # each client with the transport its address guard passes requests on to: closing the
        # client closes the guard, which does not close that transport and its connections
        self._clients: dict[str, tuple[httpx.AsyncClient, httpx.AsyncHTTPTransport]] = {}

    async def send(self, url: str, headers: Mapping[str, str], body: bytes) -> Attempt:
        with imported_from("serve"):  # a command that sends nothing starts without it
            import httpx

        from .fetch import AddressRefused, connection_url

        try:
            connected = connection_url(url)
            client = await self._client(connected)
            async with asyncio.timeout(ATTEMPT_SECONDS):
                async with client.stream(
                    "POST", connected, headers=headers, content=body
                ) as answer:
                    read = 0
                    async for chunk in answer.aiter_raw():
                        read += len(chunk)
                        if read >= MAX_ANSWER_BYTES:
                            break
                    status = answer.status_code
        except TimeoutError:
            return Attempt(None, f"no whole answer within {ATTEMPT_SECONDS:g} s")
        except AddressRefused as exc:
            return Attempt(None, f"{exc} ({_ADMITS})", refused=True)
        except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError) as exc:
            return Attempt(None, _said(exc, url))
        if 200 <= status < 300:
            return Attempt(status, None)
        return Attempt(status, f"answered {status}")

    async def aclose(self) -> None:
        clients, self._clients = list(self._clients.values()), {}
        for client, network in clients:
            await _close(client, network)

    async def _client(self, url: str) -> httpx.AsyncClient:
        import httpx

        from .fetch import AddressGuard, system_lookup

        origin = str(httpx.URL(url).copy_with(path="/", query=None, fragment=None))
        kept = self._clients.get(origin)
        if kept is None:
            if len(self._clients) >= _KEPT_CLIENTS:
                oldest = next(iter(self._clients))
                await _close(*self._clients.pop(oldest))
            network = httpx.AsyncHTTPTransport(trust_env=False)
            client = httpx.AsyncClient(
                transport=AddressGuard(network, self._allowed, self._lookup or system_lookup),
                follow_redirects=False,
                trust_env=False,
                timeout=ATTEMPT_SECONDS,
            )
            kept = self._clients[origin] = (client, network)
        return kept[0]


async def _close(client: httpx.AsyncClient, network: httpx.AsyncHTTPTransport) -> None:
    """Close ``client`` and the connections of its ``network``."""
    try:
        await client.aclose()
    finally:
        await network.aclose()


def _said(exc: BaseException, url: str) -> str:
    """What went wrong, in a line: a refused connection and a name that does not resolve say
    so, whatever httpx wrapped them in ("All connection attempts failed"). Never the request:
    its headers hold the signature."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError):
            return "the connection was refused"
        if isinstance(seen, socket.gaierror):
            return f"the host name {urlsplit(url).hostname} does not resolve"[:300]
        seen = seen.__cause__ or seen.__context__
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}"[:300]
