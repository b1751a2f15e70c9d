"""The fetcher is safe by construction (docs/resolver.md): it connects only to public
unicast addresses, checked on the address it connects to, redirects included; bodies and
redirects are capped.

Each refusal is shown on a fake site that counts the requests it got: zero. Private ranges
connect nowhere on this machine, so their tests run the fetcher on a network where every
address leads to the fake site (``Everywhere``): had the fetcher let the request go, the site
would have got it.
"""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest

from storycore.contrib.fetch import HttpFetcher
from storycore.resolving.fetching import JSON_CAP
from tests.resolving.conftest import Everywhere, FakeSite, fetch, mapped

PUBLIC = "93.184.215.14"  # a public unicast address; with ``Everywhere`` it leads to the site


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


def test_the_loopback_address_is_refused(site: FakeSite) -> None:
    url = site.page("/p", "<title>secret</title>")
    assert fetch(HttpFetcher(), url) is None
    assert site.requests == []


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="no IPv6 loopback on this machine")
def test_the_ipv6_loopback_address_is_refused(sites: Callable[..., FakeSite]) -> None:
    site = sites("::1")
    url = site.page("/p", "<title>secret</title>")
    assert fetch(HttpFetcher(), url) is None
    assert site.requests == []


def test_localhost_is_refused(site: FakeSite) -> None:
    site.page("/p", "<title>secret</title>")
    assert fetch(HttpFetcher(), f"http://localhost:{site.port}/p") is None
    assert site.requests == []


def test_a_public_name_that_resolves_to_the_loopback_address_is_refused(site: FakeSite) -> None:
    site.page("/p", "<title>secret</title>")
    fetcher = HttpFetcher(lookup=mapped({"public.example": ["127.0.0.1"]}))
    assert fetch(fetcher, f"http://public.example:{site.port}/p") is None
    assert site.requests == []


def test_an_ipv4_mapped_ipv6_loopback_address_is_refused(site: FakeSite) -> None:
    site.page("/p", "<title>secret</title>")
    assert fetch(HttpFetcher(), f"http://[::ffff:127.0.0.1]:{site.port}/p") is None
    assert site.requests == []


def test_a_name_with_one_private_address_among_public_ones_is_refused(site: FakeSite) -> None:
    site.page("/p", "<title>secret</title>")
    fetcher = HttpFetcher(lookup=mapped({"public.example": [PUBLIC, "127.0.0.1"]}))
    assert fetch(fetcher, f"http://public.example:{site.port}/p") is None
    assert site.requests == []


NOT_PUBLIC = [
    "10.0.0.1",  # private, 10/8
    "10.255.255.254",
    "172.16.0.1",  # private, 172.16/12
    "172.31.255.254",
    "192.168.1.1",  # private, 192.168/16
    "169.254.169.254",  # link-local: the cloud metadata address
    "100.64.0.1",  # shared address space (carrier-grade NAT)
    "0.0.0.0",  # unspecified
    "224.0.0.1",  # multicast
    "240.0.0.1",  # reserved
    "192.0.2.1",  # documentation
    "fe80::1",  # IPv6 link-local
    "fc00::1",  # IPv6 unique local
    "ff02::1",  # IPv6 multicast
    "::",  # IPv6 unspecified
    "::ffff:10.0.0.1",  # IPv4-mapped private
    "::ffff:169.254.169.254",  # IPv4-mapped link-local
    "::10.0.0.1",  # IPv4-compatible private
    "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
    "2002:a00:1::1",  # 6to4 of 10.0.0.1
]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_a_name_on_an_address_that_is_not_public_is_refused(site: FakeSite, address: str) -> None:
    site.page("/p", "<title>secret</title>")
    network = Everywhere(site)
    fetcher = HttpFetcher(lookup=mapped({"public.example": [address]}), network=network)
    assert fetch(fetcher, f"http://public.example:{site.port}/p") is None
    assert (site.requests, network.asked) == ([], [])


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_an_address_that_is_not_public_is_refused_when_written_in_the_url(
    site: FakeSite, address: str
) -> None:
    site.page("/p", "<title>secret</title>")
    network = Everywhere(site)
    host = f"[{address}]" if ":" in address else address
    assert fetch(HttpFetcher(network=network), f"http://{host}:{site.port}/p") is None
    assert (site.requests, network.asked) == ([], [])


@pytest.mark.parametrize("host", ["127.1", "0x7f.1", "2130706433", "0177.0.0.1", "0", "10.1"])
def test_an_address_written_another_way_is_that_address_and_never_looked_up(
    site: FakeSite, host: str
) -> None:
    """The connection is checked on the host as the registration of a webhook reads it
    (``storycore.rules.hosts``): ``127.1`` is the loopback address, whatever a name lookup
    would answer for it."""
    site.page("/p", "<title>secret</title>")
    network = Everywhere(site)
    fetcher = HttpFetcher(lookup=mapped({host: [PUBLIC]}), network=network)
    assert fetch(fetcher, f"http://{host}:{site.port}/p") is None
    assert (site.requests, network.asked) == ([], [])


def test_a_public_address_is_fetched(site: FakeSite) -> None:
    """The control of the tests above: on the same network, a public address is reached."""
    site.page("/p", "<title>public</title>")
    network = Everywhere(site)
    fetcher = HttpFetcher(lookup=mapped({"public.example": [PUBLIC]}), network=network)
    fetched = fetch(fetcher, f"http://public.example:{site.port}/p")
    assert fetched is not None
    assert fetched.body == b"<title>public</title>"
    assert site.requests == ["/p"]


