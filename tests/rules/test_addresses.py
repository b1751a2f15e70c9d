"""The address rule: every stored address is an absolute http(s) URL (docs/api.md#elements),
at most 2,048 characters long (docs/api.md#limits), and a fault names its field (docs/api.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storycore.errors import InvalidParameter
from storycore.rules.addresses import is_http_url, validate_url
from storycore.settings import Limits

BOUNDED = settings(max_examples=100, deadline=None, database=None)
ADDRESS_LIMIT = Limits().address


@pytest.mark.parametrize(
    "address",
    [
        "http://example.com",
        "https://example.com/path?q=1#part",
        "HTTPS://EXAMPLE.COM/",
        "http://localhost:8080/x",
        "https://[2001:db8::1]/",
        "https://user@example.com/",
        "https://example.com/é",
    ],
)
def test_an_absolute_http_or_https_address_is_accepted(address: str) -> None:
    assert is_http_url(address)


@pytest.mark.parametrize(
    "address",
    [
        "",
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "ftp://example.com/file",
        "mailto:alice@example.com",
        "//example.com/x",
        "/relative/path",
        "example.com",
        "http://",
        "http:///path",
        "https://exa mple.com/",
        "https://example.com/\n",
        "https://example.com/\x00",
        "https://example.com/\u00a0",
        "http://example.com:0/",
        "http://example.com:99999/",
        "http://[::1/",
    ],
)
def test_any_other_address_is_refused(address: str) -> None:
    assert not is_http_url(address)


@BOUNDED
@given(st.text())
def test_checking_any_text_as_an_address_never_fails(text: str) -> None:
    assert is_http_url(text) in (True, False)
    assert is_http_url("https://" + text) in (True, False)


def test_a_valid_address_is_returned_unchanged() -> None:
    assert validate_url("https://example.com/a", "thumbnail", ADDRESS_LIMIT) == (
        "https://example.com/a"
    )


def test_a_javascript_address_is_invalid_parameter_naming_its_field() -> None:
    with pytest.raises(InvalidParameter) as caught:
        validate_url("javascript:alert(1)", "story.thumbnail", ADDRESS_LIMIT)
    assert (caught.value.status, caught.value.field) == (400, "story.thumbnail")


def test_an_address_that_is_not_a_string_is_invalid_parameter() -> None:
    with pytest.raises(InvalidParameter) as caught:
        validate_url(42, "story.thumbnail", ADDRESS_LIMIT)
    assert caught.value.field == "story.thumbnail"


def test_an_empty_address_is_accepted_where_empty_is_allowed() -> None:
    assert validate_url("", "user.website", ADDRESS_LIMIT, allow_empty=True) == ""


def test_an_empty_address_is_refused_where_one_is_needed() -> None:
    with pytest.raises(InvalidParameter):
        validate_url("", "permalink", ADDRESS_LIMIT)


def _address_of_length(length: int) -> str:
    prefix = "https://example.com/"
    return prefix + "a" * (length - len(prefix))


def test_the_address_limit_is_2048_characters() -> None:
    assert ADDRESS_LIMIT == 2048


def test_an_address_at_the_limit_is_accepted() -> None:
    address = _address_of_length(ADDRESS_LIMIT)
    assert validate_url(address, "permalink", ADDRESS_LIMIT) == address


def test_an_address_over_the_limit_is_refused_naming_the_limit() -> None:
    with pytest.raises(InvalidParameter) as caught:
        validate_url(_address_of_length(ADDRESS_LIMIT + 1), "permalink", ADDRESS_LIMIT)
    assert caught.value.field == "permalink"
    assert "2048" in caught.value.message


def test_a_host_of_253_characters_is_accepted() -> None:
    assert is_http_url("https://" + "h" * 245 + ".example/")


def test_a_host_longer_than_dns_allows_is_refused() -> None:
    assert not is_http_url("https://" + "h" * 246 + ".example/")
