"""A host as a connection reads it (``storycore.rules.hosts``, docs/webhooks.md#safety): one
canonical form, which the check made when a webhook is registered and the check made on the
connection both judge. Every way the system's resolver reads an IPv4 address (``inet_aton``:
decimal, octal, hexadecimal, shortened, a bare number) is that address; full-width letters and
dots are what IDNA maps them to (``tests._unicode`` spells them).
"""

from __future__ import annotations

import ipaddress
import socket
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storycore.rules.hosts import canonical_host, is_plainly_private
from tests._unicode import IDEOGRAPHIC_FULL_STOP, full_width

BOUNDED = settings(max_examples=300, deadline=None, database=None)


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("127.1", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0X7F.1", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("127.000.000.001", "127.0.0.1"),
        ("0x7f.0x0.0x0.0x1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("0", "0.0.0.0"),
        ("10.1", "10.0.0.1"),
        ("0xa9fea9fe", "169.254.169.254"),
        ("127.0.0.1.", "127.0.0.1"),
        (IDEOGRAPHIC_FULL_STOP.join(["127", "0", "0", "1"]), "127.0.0.1"),
        (full_width("127.0.0.1"), "127.0.0.1"),
        ("%31%32%37.0.0.1", "127.0.0.1"),
    ],
)
def test_every_way_of_writing_an_ipv4_address_is_that_address(written: str, canonical: str) -> None:
    assert canonical_host(written) == canonical


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        (full_width("LOCALHOST"), "localhost"),
        (full_width("localhost"), "localhost"),
        ("LocalHost", "localhost"),
        ("localhost.", "localhost"),
        (f"api{IDEOGRAPHIC_FULL_STOP}{full_width('LOCALHOST')}", "api.localhost"),
        ("Hooks.Example", "hooks.example"),
        ("bücher.example", "xn--bcher-kva.example"),
        ("BÜCHER.example", "xn--bcher-kva.example"),
    ],
)
def test_a_name_is_its_idna_ascii_form_in_lower_case_without_a_final_dot(
    written: str, canonical: str
) -> None:
    assert canonical_host(written) == canonical


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("::1", "::1"),
        ("[::1]", "::1"),
        ("0:0:0:0:0:0:0:1", "::1"),
        ("::FFFF:127.0.0.1", "::ffff:7f00:1"),
    ],
)
def test_an_ipv6_address_is_written_compressed(written: str, canonical: str) -> None:
    assert canonical_host(written) == canonical


@pytest.mark.parametrize(
    "written",
    ["1.2.3.4.5", "256.1", "1.1.65536", "08", "0x", "127..1", "1.2.3.0x100", "4294967296"],
)
def test_what_is_not_an_ipv4_address_stays_a_name(written: str) -> None:
    assert canonical_host(written) == written


@pytest.mark.parametrize("written", ["", ".", "[::1", "[hooks.example]", "☃.example", "a:b"])
def test_what_no_connection_can_be_made_to_is_a_value_error(written: str) -> None:
    with pytest.raises(ValueError, match=r"host|IPv6"):
        canonical_host(written)


def _written(number: int, parts: int, radixes: list[str], zeros: list[int]) -> str:
    """``number`` as ``inet_aton`` reads it in ``parts`` parts: a byte each, the last the
    rest, each part in a radix (``d``, ``o``, ``x``) with leading zeros."""
    values = [(number >> (8 * (3 - i))) & 0xFF for i in range(parts - 1)]
    values.append(number & ((1 << (8 * (5 - parts))) - 1))
    written = []
    for value, radix, zero in zip(values, radixes, zeros, strict=False):
        if radix == "x":
            written.append("0x" + "0" * zero + format(value, "x"))
        elif radix == "o":
            written.append("0" + "0" * zero + format(value, "o"))
        else:
            written.append(str(value))
    return ".".join(written)


@BOUNDED
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 4),
    st.lists(st.sampled_from("dox"), min_size=4, max_size=4),
    st.lists(st.integers(0, 3), min_size=4, max_size=4),
)
def test_an_ipv4_address_written_in_any_radix_and_any_number_of_parts_is_that_address(
    number: int, parts: int, radixes: list[str], zeros: list[int]
) -> None:
    written = _written(number, parts, radixes, zeros)
    assert canonical_host(written) == str(ipaddress.IPv4Address(number))


def _system_reads(text: str) -> str | None:
    """The address the system's resolver reads ``text`` as, without looking a name up."""
    try:
        found = socket.getaddrinfo(text, 80, flags=socket.AI_NUMERICHOST, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        return None
    return str(found[0][4][0])


@pytest.mark.skipif(sys.platform != "linux", reason="the resolver compared with is glibc's")
@BOUNDED
@given(st.text(alphabet="0123456789abcdefx.", min_size=1, max_size=24))
def test_a_host_reads_as_the_address_the_system_reads_it_as(text: str) -> None:
    """The check and the connection agree: what the system's resolver takes for an address,
    canonical_host gives as that address; anything else stays a name, which is looked up."""
    if text.endswith("."):
        return  # a final dot is dropped from a name, which the resolver never takes as an address
    read = _system_reads(text)
    assert canonical_host(text) == (text if read is None else read)


@pytest.mark.parametrize(
    ("host", "private"),
    [
        ("localhost", True),
        ("api.localhost", True),
        ("127.0.0.1", True),
        ("0.0.0.0", True),
        ("::ffff:7f00:1", True),
        ("10.0.0.1", True),
        ("93.184.216.34", False),
        ("hooks.example", False),
        ("localhost.example", False),
    ],
)
def test_localhost_and_ip_addresses_that_are_not_public_are_plainly_private(
    host: str, private: bool
) -> None:
    assert is_plainly_private(host) is private
