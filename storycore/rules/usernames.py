"""The username rule (docs/api.md#credentials): shape, reserved names, case-insensitive identity."""

from __future__ import annotations

import re

from ..errors import InvalidParameter

__all__ = ["RESERVED_USERNAMES", "USERNAME_PATTERN", "username_key", "validate_username"]

# ``\A`` and ``\Z``: ``$`` would also match before a final newline
USERNAME_PATTERN = re.compile(r"\A[A-Za-z0-9_]{1,30}\Z")

RESERVED_USERNAMES = frozenset(
    {
        "browse",
        "search",
        "s",
        "v1",
        "auth",
        "users",
        "stories",
        "delegated",
        "oembed",
        "static",
        "api",
        "topics",  # the web host's topic pages and feeds, /topics/{topic}[/feed.atom]
        "tags",  # the web host's hashtag pages, /tags/{tag} (docs/api.md#the-web-host)
        "docs",  # the API reference, /docs/api (docs/api.md#the-web-host)
    }
)


def username_key(username: str) -> str:
    """The form under which usernames are compared: two names with one key are one user."""
    return username.lower()


def validate_username(username: str, field: str = "username") -> str:
    """``username`` itself, or ``InvalidParameter`` when it breaks the rule or is reserved."""
    if not USERNAME_PATTERN.fullmatch(username):
        raise InvalidParameter("a username is 1 to 30 letters, digits or underscores", field=field)
    if username_key(username) in RESERVED_USERNAMES:
        raise InvalidParameter(f"the username {username!r} is reserved", field=field)
    return username
