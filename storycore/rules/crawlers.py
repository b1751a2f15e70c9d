"""What the web host asks of crawlers (docs/api.md#crawlers): the robots.txt patterns that keep
them out of the editor's paths, read from those paths (``paths.EDITOR_PATHS``), so that a new
editor page is kept from crawlers by being one.

A pattern is read as Google and Bing read one: ``*`` stands for any characters (a slash too),
a final ``$`` for the end of the address. Each editor path is disallowed exactly (``/me$``,
never ``/me``, which would also keep out the author page ``/meadow``) and with a query
(``/signin?``), each parameter a ``*``: ``/*/*/edit$``. No page people read fits one: a
story's address has two segments, and no slug is an editor page's word (``slugs``).
"""

from __future__ import annotations

import re

from .paths import EDITOR_PATHS

__all__ = ["disallowed"]

_PARAMETER = re.compile(r"\{[^}]*\}")


def disallowed(prefix: str = "") -> tuple[str, ...]:
    """The patterns robots.txt disallows, for the web host at ``prefix`` (its address's path,
    without a trailing slash): each editor path, at its end or before a query."""
    # ``*`` and ``$`` mean something in a pattern: a prefix holding one names it encoded
    base = prefix.replace("*", "%2A").replace("$", "%24")
    patterns = (base + _PARAMETER.sub("*", template) for template in EDITOR_PATHS)
    return tuple(line for pattern in patterns for line in (f"{pattern}$", f"{pattern}?"))
