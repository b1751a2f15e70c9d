"""Which IP addresses the online resolver may connect to (docs/resolver.md).

Only public unicast addresses: not loopback, private, shared (carrier-grade NAT), link-local,
multicast, reserved, unspecified, documentation or benchmarking ranges. An IPv6 address that
carries an IPv4 one (IPv4-mapped ``::ffff:a.b.c.d``, IPv4-compatible ``::a.b.c.d``, NAT64
``64:ff9b::/96``, 6to4 ``2002::/16``, Teredo) is judged by that IPv4 address as well, so that
``::ffff:127.0.0.1`` is loopback whatever the IPv6 rules say.
"""

from __future__ import annotations

import ipaddress

__all__ = ["is_ip_address", "is_public_address"]

_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_COMPATIBLE = ipaddress.IPv6Network("::/96")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def is_ip_address(text: str) -> bool:
    """Whether ``text`` is an IP address (v4, or v6 without brackets), not a name."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def is_public_address(text: str) -> bool:
    """Whether ``text`` is an IP address the resolver may connect to; False for anything that
    is not an IP address."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    return all(_is_public(part) for part in (address, *_embedded(address)))


def _embedded(address: IPAddress) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries."""
    if isinstance(address, ipaddress.IPv4Address):
        return []
    found: list[ipaddress.IPv4Address] = []
    if address.ipv4_mapped is not None:
        found.append(address.ipv4_mapped)
    if address.sixtofour is not None:
        found.append(address.sixtofour)
    if address.teredo is not None:
        found.extend(address.teredo)
    if address in _NAT64 or address in _COMPATIBLE:
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return found


def _is_public(address: IPAddress) -> bool:
    return (
        address.is_global
        and not address.is_multicast
        and not address.is_reserved
        and not address.is_loopback
        and not address.is_link_local
        and not address.is_unspecified
        and not (isinstance(address, ipaddress.IPv6Address) and address.is_site_local)
    )
