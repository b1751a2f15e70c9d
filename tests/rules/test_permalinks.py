"""Public addresses (docs/api.md#stories, docs/api.md#the-web-host, docs/api.md#limits): made and
read back in one place."""

from __future__ import annotations

import pytest

from storycore.rules.permalinks import Permalinks

SITE = Permalinks.of("https://stories.example/")
MOUNTED = Permalinks.of("https://host.example/stories")


def test_a_story_permalink_is_web_url_username_slug() -> None:
    assert SITE.story("alice", "harbour") == "https://stories.example/alice/harbour"


def test_the_embed_script_is_the_permalink_with_js() -> None:
    assert SITE.script("alice", "harbour") == "https://stories.example/alice/harbour.js"


def test_a_shortlink_is_web_url_s_id() -> None:
    assert SITE.shortlink("abc123") == "https://stories.example/s/abc123"


def test_an_author_permalink_is_web_url_username() -> None:
    assert MOUNTED.author("alice") == "https://host.example/stories/alice"


@pytest.mark.parametrize(
    "suffix", ["", "/", "?utm=1", "#elements", "?a=1#b", "/?x", "#/other/path"]
)
def test_a_permalink_is_read_without_its_query_or_fragment(suffix: str) -> None:
    address = SITE.story("alice", "harbour") + suffix
    assert SITE.parse_story(address) == ("alice", "harbour")


def test_the_scheme_and_host_of_a_permalink_are_read_regardless_of_case() -> None:
    assert SITE.parse_story("HTTPS://Stories.Example/alice/harbour") == ("alice", "harbour")


@pytest.mark.parametrize(
    "address",
    [
        "https://elsewhere.example/alice/harbour",
        "http://stories.example/alice/harbour",
        "https://stories.example/alice",
        "https://stories.example/alice/harbour/more",
        "https://stories.example.evil/alice/harbour",
        "https://stories.example//harbour",
    ],
)
def test_an_address_that_is_not_a_story_permalink_names_no_story(address: str) -> None:
    assert SITE.parse_story(address) is None


def test_a_mounted_web_url_reads_permalinks_under_its_path_only() -> None:
    assert MOUNTED.parse_story("https://host.example/stories/alice/x") == ("alice", "x")
    assert MOUNTED.parse_story("https://host.example/alice/x") is None
    assert MOUNTED.parse_story("https://host.example/storiesx/alice/x") is None


@pytest.mark.parametrize("username", ["alice", "Alice_2"])
def test_a_made_permalink_reads_back(username: str) -> None:
    assert MOUNTED.parse_story(MOUNTED.story(username, "a-slug")) == (username, "a-slug")
