"""Which addresses the online resolver may connect to (docs/resolver.md): public unicast
only, an IPv6 address that carries an IPv4 one judged by that one too."""

from __future__ import annotations

import pytest

from storycore.rules.public_addresses import is_public_address


@pytest.mark.parametrize(
    "address",
    ["93.184.215.14", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:81b::200e"],
)
def test_a_public_unicast_address_is_public(address: str) -> None:
    assert is_public_address(address)


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1", "127.255.0.1", "::1",  # loopback
        "10.1.2.3", "172.16.0.1", "172.31.0.1", "192.168.0.1",  # private
        "169.254.0.1", "fe80::1", "fe80::1%1",  # link-local
        "100.64.0.1",  # shared (carrier-grade NAT)
        "0.0.0.0", "::",  # unspecified
        "224.0.0.1", "239.255.255.250", "ff02::1", "ff0e::1",  # multicast
        "240.0.0.1", "255.255.255.255",  # reserved, broadcast
        "192.0.2.1", "198.51.100.1", "203.0.113.1", "2001:db8::1",  # documentation
        "198.18.0.1",  # benchmarking
        "fc00::1", "fd12:3456::1",  # unique local
        "fec0::1",  # site-local (deprecated)
        "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",  # IPv4-mapped
        "::127.0.0.1",  # IPv4-compatible
        "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
        "2002:7f00:1::1", "2002:c0a8:101::1",  # 6to4 of 127.0.0.1 and 192.168.1.1
        "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1
    ],
)  # fmt: skip
def test_an_address_that_is_not_public_unicast_is_not_public(address: str) -> None:
    assert not is_public_address(address)


@pytest.mark.parametrize("text", ["", "localhost", "example.com", "1.2.3", "::g", "[::1]"])
def test_what_is_not_an_ip_address_is_not_public(text: str) -> None:
    assert not is_public_address(text)
