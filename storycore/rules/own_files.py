"""The files storycore serves itself (the demo's pictures), at ``{web_url}/static/demo/{name}``
on every web host, and where a page shows one from (docs/decisions.md#command-line).

A store keeps such a picture as an absolute address, fixed when it was written; when that
address names a loopback or unspecified host (``127.0.0.1``, ``::1``, ``localhost``,
``0.0.0.0``: where ``storycore demo`` and ``serve --demo`` without a web address put them), no
reader's browser could load it from anywhere but its own machine, so a page shows the same
file from the web host that serves the page instead: the demo's pictures load wherever the
store is served. Every other address is shown as it is stored.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

__all__ = ["OWN_FILES", "shown_at"]

#: The path under every web address where storycore serves its own files.
OWN_FILES = "/static/demo/"


def _is_this_machine(host: str) -> bool:
    """Whether ``host`` names the reader's own machine, wherever the reader is."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def shown_at(address: str, web_url: str) -> str:
    """``address`` as a page of the web host at ``web_url`` (without a trailing slash) shows
    it: one of storycore's own files on the reader's own machine, from ``web_url``; else
    unchanged."""
    if OWN_FILES not in address:
        return address
    try:
        parts = urlsplit(address)
        host = (parts.hostname or "").lower()
    except ValueError:
        return address
    if parts.scheme not in ("http", "https") or not parts.path.startswith(OWN_FILES):
        return address
    if not _is_this_machine(host) or parts.query or parts.fragment:
        return address
    return f"{web_url}{parts.path}"
