"""The real identity-provider client of delegated creation: one GET over http.client.

No redirect is followed (http.client follows none), the whole exchange has one deadline, and
at most ``max_bytes + 1`` bytes of the answer are read. The ``Authorization`` value goes into
that one request and nowhere else.
"""

from __future__ import annotations

import http.client
import time
from urllib.parse import urlsplit

from storycore.identity import ProviderAnswer, ProviderClient

__all__ = ["HttpProviderClient"]

_CHUNK = 16 * 1024


class HttpProviderClient(ProviderClient):
    """Sends delegated creation's verify-credentials request."""

    def get(
        self, url: str, authorization: str, *, timeout: float, max_bytes: int
    ) -> ProviderAnswer | None:
        parts = urlsplit(url)
        deadline = time.monotonic() + timeout
        connection_class = (
            http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        )
        connection = connection_class(parts.hostname or "", parts.port, timeout=timeout)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        try:
            connection.request(
                "GET",
                target,
                headers={
                    "Authorization": authorization,
                    "Accept": "application/json",
                    "User-Agent": "storycore-delegation",
                },
            )
            self._limit(connection, deadline)
            response = connection.getresponse()
            body = bytearray()
            while len(body) <= max_bytes:
                self._limit(connection, deadline)
                chunk = response.read1(min(_CHUNK, max_bytes + 1 - len(body)))
                if not chunk:
                    break
                body += chunk
            return ProviderAnswer(response.status, bytes(body))
        except (OSError, http.client.HTTPException, ValueError):
            return None
        finally:
            connection.close()

    @staticmethod
    def _limit(connection: http.client.HTTPConnection, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the provider took too long")
        if connection.sock is not None:
            connection.sock.settimeout(remaining)
