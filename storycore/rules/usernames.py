"""The username rule (docs/api.md#credentials): shape, reserved names, case-insensitive identity."""

from __future__ import annotations

import re

from ..errors import InvalidParameter
from .paths import STORY_PAGE_WORDS, WEB_PATHS, first_words

__all__ = [
    "INTERFACE_WORDS",
    "RESERVED_USERNAMES",
    "USERNAME_PATTERN",
    "username_key",
    "validate_username",
]

# ``\A`` and ``\Z``: ``$`` would also match before a final newline
USERNAME_PATTERN = re.compile(r"\A[A-Za-z0-9_]{1,30}\Z")

#: Words the interface reserves though no path of the web host begins with them: the names of
#: the API's parts and places (docs/api.md#credentials), and the words a story's editor pages
#: add after its slug (``STORY_PAGE_WORDS``: ``/{username}/{slug}/preview`` fixes ``preview``
#: where ``/v1/stories/{username}`` takes a username), so that no user is named like one.
INTERFACE_WORDS = (
    frozenset({"api", "auth", "browse", "delegated", "oembed", "stories", "users"})
    | STORY_PAGE_WORDS
)

#: The names no user may take, in any case (docs/api.md#credentials): the first segment of every
#: path the web host answers (``paths``: its pages, feeds, files, and ``v1`` for the API), which
#: a user's own pages would otherwise share, and the interface's words. ``feed.atom`` needs no
#: place here: no username holds a dot.
RESERVED_USERNAMES = INTERFACE_WORDS | {
    word for word in first_words(WEB_PATHS) if USERNAME_PATTERN.fullmatch(word)
}


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
