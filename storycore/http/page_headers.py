"""The headers of every page the web host serves (docs/api.md#the-web-host)."""

from __future__ import annotations

__all__ = ["page_headers"]


def page_headers(*, framed: bool = True) -> list[tuple[str, str]]:
    """The security headers of a page; ``framed=False`` for one no other page may frame."""
    policy = "script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'"
    if not framed:
        policy += "; frame-ancestors 'none'"
    return [
        ("Content-Security-Policy", policy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "strict-origin-when-cross-origin"),
    ]
