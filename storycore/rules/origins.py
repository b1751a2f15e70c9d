"""Web origins (RFC 6454) as a browser sends them in ``Origin``: ``scheme://host[:port]``."""

from __future__ import annotations

from urllib.parse import urlsplit

__all__ = ["origin_of"]

_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(text: str) -> str:
    """``text`` as an origin, lowercase and without its scheme's default port; ``ValueError``
    for anything that is not one (a path, a query, credentials or another scheme)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"{text!r} is not an origin (scheme://host[:port])") from exc
    if (
        parts.scheme.lower() not in _DEFAULT_PORTS
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username is not None
    ):
        raise ValueError(f"{text!r} is not an origin (scheme://host[:port])")
    scheme, host = parts.scheme.lower(), parts.hostname.lower()
    shown = f"[{host}]" if ":" in host else host
    if port is None or port == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{shown}"
    return f"{scheme}://{shown}:{port}"
