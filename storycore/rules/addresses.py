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
from .text import CONTROL_CHARACTERS

__all__ = ["HTTP_SCHEME", "MAX_HOST_LENGTH", "http_address_pattern", "is_http_url", "validate_url"]

MAX_HOST_LENGTH = 253
#: What a protocol-relative address is given: the limit counts it.
HTTP_SCHEME = "https:"

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
        value = f"{HTTP_SCHEME}{value}"
    if len(value) > max_length:
        raise InvalidParameter(
            f"{field} is longer than the limit of {max_length} characters", field=field
        )
    if not is_http_url(value):
        raise InvalidParameter(f"{field} must be an http or https address", field=field)
    return value


# user information and host in the ASCII characters ``urlsplit`` takes there (no ``[`` ``]``:
# IPv6 literals are left out), a port from 1 to 65535 or none, then anything without white
# space or a control character
_USERINFO = "(?:[A-Za-z0-9._~!$&'()*+,;=%:-]*@)?"
_HOST = f"[A-Za-z0-9._~!$&'()*+,;=%-]{{1,{MAX_HOST_LENGTH}}}"
_PORT = (
    "(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]"
    "|6553[0-5])?)?"
)
_REST = f"(?:[/?#][^\\s{CONTROL_CHARACTERS.pattern[1:-1]}]*)?"
_SCHEME = "[Hh][Tt][Tt][Pp][Ss]?:"


def http_address_pattern(*, scheme: bool = True, userinfo: bool = True) -> str:
    """The addresses ``validate_url`` takes, as a pattern that ECMA-262 (the OpenAPI
    document's) and Python read alike, unanchored: ``http`` or ``https`` in any case (or, without
    ``scheme``, none: a protocol-relative address), then the host with user information (unless
    not ``userinfo``), a port and the rest.

    It leaves out what ``urlsplit`` takes and a pattern says poorly: characters outside ASCII,
    IPv6 literals (``[::1]``) and other characters in the host than a URL's (``\\``), more than
    one ``@``, a port with a leading zero. Those the reader takes and the pattern does not;
    otherwise the two agree (``tests/http/test_address_schema.py``).
    The length limit is the schema's to state, as the reader counts it (``HTTP_SCHEME``).
    """
    after_scheme = f"//{_USERINFO if userinfo else ''}{_HOST}{_PORT}{_REST}"
    return f"{_SCHEME}{after_scheme}" if scheme else after_scheme
