"""The headers every page of the web host sends (docs/api.md#the-web-host), in one place: the
reading pages, the API reference, the HTML 404s and the editor's pages alike.

The ``Content-Security-Policy`` runs scripts only from the web host (``'self'`` and the origin of
``web_url``, which differ when the page is read through another address) or by a nonce the
page's maker gives, never inline nor through ``eval``. The pages inline their stylesheet, so
``style-src`` allows it by its sha256, computed once from the stylesheet itself. Pictures load
from any http(s) host and ``data:`` (stories keep their pictures' addresses); frames only from
the origins of ``Settings.video_players`` (a poster becomes its player on a click); no plugin;
no ``<base>``; forms post only to the web host. A page that must never be framed (an editor's)
asks for ``framed=False``: ``frame-ancestors 'none'`` and, for older browsers,
``X-Frame-Options: DENY``. The reading pages stay frameable, as they always were.

Answers that are not pages (the embed script, which runs on other sites' pages, feeds, files,
the API) carry none of this.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from functools import cache, lru_cache
from urllib.parse import urlsplit

from ..presentation.pages import page_style
from ..rules.video_players import VideoPlayer
from ..service import Service

__all__ = ["HTML_TYPE", "content_security_policy", "page_headers", "service_page_headers"]

HTML_TYPE = "text/html; charset=utf-8"
REFERRER_POLICY = "strict-origin-when-cross-origin"
#: The policies kept: one for each web address and players (an unset ``web_url`` is the
#: request's, so its ``Host`` is the caller's to choose).
_KEPT_POLICIES = 64


def _origin(address: str) -> str:
    parts = urlsplit(address)
    return f"{parts.scheme}://{parts.netloc}"


@cache
def _style_source() -> str:
    """The hash source of the pages' inlined stylesheet."""
    digest = hashlib.sha256(page_style().encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


@lru_cache(maxsize=_KEPT_POLICIES)
def _policy(web_url: str, players: tuple[VideoPlayer, ...], framed: bool) -> str:
    web = _origin(web_url)
    frames = " ".join(dict.fromkeys(_origin(player.player) for player in players)) or "'none'"
    directives = [
        "default-src 'self'",
        f"script-src 'self' {web}",
        f"style-src 'self' {_style_source()}",
        "img-src http: https: data:",
        f"frame-src {frames}",
        "object-src 'none'",
        "base-uri 'none'",
        f"form-action 'self' {web}",
    ]
    if not framed:
        directives.append("frame-ancestors 'none'")
    return "; ".join(directives)


def content_security_policy(
    web_url: str,
    players: Sequence[VideoPlayer],
    *,
    framed: bool = True,
    nonce: str | None = None,
) -> str:
    """The ``Content-Security-Policy`` of a page of the web host at ``web_url`` whose video
    posters become ``players``; with ``nonce``, inline scripts carrying it run too; unless
    ``framed``, no page may frame it."""
    policy = _policy(web_url, tuple(players), framed)
    if nonce is None:
        return policy
    script = f"script-src 'self' {_origin(web_url)}"
    return policy.replace(script, f"{script} 'nonce-{nonce}'", 1)


def page_headers(
    web_url: str,
    players: Sequence[VideoPlayer],
    *,
    framed: bool = True,
    nonce: str | None = None,
) -> list[tuple[str, str]]:
    """The headers of an HTML page of the web host at ``web_url``: its type, its
    ``Content-Security-Policy`` (``content_security_policy``), ``X-Content-Type-Options`` and
    ``Referrer-Policy``, and unless ``framed`` ``X-Frame-Options: DENY``."""
    headers = [
        ("Content-Type", HTML_TYPE),
        (
            "Content-Security-Policy",
            content_security_policy(web_url, players, framed=framed, nonce=nonce),
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", REFERRER_POLICY),
    ]
    if not framed:
        headers.append(("X-Frame-Options", "DENY"))
    return headers


def service_page_headers(
    service: Service, *, framed: bool = True, nonce: str | None = None
) -> list[tuple[str, str]]:
    """``page_headers`` of a page ``service`` answers (its ``web_url`` and video players)."""
    return page_headers(service.web_url, service.settings.video_players, framed=framed, nonce=nonce)