def test_the_address_checked_is_the_address_connected_to(site: FakeSite) -> None:
    """DNS rebinding: the name is looked up once, and the connection goes to that address, with
    the name kept as ``Host``; a second lookup, which would answer 127.0.0.1, never happens."""
    answers = [[PUBLIC], ["127.0.0.1"]]
    lookups: list[str] = []

    async def rebinding(host: str, port: int) -> list[str]:
        lookups.append(host)
        return answers[min(len(lookups), 2) - 1]

    site.page("/p", "<title>public</title>")
    network = Everywhere(site)
    assert fetch(
        HttpFetcher(lookup=rebinding, network=network), f"http://rebind.example:{site.port}/p"
    )
    assert (lookups, network.asked) == (["rebind.example"], [PUBLIC])
    assert site.hosts == [f"rebind.example:{site.port}"]


def test_an_allowed_host_is_fetched_on_a_private_address(site: FakeSite) -> None:
    url = site.page("/p", "<title>intranet</title>")
    fetched = fetch(HttpFetcher(allowed_hosts=["127.0.0.1"]), url)
    assert fetched is not None
    assert fetched.status == 200
    assert site.requests == ["/p"]


def test_an_allowed_name_is_fetched_wherever_it_resolves(site: FakeSite) -> None:
    site.page("/p", "<title>intranet</title>")
    fetcher = HttpFetcher(
        allowed_hosts=["wiki.intranet"], lookup=mapped({"wiki.intranet": ["127.0.0.1"]})
    )
    assert fetch(fetcher, f"http://wiki.intranet:{site.port}/p") is not None
    assert site.requests == ["/p"]


def test_a_name_written_in_full_width_letters_is_fetched_as_its_ascii_form(
    site: FakeSite,
) -> None:
    """The host is the one a connection reads (``storycore.rules.hosts``): full-width letters
    are the ASCII name, looked up and checked as it."""
    site.page("/p", "<title>wiki</title>")
    fetcher = HttpFetcher(lookup=mapped({"wiki.example": [PUBLIC]}), network=Everywhere(site))
    fetched = fetch(fetcher, f"http://\uff57\uff49\uff4b\uff49.example:{site.port}/p")
    assert fetched is not None
    assert fetched.status == 200
    assert site.requests == ["/p"]


def test_a_redirect_from_an_allowed_site_to_a_private_address_is_refused(
    sites: Callable[..., FakeSite],
) -> None:
    allowed, private = sites(), sites()
    private.page("/secret", "<title>secret</title>")
    start = allowed.redirect("/go", f"http://localhost:{private.port}/secret")
    assert fetch(HttpFetcher(allowed_hosts=["127.0.0.1"]), start) is None
    assert (len(allowed.requests), len(private.requests)) == (1, 0)


def test_a_redirect_to_a_public_name_on_a_private_address_is_refused(
    sites: Callable[..., FakeSite],
) -> None:
    allowed, private = sites(), sites()
    private.page("/secret", "<title>secret</title>")
    start = allowed.redirect("/go", f"http://public.example:{private.port}/secret")
    fetcher = HttpFetcher(
        allowed_hosts=["127.0.0.1"], lookup=mapped({"public.example": ["127.0.0.1"]})
    )
    assert fetch(fetcher, start) is None
    assert (len(allowed.requests), len(private.requests)) == (1, 0)


@pytest.mark.parametrize("target", ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://x/"])
def test_a_redirect_to_another_scheme_is_refused(site: FakeSite, target: str) -> None:
    start = site.redirect("/go", target)
    assert fetch(HttpFetcher(allowed_hosts=["127.0.0.1"]), start) is None


def test_three_redirects_are_followed(site: FakeSite) -> None:
    site.page("/end", "<title>end</title>")
    for hop in (3, 2, 1):
        site.redirect(f"/hop{hop}", site.url(f"/hop{hop + 1}" if hop < 3 else "/end"))
    fetched = fetch(HttpFetcher(allowed_hosts=["127.0.0.1"]), site.url("/hop1"))
    assert fetched is not None
    assert (fetched.url, fetched.body) == (site.url("/end"), b"<title>end</title>")


def test_a_fourth_redirect_is_not_followed(site: FakeSite) -> None:
    site.page("/end", "<title>end</title>")
    for hop in (4, 3, 2, 1):
        site.redirect(f"/hop{hop}", site.url(f"/hop{hop + 1}" if hop < 4 else "/end"))
    assert fetch(HttpFetcher(allowed_hosts=["127.0.0.1"]), site.url("/hop1")) is None
    assert site.requests == ["/hop1", "/hop2", "/hop3", "/hop4"]


def test_a_body_over_the_cap_is_cut_at_the_cap(site: FakeSite) -> None:
    url = site.json("/big", {"title": "x" * (JSON_CAP + 10)})
    fetched = fetch(HttpFetcher(allowed_hosts=["127.0.0.1"]), url, max_bytes=JSON_CAP)
    assert fetched is not None
    assert (len(fetched.body), fetched.complete) == (JSON_CAP, False)


def test_a_body_that_never_ends_is_read_up_to_the_cap(site: FakeSite) -> None:
    site.page("/endless", "", endless=True)
    fetched = fetch(HttpFetcher(allowed_hosts=["127.0.0.1"]), site.url("/endless"), 100_000)
    assert fetched is not None
    assert (len(fetched.body), fetched.complete) == (100_000, False)


def test_a_body_within_the_cap_is_complete(site: FakeSite) -> None:
    url = site.page("/small", "<title>small</title>")
    fetched = fetch(HttpFetcher(allowed_hosts=["127.0.0.1"]), url, max_bytes=21)
    assert fetched is not None
    assert (fetched.body, fetched.complete) == (b"<title>small</title>", True)
