"""The address rule is stated once (``storycore.rules.addresses``): the OpenAPI document's
address schemas are made of the rule's pattern, and the pattern and the reader agree
(docs/api.md#elements, docs/api.md#calls-and-answers).

What the schema takes, the reader takes (as it is, or a protocol-relative one as https). What
the reader takes, the schema takes too, but for the addresses the pattern leaves out (as
``http_address_pattern`` says): characters outside ASCII, IPv6 literals (``[::1]``) and other
characters in the host than a URL's, more than one ``@``, a port with a leading zero. Those the
document does not promise; the service takes them all the same.
"""

from __future__ import annotations

import re
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storycore.errors import InvalidParameter
from storycore.http import _schema_rules as schema_rules
from storycore.rules.addresses import HTTP_SCHEME, http_address_pattern, validate_url

LIMIT = 60  # small, so that drawn addresses reach it
BOUNDED = settings(max_examples=400, deadline=None, database=None)

REQUIRED = jsonschema_rs.validator_for(schema_rules.address(LIMIT))
OPTIONAL = jsonschema_rs.validator_for(schema_rules.optional_address(LIMIT))

HOSTILE = [
    "",
    " ",
    "http://",
    "http:///",
    "http:///path",
    "http:example.com",
    "http:/example.com",
    "http//example.com",
    "//",
    "///example.com",
    "//example.com",
    "//user:pw@example.com:8080/p?q#f",
    "HtTpS://EXAMPLE.com",
    "https://example.com:",
    "https://example.com:0",
    "https://example.com:00080",
    "https://example.com:65535/",
    "https://example.com:65536/",
    "https://example.com:+80/",
    "https://example.com:-1/",
    "https://example.com: 80/",
    "https://example.com:8a/",
    "https://:80/",
    "https://@example.com",
    "https://user@/",
    "https://u:p@example.com/",
    "https://a@b@example.com/",
    "https://[::1]/",
    "https://[::1/",
    "https://ex[ample.com/",
    "https://exämple.com/",
    "https://example.com/ä",
    "https://example.com/\u0085",
    "https://example.com/\u00a0",
    "https://example.com/\u2028",
    "https://example.com/\ufeff",
    "https://example.com/\x7f",
    "https://example.com/\x9f",
    "https://exa mple.com/",
    "https://example.com/ x",
    "https://example.com/\n",
    "https://example.com\t/",
    "https://example.com/\x00",
    "https://%41.example/",
    "https://.../",
    "https://example.com?q",
    "https://example.com#f",
    "https://example.com\\path",
    "javascript:alert(1)",
    "javascript://example.com/%0aalert(1)",
    "ftp://example.com/",
    "data:text/html,<b>",
    "mailto:a@example.com",
    "https://" + "h" * 253,
    "https://" + "h" * 254,
    "https://example.com/" + "x" * (LIMIT - 20),
    "https://example.com/" + "x" * (LIMIT - 19),
    "//example.com/" + "x" * (LIMIT - 20),
    "//example.com/" + "x" * (LIMIT - 19),
]


def _read(value: str, *, allow_empty: bool) -> str | None:
    """What the reader stores of ``value``, or None when it refuses it."""
    try:
        return validate_url(value, "url", LIMIT, allow_empty=allow_empty)
    except InvalidParameter:
        return None


# the characters of an address's authority (RFC 3986), which the pattern keeps to
_AUTHORITY = re.compile(r"[A-Za-z0-9._~!$&'()*+,;=%:@-]*")


def _outside_the_pattern(value: str) -> bool:
    """Whether ``value`` is of the addresses the pattern leaves out: a character outside
    ASCII, an authority holding other characters than RFC 3986's (an IPv6 literal's ``[``, a
    ``\\``) or more than one ``@``, a port written with a leading zero."""
    authority = re.split(r"[/?#]", value.split("//", 1)[-1], maxsplit=1)[0]
    port = authority.rpartition("@")[2].partition(":")[2]
    return (
        not value.isascii()
        or not _AUTHORITY.fullmatch(authority)
        or authority.count("@") > 1
        or port.startswith("0")
    )


def _agree(value: str) -> None:
    for validator, allow_empty in ((REQUIRED, False), (OPTIONAL, True)):
        read = _read(value, allow_empty=allow_empty)
        if validator.is_valid(value):
            expected = f"{HTTP_SCHEME}{value}" if value.startswith("//") else value
            assert read == expected, f"the schema takes {value!r}, the reader does not"
        elif read is not None:
            assert _outside_the_pattern(value), f"the reader takes {value!r}, the schema not"


@pytest.mark.parametrize("value", HOSTILE)
def test_the_schema_and_the_reader_agree_on_hostile_addresses(value: str) -> None:
    _agree(value)


_PIECES = st.sampled_from(
    [
        "http://", "https://", "HTTP://", "//", "http:", "/", ":", "@", "[", "]", "?", "#", "%",
        ".", "-", "_", "~", "+", "0", "1", "65535", "65536", "a", "Z", "example.com", " ",
        "\t", "\n", "\x00", "\x7f", "\x85", "\xa0", "ä", "\ufeff", "\\", "javascript:",
    ]
)  # fmt: skip


@BOUNDED
@given(st.lists(_PIECES, max_size=12).map("".join))
def test_the_schema_and_the_reader_agree_on_any_address(value: str) -> None:
    _agree(value)


@BOUNDED
@given(st.lists(_PIECES, max_size=12).map(lambda pieces: "https://" + "".join(pieces)))
def test_the_schema_and_the_reader_agree_on_any_https_address(value: str) -> None:
    _agree(value)


def _patterns(schema: dict[str, Any]) -> list[str]:
    return [branch["pattern"] for branch in schema["anyOf"]]


def test_the_address_schemas_are_made_of_the_rules_pattern() -> None:
    absolute, relative = http_address_pattern(), http_address_pattern(scheme=False)
    assert _patterns(schema_rules.address(LIMIT)) == [f"^{absolute}$", f"^{relative}$"]
    assert _patterns(schema_rules.optional_address(LIMIT)) == [
        f"^(?:{absolute})?$",
        f"^{relative}$",
    ]
    webhook = schema_rules.webhook_address(LIMIT)
    assert _patterns(webhook) == [
        f"^{http_address_pattern(userinfo=False)}$",
        f"^{http_address_pattern(scheme=False, userinfo=False)}$",
    ]
