"""A webhook registration's members are declared once (``webhooks.webhook_write``): the use
case reads by that declaration, and the route's parameter schemas are made of it, so they
agree: what a parameter's schema takes, the route and the use case take, and what it refuses,
they refuse (docs/webhooks.md, docs/resolver.md). JSON Schema does not tell a public IP address
from a private one: an address whose host is an IP address the schema takes, and the
operation's description says it must be a public one.
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest

from storycore.errors import InvalidParameter
from storycore.http.api import ROUTES
from storycore.http.params import Params
from storycore.input.declared import read_declared
from storycore.input.fields import Members
from storycore.model.webhooks import webhook_write
from storycore.settings import Limits, Settings

SETTINGS = Settings(
    password_cost=2**4,
    limits=Limits(address=40),
    resolver_allowed_hosts=("hooks.local", "LocalHost"),
)
DECLARATION = webhook_write(SETTINGS.resolver_allowed_hosts)
(ROUTE,) = (r for r in ROUTES if r.method == "POST" and r.template == "/v1/webhooks")
PARAMETERS = {p.name: p for p in ROUTE.parameters if p.name in DECLARATION}

VALUES: list[Any] = [
    "",
    " ",
    "a",
    "bell\x07",
    "nul\x00",
    "c1\x85",
    "*",
    " * ",
    "*,story.published",
    "story.published",
    "story.published, story.deleted",
    "story.published,,story.deleted",
    "story.published,",
    "Story.Published",
    "story.nothing",
    "true",
    "FALSE",
    "yes",
    "0",
    "2",
    "https://example.com",
    "https://example.com/hook?x=1#y",
    "//example.com/x",
    "HTTPS://EXAMPLE.COM",
    "https://example.com/" + "x" * 20,
    "https://example.com/" + "x" * 21,
    "//example.com/" + "x" * 26,
    "//example.com/" + "x" * 27,
    "https://user:pw@example.com",
    "https://user@example.com",
    "https://@example.com",
    "http://localhost",
    "http://LocalHost:8080/x",
    "http://a.localhost/",
    "http://localhost.example.com",
    "http://hooks.local/x",
    "http://HOOKS.LOCAL",
    "http://localhost.",
    "http://LOCALHOST:80/x",
    "http://localhost.localhost",
    "http://other.local",
    "https://example.com:0",
    "https://example.com:65535",
    "https://example.com:65536",
    "https://exa mple.com",
    "ftp://example.com",
    "javascript:alert(1)",
    "https://",
    0,
    1,
    1.5,
    True,
    False,
    [],
    ["*"],
    ["story.published"],
    ["story.published", "story.published"],
    ["story.published", "*"],
    ["story.nothing"],
    [""],
    [1],
    [None],
    {},
    {"a": 1},
]

#: Addresses whose host is an IP address, or reads as one: the schema takes them all, the
#: reader only public ones.
IP_HOSTS: list[str] = [
    "http://8.8.8.8/hook",
    "http://127.0.0.1",
    "http://127.1",
    "http://10.0.0.1:8080",
    "http://0x7f000001",
    "http://169.254.169.254/latest",
]


def _read(name: str, value: Any) -> bool:
    """Whether the route's reader, then the use case's, take ``value`` for ``name``."""
    try:
        sent = PARAMETERS[name].reader(Params({name: value}))
        read_declared({name: DECLARATION[name]}, Members({name: sent}, ""), SETTINGS.limits)
    except InvalidParameter:
        return False
    return True


def _takes(name: str, value: Any) -> bool:
    return jsonschema_rs.validator_for(PARAMETERS[name].schema_for(SETTINGS)).is_valid(value)


CASES = [
    pytest.param(name, value, id=f"{name}={value!r}"[:60])
    for name in DECLARATION
    for value in VALUES
]


def test_every_declared_member_is_a_parameter_of_the_route() -> None:
    assert list(PARAMETERS) == list(DECLARATION)


@pytest.mark.parametrize(("name", "value"), CASES)
def test_a_webhook_parameters_schema_and_reader_agree(name: str, value: Any) -> None:
    assert _takes(name, value) == _read(name, value)


@pytest.mark.parametrize("value", IP_HOSTS)
def test_the_reader_takes_an_ip_address_only_where_the_schema_does(value: str) -> None:
    assert _takes("url", value)
    assert _read("url", value) == (value == "http://8.8.8.8/hook")
