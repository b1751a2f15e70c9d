"""The one settings object: every limit of docs/api.md#limits with its decided default, all
configurable; tokens expire after 30 days (docs/api.md#credentials); image extensions (docs/api.md);
a
``web_url`` that is an absolute http(s) address and a ``site_name`` (docs/decisions.md)."""

from __future__ import annotations

from datetime import timedelta

import pydantic
import pytest

from storycore.errors import InvalidParameter
from storycore.rules.slugs import derive_slug, is_valid_slug, next_free_slug
from storycore.settings import Limits, Settings


@pytest.mark.parametrize(
    ("limit", "value"),
    [
        ("request_body", 1024 * 1024),
        ("title", 200),
        ("description", 2000),
        ("elements", 1000),
        ("text_element", 20000),
        ("address", 2048),
        ("query", 200),
        ("per_page", 100),
        ("per_page_default", 20),
        ("slug", 120),
        ("media_bytes", 64 * 1024 * 1024),
    ],
)
def test_each_limit_defaults_to_the_decided_value(limit: str, value: int) -> None:
    assert getattr(Settings().limits, limit) == value


def test_limits_are_configurable_one_by_one() -> None:
    limits = Settings(limits=Limits(title=80)).limits
    assert (limits.title, limits.description) == (80, 2000)


@pytest.mark.parametrize(
    ("limit", "value"), [("title", 0), ("per_page", -1), ("slug", 7), ("media_bytes", 0)]
)
def test_a_limit_too_small_to_keep_the_rules_is_refused(limit: str, value: int) -> None:
    with pytest.raises(pydantic.ValidationError):
        Limits(**{limit: value})


def test_the_smallest_slug_limit_still_gives_valid_suffixed_slugs() -> None:
    limit = Limits(slug=8).slug
    base = derive_slug("A very long title", limit)
    taken = {base, *(f"{base[:6]}-{n}" for n in range(2, 10))}
    assert is_valid_slug(next_free_slug(base, taken, limit), limit)


def test_settings_are_frozen() -> None:
    with pytest.raises(pydantic.ValidationError):
        Settings().limits.title = 5  # type: ignore[misc]


def test_tokens_expire_after_30_days_by_default() -> None:
    assert Settings().token_lifetime == timedelta(days=30)


def test_image_extensions_are_the_documented_defaults() -> None:
    assert set(Settings().image_extensions) == {
        ".jpg",
        ".jpeg",
        ".png",
        ".gif",
        ".webp",
        ".avif",
        ".svg",
    }


def test_the_default_networks_are_socialA_and_socialB() -> None:
    assert [network.name for network in Settings().networks] == ["socialA", "socialB"]


def test_no_delegation_provider_is_allowed_by_default() -> None:
    assert Settings().delegation_providers == ()


def test_a_provider_has_five_seconds_to_answer() -> None:
    assert Settings().provider_timeout == 5.0


@pytest.mark.parametrize(
    "web_url",
    [
        "notaurl",
        "javascript:alert(1)",
        "ftp://example.org",
        "https://",
        "//example.org",
        "example.org/news",
        "https://example.org/?page=2",
        "https://example.org/?",
        "https://example.org/#top",
        "https://user:secret@example.org",
        "https://user@example.org",
        "https://exa mple.org",
        "https://example.org:99999",
        "https://<b>.org",
        "https://example.org/a b",
        "",
    ],
)
def test_a_web_url_that_is_not_an_absolute_http_address_is_refused(web_url: str) -> None:
    with pytest.raises(InvalidParameter) as refused:
        Settings(web_url=web_url)
    assert refused.value.field == "web_url"
    assert "secret" not in refused.value.message


@pytest.mark.parametrize(
    ("web_url", "kept"),
    [
        ("https://stories.example.org", "https://stories.example.org"),
        ("https://stories.example.org/", "https://stories.example.org"),
        ("HTTP://Stories.Example.org:8080/News/", "http://stories.example.org:8080/News"),
        ("http://[::1]:8000/stories", "http://[::1]:8000/stories"),
    ],
)
def test_a_web_url_is_kept_without_a_trailing_slash_scheme_and_host_in_lowercase(
    web_url: str, kept: str
) -> None:
    assert Settings(web_url=web_url).web_url == kept


def test_the_site_has_no_configured_name_by_default() -> None:
    assert Settings().site_name is None


@pytest.mark.parametrize("site_name", ["", "   ", "Harbour\nNews", "x" * 201])
def test_a_site_name_that_is_blank_holds_a_control_character_or_is_too_long_is_refused(
    site_name: str,
) -> None:
    with pytest.raises(InvalidParameter) as refused:
        Settings(site_name=site_name)
    assert refused.value.field == "site_name"


def test_a_site_name_is_kept_without_surrounding_white_space() -> None:
    assert Settings(site_name=" Harbour News ").site_name == "Harbour News"
