"""The online resolver's fetcher (docs/resolver.md): one GET through httpx, safe by
construction.

- Only http and https; at most 3 redirects.
- The URL connected to is the one the checks read (``connection_url``): its host in its
  canonical form, a name that is not ASCII (``example.com`` in full-width letters) as
  the ASCII name IDNA (UTS #46) maps it to, as the registration of a webhook judged it; httpx
  takes no other. Where the URL is shown, it stays as it was written.
- Every request, the first and each redirect, passes through ``AddressGuard``, a transport that
  reads the host as the registration of a webhook reads it (``storycore.rules.hosts``:
  ``127.1`` and ``2130706433`` are the loopback address, not names), looks a name up itself,
  refuses the host unless every address it has is public unicast
  (``storycore.rules.public_addresses``), and sends the request to the address it checked, with
  ``Host`` and the TLS server name (SNI, and the certificate check) still the name. The address
  checked is the address connected to, so a name that answers differently the second time it
  is looked up (DNS rebinding) gains nothing.
- Hosts the deployment allowed (``Settings.resolver_allowed_hosts``: intranets, tests) are
  connected to wherever they are. The allowance is for the host, however the address writes it
  (``127.1`` when ``127.0.0.1`` is allowed): a redirect to another name, or to the allowed
  host's bare IP address, is checked as any other.
- No connection outlives its request (keep-alive off), so a TLS connection made for one name
  never carries a request for another; no proxy or netrc from the environment; a client per
  call, so no cookie goes from one site to another.
- At most ``max_bytes`` of the body are read, counted as it is decoded (a compressed body as it
  expands). Time is the caller's to bound: it cancels the call.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections.abc import Awaitable, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Final
from urllib.parse import urlsplit, urlunsplit

from storycore.extras import imported_from
from storycore.resolving.fetching import Fetched, PageFetcher
from storycore.rules.hosts import canonical_host, canonical_hosts
from storycore.rules.public_addresses import is_ip_address, is_public_address

with imported_from("online"):
    import httpx

__all__ = [
    "MAX_REDIRECTS",
    "AddressGuard",
    "AddressRefused",
    "HttpFetcher",
    "NameLookup",
    "connection_url",
    "system_lookup",
]

#: A host name and port to the addresses they connect to (``system_lookup``, or a test's).
NameLookup = Callable[[str, int], Awaitable[Sequence[str]]]

MAX_REDIRECTS: Final = 3
#: httpx's own limit on each socket operation; the caller's deadline is what bounds a fetch.
_BACKSTOP_SECONDS: Final = 10.0
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}
# name lookups block; their own threads, so that an event loop closing at the deadline does not
# wait for one (``asyncio.run`` waits for its default executor's threads)
_LOOKUPS = ThreadPoolExecutor(8, thread_name_prefix="storycore-lookup")


async def system_lookup(host: str, port: int) -> list[str]:
    """The addresses the system's resolver gives for ``host``."""
    infos = await asyncio.get_running_loop().run_in_executor(
        _LOOKUPS, lambda: socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    )
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def connection_url(url: str) -> str:
    """``url`` with its host in the canonical form a connection reads
    (``storycore.rules.hosts.canonical_host``): the host the checks judged, in ASCII, which
    httpx takes (it refuses a name it cannot encode itself, such as one in full-width letters).
    The URL is split as the registration of a webhook splits it (``urlsplit``); ``ValueError``
    for a URL with no host a connection can be made to, or a port that is not a number."""
    parts = urlsplit(url)
    host = canonical_host(parts.hostname or "")
    userinfo, at, _ = parts.netloc.rpartition("@")
    netloc = f"{userinfo}{at}{f'[{host}]' if ':' in host else host}"
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc))


class HttpFetcher(PageFetcher):
    """``HttpFetcher(allowed_hosts=...)``: the real fetcher.

    ``lookup`` replaces the system's name lookup (tests map a "public" name to an address of
    their choice); ``network`` the transport the checked requests go out on (default: httpx's,
    with the system's trust store).
    """

    def __init__(
        self,
        *,
        allowed_hosts: Iterable[str] = (),
        lookup: NameLookup = system_lookup,
        network: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._allowed = frozenset(host.strip("[]").lower() for host in allowed_hosts)
        self._lookup = lookup
        self._network = network
        # the system's trust store, as ``http.client`` and ``urllib`` use it
        self._tls = ssl.create_default_context()

    async def fetch(self, url: str, *, accept: str, max_bytes: int) -> Fetched | None:
        network = self._network or httpx.AsyncHTTPTransport(
            verify=self._tls,
            trust_env=False,
            limits=httpx.Limits(max_keepalive_connections=0),
        )
        guard = AddressGuard(network, self._allowed, self._lookup)
        try:
            async with (
                httpx.AsyncClient(
                    transport=guard,
                    follow_redirects=True,
                    max_redirects=MAX_REDIRECTS,
                    trust_env=False,
                    timeout=_BACKSTOP_SECONDS,
                    headers={"Accept": accept, "User-Agent": "storycore-resolver"},
                ) as client,
                client.stream("GET", connection_url(url)) as response,
            ):
                body = bytearray()
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > max_bytes:
                        break
                return Fetched(
                    url=str(response.url),
                    status=response.status_code,
                    content_type=response.headers.get("content-type", ""),
                    body=bytes(body[:max_bytes]),
                    complete=len(body) <= max_bytes,
                )
        except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError):
            # refused, unreachable, too many redirects, a broken answer; ValueError covers a
            # name that cannot be encoded
            return None
        finally:
            if self._network is None:
                await network.aclose()


class AddressRefused(httpx.ConnectError):
    """A request ``AddressGuard`` refused: its host is not on a public address, and the
    deployment did not allow it. Asking again changes nothing; allowing the host does."""


class AddressGuard(httpx.AsyncBaseTransport):
    """Passes a request on to ``network`` only over http(s), and only to a checked address."""

    def __init__(
        self, network: httpx.AsyncBaseTransport, allowed: frozenset[str], lookup: NameLookup
    ) -> None:
        self._network = network
        self._allowed = canonical_hosts(allowed)
        self._lookup = lookup

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        if url.scheme not in _DEFAULT_PORTS:
            raise httpx.UnsupportedProtocol(f"refused: {url.scheme} is not http(s)")
        # read as the registration of a webhook reads it: ``127.1`` is an address, not a name
        host = canonical_host(url.raw_host.decode("ascii"))
        address = await self._address(host, url.port or _DEFAULT_PORTS[url.scheme], request)
        extensions = dict(request.extensions)
        if url.scheme == "https":
            extensions["sni_hostname"] = host  # the certificate is checked against the name
        forwarded = httpx.Request(
            request.method,
            url.copy_with(host=address),
            headers=request.headers,  # ``Host`` among them: the name
            stream=request.stream,
            extensions=extensions,
        )
        return await self._network.handle_async_request(forwarded)

    async def _address(self, host: str, port: int, request: httpx.Request) -> str:
        """The address to connect to for ``host``: its first, once every address it has is
        found public (an allowed host's need not be)."""
        addresses = [host] if is_ip_address(host) else list(await self._lookup(host, port))
        if not addresses:
            raise httpx.ConnectError(f"{host} has no address", request=request)
        if host not in self._allowed and not all(map(is_public_address, addresses)):
            raise AddressRefused(f"refused: {host} is not on a public address", request=request)
        return addresses[0]
