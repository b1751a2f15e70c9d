"""The address rule (docs/api.md#elements): every address the service stores is http(s).

A protocol-relative address (``//host/path``), which v1 clients send
(docs/api.md#calls-and-answers), is
taken as ``https://host/path``: the limit counts the address as taken, the one that is stored.
A host name has at most 253 characters, as DNS allows (RFC 1035): the site's name an element
takes from it then fits every limit of a name.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from ..errors import InvalidParameter

__all__ = ["MAX_HOST_LENGTH", "is_http_url", "validate_url"]

MAX_HOST_LENGTH = 253

# for str patterns, ``\s`` is every character ``str.isspace`` accepts
_SPACE_OR_CONTROL = re.compile(r"[\s\x00-\x1f\x7f]")


def is_http_url(value: str) -> bool:
    """Whether ``value`` is an absolute http or https address with a host (of at most
    ``MAX_HOST_LENGTH`` characters) and no white space."""
    if not value or _SPACE_OR_CONTROL.search(value):
        return False
    try:
        parts = urlsplit(value)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        return False
    host = parts.hostname
    return (
        parts.scheme.lower() in ("http", "https")
        and bool(host)
        and len(host or "") <= MAX_HOST_LENGTH
        and port_ok
    )


def validate_url(value: object, field: str, max_length: int, *, allow_empty: bool = False) -> str:
    """``value`` as the address stored (a protocol-relative one as https), or
    ``InvalidParameter`` naming ``field``."""
    if not isinstance(value, str):
        raise InvalidParameter(f"{field} must be a string", field=field)
    if value == "" and allow_empty:
        return value
    if value.startswith("//"):
        value = f"https:{value}"
    if len(value) > max_length:
        raise InvalidParameter(
            f"{field} is longer than the limit of {max_length} characters", field=field
        )
    if not is_http_url(value):
        raise InvalidParameter(f"{field} must be an http or https address", field=field)
    return value
