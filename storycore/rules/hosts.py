"""A URL's host as a connection reads it (docs/webhooks.md#safety, docs/resolver.md): one
canonical form, so that the check made when a webhook is registered and the check made on each
connection judge the same host, however it was written.

- Percent escapes are decoded; a host that is not ASCII is mapped by IDNA (UTS #46: full-width
  letters and digits, the ideographic full stop ``U+3002``) to its ASCII form, ``xn--`` labels
  and all; lower case; without a final dot. ``LOCALHOST`` in full-width letters is
  ``localhost``.
- An IPv4 address is read the way the system's resolver reads one (``inet_aton``): up to four
  parts, each decimal, octal (a leading ``0``) or hexadecimal (``0x``), the last filling the
  bytes left. ``127.1``, ``0x7f.1``, ``2130706433`` and ``0177.0.0.1`` are all
  ``127.0.0.1``, and ``0`` is ``0.0.0.0``. Anything else stays a name, which is looked up.
- An IPv6 address, with or without its brackets, is written compressed.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from urllib.parse import unquote

import idna

from .public_addresses import is_ip_address, is_public_address

__all__ = ["canonical_host", "canonical_hosts", "is_plainly_private"]

# one part of an IPv4 address as ``inet_aton`` reads it: hexadecimal, octal, decimal
_PART = re.compile(r"0x[0-9a-f]+|0[0-7]*|[1-9][0-9]*")
_BYTES = 4


def canonical_host(host: str) -> str:
    """``host`` as a connection reads it (see the module's docstring); ``ValueError`` for a
    host that no connection can be made to (empty, not a name IDNA takes, brackets around
    something that is not an IPv6 address)."""
    text = unquote(host)
    bracketed = text.startswith("[") and text.endswith("]")
    if bracketed or ":" in text:
        try:
            return ipaddress.IPv6Address(text[1:-1] if bracketed else text).compressed
        except ValueError:
            raise ValueError(f"{host!r} is not an IPv6 address") from None
    if not text.isascii():
        try:
            text = idna.encode(text, uts46=True).decode("ascii")
        except idna.IDNAError:
            raise ValueError(f"{host!r} is not a host name") from None
    text = text.lower().removesuffix(".")
    if not text:
        raise ValueError("a host cannot be empty")
    address = _ipv4(text)
    return text if address is None else str(address)


def canonical_hosts(hosts: Iterable[str]) -> frozenset[str]:
    """The canonical forms of ``hosts`` (the hosts a deployment allowed); one that has none
    is left out: no connection is made to it."""
    found = set()
    for host in hosts:
        try:
            found.add(canonical_host(host.strip()))
        except ValueError:
            continue
    return frozenset(found)


def is_plainly_private(host: str) -> bool:
    """Whether ``host``, canonical, is known not to be public without looking it up:
    ``localhost`` or a name under it, or an IP address that is not public unicast
    (``storycore.rules.public_addresses``). A name is judged on its addresses when connected
    to."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    return is_ip_address(host) and not is_public_address(host)


def _ipv4(text: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address ``inet_aton`` reads ``text`` (lower case) as, or None for a name."""
    parts = text.split(".")
    if len(parts) > _BYTES or not all(_PART.fullmatch(part) for part in parts):
        return None
    numbers = [
        int(part, 16 if part.startswith("0x") else 8 if part[0] == "0" else 10) for part in parts
    ]
    *leading, last = numbers
    if any(number > 0xFF for number in leading) or last >= 1 << (8 * (_BYTES - len(leading))):
        return None
    value = last
    for place, number in enumerate(leading):
        value |= number << (8 * (_BYTES - 1 - place))
    return ipaddress.IPv4Address(value)
