"""The editor's cookies (docs/editor.md#signing-in): the session, which holds a token of the web
host's application, and the form cookie, a random secret of a browser not signed in by
storycore (before signing in, or when the host application signs its users in itself).

Every form that changes something carries a token derived from the session's secret (the
session's token, else the form cookie), so that a form made for one session is refused in
another, and a page of another site cannot make one.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from urllib.parse import urlsplit

from ...rules.credentials import new_secret

__all__ = [
    "FORM_COOKIE",
    "SESSION_COOKIE",
    "cookie",
    "expired_cookie",
    "form_token",
    "new_form_secret",
    "same_token",
]

SESSION_COOKIE = "storycore_session"
FORM_COOKIE = "storycore_form"


def form_token(secret: str) -> str:
    """The token of the forms of the session whose secret is ``secret``."""
    mac = hmac.new(secret.encode(), b"storycore form", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def same_token(sent: str, expected: str) -> bool:
    """Whether a form's token is the expected one, compared in constant time."""
    return hmac.compare_digest(sent.encode(), expected.encode())


def new_form_secret() -> str:
    """A fresh form cookie's secret."""
    return new_secret()


def cookie(web_url: str, name: str, value: str, max_age: int | None) -> str:
    """A ``Set-Cookie`` value for the pages under ``web_url``: ``HttpOnly``,
    ``SameSite=Lax``, ``Secure`` when the site is https; living ``max_age`` seconds, or as long
    as the browser's session."""
    address = urlsplit(web_url)
    path = address.path.rstrip("/") + "/"
    parts = [f"{name}={value}", f"Path={path}", "HttpOnly", "SameSite=Lax"]
    if max_age is not None:
        parts.append(f"Max-Age={max_age}")
    if address.scheme == "https":
        parts.append("Secure")
    return "; ".join(parts)


def expired_cookie(web_url: str, name: str) -> str:
    """A ``Set-Cookie`` value that deletes the cookie ``name``."""
    return cookie(web_url, name, "", 0)
