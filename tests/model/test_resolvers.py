"""The default resolver: a permalink string becomes a typed element from its address alone
(docs/api.md#elements; image extensions in any case and configurable networks, docs/api.md)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from storycore.model.records import ELEMENT_TYPES
from storycore.model.resolvers import ElementResolver, OfflineResolver
from storycore.rules.addresses import is_http_url
from storycore.settings import Network, Settings

BOUNDED = settings(max_examples=100, deadline=None, database=None)
RESOLVER = OfflineResolver(Settings())
NOW = "2026-11-22T10:15:30.123Z"


def _type(permalink: str, resolver: OfflineResolver = RESOLVER) -> str:
    return resolver.resolve(permalink, element_id="e1", added_at=NOW).type


def test_the_offline_resolver_is_an_element_resolver() -> None:
    assert isinstance(RESOLVER, ElementResolver)


@pytest.mark.parametrize(
    "permalink",
    [
        "https://sociala.example/alice/status/1",
        "https://www.sociala.example/alice/statuses/123/",
        "https://mobile.sociala.example/alice/status/1",
        "https://SocialA.Example/alice/status/1",
        "https://socialb.example/bob.b/posts/abc-1",
    ],
)
def test_a_social_network_post_becomes_a_quote(permalink: str) -> None:
    assert _type(permalink) == "quote"


def test_a_quote_names_its_network_and_author() -> None:
    element = RESOLVER.resolve(
        "https://sociala.example/alice/status/1", element_id="e1", added_at=NOW
    )
    assert element.source is not None
    assert element.attribution is not None
    assert (element.source.name, element.source.username) == ("socialA", "alice")
    assert element.attribution.username == "alice"
    assert element.attribution.href == "https://sociala.example/alice"
    assert element.type == "quote"
    assert element.data == {"quote": {"text": ""}}


@pytest.mark.parametrize(
    "permalink",
    [
        "https://sociala.example/alice",
        "https://sociala.example/alice/status/x",
        "https://other.example/alice/status/1",
    ],
)
def test_an_address_that_is_not_a_post_of_a_network_is_not_a_quote(permalink: str) -> None:
    assert _type(permalink) == "link"


@pytest.mark.parametrize(
    "extension", [".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".svg", ".JPG", ".Png"]
)
def test_an_address_ending_in_an_image_extension_in_any_case_becomes_an_image(
    extension: str,
) -> None:
    assert _type(f"https://cdn.example/photo{extension}") == "image"


def test_an_image_element_shows_its_address() -> None:
    element = RESOLVER.resolve("https://cdn.example/a.png?w=2", element_id="e1", added_at=NOW)
    assert element.type == "image"
    assert element.data == {
        "image": {"src": "https://cdn.example/a.png?w=2", "caption": "", "width": 0, "height": 0}
    }


def test_an_image_extension_in_the_query_string_only_is_not_an_image() -> None:
    assert _type("https://example.com/view?file=a.png") == "link"


@pytest.mark.parametrize(
    "permalink",
    [
        "https://www.youtube.com/watch?v=x",
        "https://youtu.be/x",
        "https://vimeo.com/1",
        "https://WWW.YOUTUBE.COM/watch?v=x",
    ],
)
def test_an_address_on_a_known_video_host_becomes_a_video(permalink: str) -> None:
    assert _type(permalink) == "video"


def test_any_other_address_becomes_a_link_from_its_site() -> None:
    element = RESOLVER.resolve("https://blog.example/post/1", element_id="e1", added_at=NOW)
    assert element.type == "link"
    assert element.source is not None
    assert (element.source.name, element.source.href) == ("blog.example", "https://blog.example")
    assert element.data == {"link": {"title": "", "description": "", "thumbnail": ""}}


def test_the_resolved_element_keeps_the_given_id_address_and_time() -> None:
    element = RESOLVER.resolve("https://blog.example/p", element_id="abc", added_at=NOW)
    assert (element.id, element.permalink, element.added_at) == (
        "abc",
        "https://blog.example/p",
        NOW,
    )


def test_video_hosts_are_configurable() -> None:
    resolver = OfflineResolver(Settings(video_hosts=("videos.example",)))
    assert _type("https://videos.example/v/1", resolver) == "video"
    assert _type("https://youtu.be/x", resolver) == "link"


def test_networks_are_configurable() -> None:
    network = Network(name="socialC", hosts=("c.example",), post_path=r"^/p/(?P<id>\d+)$")
    resolver = OfflineResolver(Settings(networks=(network,)))
    element = resolver.resolve("https://c.example/p/7", element_id="e1", added_at=NOW)
    assert element.type == "quote"
    assert element.source is not None
    assert element.source.name == "socialC"


def test_image_extensions_are_configurable() -> None:
    resolver = OfflineResolver(Settings(image_extensions=(".tiff",)))
    assert _type("https://cdn.example/a.TIFF", resolver) == "image"
    assert _type("https://cdn.example/a.png", resolver) == "link"


@BOUNDED
@given(st.text(max_size=60))
def test_any_http_address_resolves_to_a_typed_element(rest: str) -> None:
    permalink = "https://" + rest
    assume(is_http_url(permalink))
    element = RESOLVER.resolve(permalink, element_id="e1", added_at=NOW)
    assert element.type in ELEMENT_TYPES
    assert element.permalink == permalink


@pytest.mark.parametrize(
    "permalink",
    [
        "https://" + "h" * 245 + ".example/",  # the longest host the address rule takes
        "https://\x80.example/a.png",  # a control character the address rule lets through
        "https://c.example/" + "u" * 2030 + "\x80/p",  # a username like both, on socialC
    ],
)
def test_a_resolver_builds_an_element_from_any_address_that_passed_the_address_rule(
    permalink: str,
) -> None:
    network = Network(name="socialC", hosts=("c.example",), post_path=r"^/(?P<username>[^/]+)/p$")
    resolver = OfflineResolver(Settings(networks=(network,)))
    assert is_http_url(permalink)
    element = resolver.resolve(permalink, element_id="e1", added_at=NOW)
    assert element.permalink == permalink
