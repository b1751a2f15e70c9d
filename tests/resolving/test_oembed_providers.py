"""The table of known oEmbed providers (docs/resolver.md): a permalink its schemes match is
asked of the provider's endpoint, in JSON."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from storycore.rules.oembed_providers import DEFAULT_OEMBED_PROVIDERS, OEmbedProvider, endpoint_for
from storycore.settings import Settings


def test_the_settings_hold_the_default_table() -> None:
    assert Settings().oembed_providers == DEFAULT_OEMBED_PROVIDERS
    names = {provider.name for provider in DEFAULT_OEMBED_PROVIDERS}
    assert {"YouTube", "Vimeo", "Flickr", "SoundCloud"} <= names


@pytest.mark.parametrize(
    ("permalink", "endpoint"),
    [
        ("https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://www.youtube.com/oembed"),
        ("https://youtu.be/dQw4w9WgXcQ", "https://www.youtube.com/oembed"),
        ("http://www.youtube.com/watch?v=x", "https://www.youtube.com/oembed"),
        ("https://vimeo.com/76979871", "https://vimeo.com/api/oembed.json"),
        ("https://www.flickr.com/photos/someone/123", "https://www.flickr.com/services/oembed/"),
        ("https://soundcloud.com/artist/track", "https://soundcloud.com/oembed"),
        ("https://x.com/alice/status/1", "https://publish.twitter.com/oembed"),
    ],
)
def test_a_known_providers_permalink_is_asked_of_its_endpoint(
    permalink: str, endpoint: str
) -> None:
    request = endpoint_for(DEFAULT_OEMBED_PROVIDERS, permalink)
    assert request is not None
    parts = urlsplit(request)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == endpoint
    assert parse_qs(parts.query) == {"url": [permalink], "format": ["json"]}


@pytest.mark.parametrize(
    "permalink",
    ["https://example.org/post", "https://www.youtube.com/", "https://notyoutube.com/watch?v=1"],
)
def test_an_address_no_provider_has_is_asked_of_nobody(permalink: str) -> None:
    assert endpoint_for(DEFAULT_OEMBED_PROVIDERS, permalink) is None


def test_an_endpoint_with_a_query_keeps_it() -> None:
    provider = OEmbedProvider(
        name="p", schemes=("https://p.example/*",), endpoint="https://p.example/oembed?key=1"
    )
    assert provider.request_url("https://p.example/a") == (
        "https://p.example/oembed?key=1&url=https%3A%2F%2Fp.example%2Fa&format=json"
    )


def test_a_schemes_star_does_not_make_its_dots_wildcards() -> None:
    provider = OEmbedProvider(name="p", schemes=("https://a.b.example/*",), endpoint="https://e")
    assert provider.matches("https://a.b.example/x")
    assert not provider.matches("https://aXb.example/x")
