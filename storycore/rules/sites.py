"""The site: its public address (``web_url``) and its name (docs/api.md#credentials,
docs/decisions.md).

A web address is an absolute http or https address with a host (a name or an IP address, and a
port), and a path at most: no query, no fragment, no credentials (``user:password@``), no white
space. It is kept with its scheme and host in lowercase and without a trailing slash, as every
address under it is written. A host, wherever it comes from (``web_url``, a request's ``Host``),
keeps ``HOST``. The site's name is ``Settings.site_name``, else its web address's host (with its
port): the host a reader sees in the address bar.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from ..errors import InvalidParameter

__all__ = ["HOST", "MAX_SITE_NAME", "checked_site_name", "checked_web_url", "site_name_of"]

_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
#: A host name or an IP address (IPv6 in brackets), and an optional port.
HOST = re.compile(
    rf"(?:(?:{_LABEL}\.)*{_LABEL}\.?|\[[0-9A-Fa-f:.]{{2,45}}\])(?::[0-9]{{1,5}})?", re.ASCII
)
#: The characters of a path (RFC 3986 ``pchar`` and ``/``, escapes included).
_PATH = re.compile(r"(?:/[A-Za-z0-9\-._~!$&'()*+,;=:@%]*)*", re.ASCII)
_SCHEMES = ("http", "https")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: What ``urlsplit`` would drop or strip unseen (tabs, line breaks, leading spaces).
_SPACE_OR_CONTROL = re.compile(r"[\s\x00-\x1f\x7f]")
#: The longest site name, in characters.
MAX_SITE_NAME = 200
_EXAMPLE = "e.g. https://stories.example.org"


def checked_web_url(text: str) -> str:
    """``text`` as the site's web address, scheme and host in lowercase and no trailing slash;
    ``InvalidParameter`` (field ``web_url``) for anything else. The message never repeats the
    address, which may hold a password."""
    problem = _problem(text)
    if problem is not None:
        raise InvalidParameter(f"web_url {problem}", field="web_url")
    parts = urlsplit(text)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{parts.path.rstrip('/')}"


def _problem(text: str) -> str | None:
    """What keeps ``text`` from being a web address, or None."""
    absolute = f"must be an absolute http or https address with a host, {_EXAMPLE}"
    if _SPACE_OR_CONTROL.search(text):
        return absolute
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return absolute
    if parts.scheme.lower() not in _SCHEMES or not parts.netloc:
        return absolute
    if "@" in parts.netloc:
        return "must not hold credentials (user:password@)"
    if "?" in text:
        return "must not hold a query (?...)"
    if "#" in text:
        return "must not hold a fragment (#...)"
    if not HOST.fullmatch(parts.netloc) or port == 0 or not _PATH.fullmatch(parts.path):
        return absolute
    return None


def checked_site_name(text: str) -> str:
    """``text`` as the site's name, without the white space around it; ``InvalidParameter``
    (field ``site_name``) when it is blank, holds a control character or is too long."""
    name = text.strip()
    if not name or _CONTROL.search(name) or len(name) > MAX_SITE_NAME:
        raise InvalidParameter(
            f"site_name must be 1 to {MAX_SITE_NAME} characters, none of them a control character",
            field="site_name",
        )
    return name


def site_name_of(web_url: str, configured: str | None) -> str:
    """The name of the site at ``web_url``: ``configured``, else the address's host and port."""
    return configured or urlsplit(web_url).netloc or web_url
