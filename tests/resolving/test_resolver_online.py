"""The online resolver through the real fetcher, against fake sites on 127.0.0.1 (docs/resolver.md):
the provider's oEmbed endpoint, else oEmbed discovery, else the page's OpenGraph
and Twitter-card metadata; within the budget; what is found kept for an hour."""

from __future__ import annotations

from storycore.model.element_kinds import Element
from storycore.model.resolvers import ContentResolver
from storycore.resolving.fetching import JSON_CAP
from storycore.resolving.online_resolver import KEPT_FOR, OnlineResolver
from storycore.rules.oembed_providers import OEmbedProvider
from storycore.settings import Network
from storycore.testing import ManualClock
from tests.resolving.conftest import FakeSite, Reply, online_resolver, online_settings

NOW = "2026-11-22T10:15:30.123Z"
POST_PAGE = '<html><head><meta property="og:description" content="From the page"></head></html>'


def _provider(site: FakeSite) -> OEmbedProvider:
    return OEmbedProvider(
        name="fake", schemes=(site.url("/*/status/*"),), endpoint=site.url("/oembed")
    )


def _network() -> Network:
    """The fake sites as a social network: their ``/NAME/status/N`` addresses are posts."""
    return Network(name="fake", hosts=("127.0.0.1",), post_path=r"^/(?P<username>\w+)/status/\d+$")


def _resolver(site: FakeSite, **changes: object) -> OnlineResolver:
    settings = online_settings(_provider(site), networks=(_network(),), **changes)
    return online_resolver(settings)


def _one(resolver: OnlineResolver, permalink: str) -> Element:
    base = resolver.resolve(permalink, element_id="e1", added_at=NOW)
    [element] = resolver.fill([base])
    return element


def test_the_online_resolver_is_a_content_resolver(site: FakeSite) -> None:
    assert isinstance(_resolver(site), ContentResolver)


def test_a_known_providers_post_is_filled_from_its_oembed_endpoint(site: FakeSite) -> None:
    site.page("/alice/status/1", POST_PAGE)
    site.json(
        "/oembed",
        {
            "type": "rich",
            "author_name": "Alice A.",
            "author_url": site.url("/alice"),
            "html": "<blockquote><p>Hello <b>world</b></p>&mdash; Alice</blockquote>"
            '<script src="https://widgets.example/w.js"></script>',
        },
    )
    element = _one(_resolver(site), site.url("/alice/status/1"))
    assert element.type == "quote"
    assert element.data == {"quote": {"text": "Hello world"}}
    assert element.attribution is not None
    assert (element.attribution.name, element.attribution.username) == ("Alice A.", "alice")
    assert [path.split("?")[0] for path in site.requests] == ["/oembed"]  # not the page


def test_the_oembed_html_is_neither_stored_nor_shown(site: FakeSite) -> None:
    site.json("/oembed", {"type": "rich", "html": "<blockquote><p>Words</p></blockquote>"})
    element = _one(_resolver(site), site.url("/alice/status/1"))
    stored = element.model_dump_json()
    assert "Words" in stored
    assert "<" not in stored
    assert '"html"' not in stored


def test_the_providers_endpoint_is_asked_for_the_permalink_in_json(site: FakeSite) -> None:
    site.json("/oembed", {"type": "rich", "html": "<p>x</p>"})
    _one(_resolver(site), site.url("/alice/status/1"))
    [request] = site.requests
    assert request.startswith("/oembed?url=http%3A%2F%2F127.0.0.1%3A")
    assert request.endswith("%2Falice%2Fstatus%2F1&format=json")


def test_a_provider_that_fails_is_followed_by_the_page(site: FakeSite) -> None:
    site.replies["/oembed"] = Reply(b"down", status=500)
    site.page("/alice/status/1", POST_PAGE)
    element = _one(_resolver(site), site.url("/alice/status/1"))
    assert element.type == "quote"
    assert element.data == {"quote": {"text": "From the page"}}


def test_discovery_finds_the_pages_oembed_and_completes_it_from_the_page(site: FakeSite) -> None:
    site.page(
        "/photo",
        '<link rel="alternate" type="application/json+oembed" href="/photo.json">'
        '<meta property="og:description" content="A described photo">',
    )
    site.json(
        "/photo.json",
        {"type": "photo", "title": "Sunset", "url": site.url("/sunset.jpg"), "width": 800,
         "height": 600},
    )  # fmt: skip
    element = _one(_resolver(site), site.url("/photo"))
    assert element.type == "image"
    assert element.data == {
        "image": {"src": site.url("/sunset.jpg"), "caption": "Sunset", "width": 800, "height": 600}
    }
    assert site.requests == ["/photo", "/photo.json"]


def test_opengraph_fills_a_link(site: FakeSite) -> None:
    site.page(
        "/article",
        '<meta property="og:title" content="An article">'
        '<meta property="og:description" content="What it says">'
        '<meta property="og:image" content="/cover.png">',
    )
    element = _one(_resolver(site), site.url("/article"))
    assert element.type == "link"
    assert element.data == {
        "link": {
            "title": "An article",
            "description": "What it says",
            "thumbnail": site.url("/cover.png"),
        }
    }


def test_a_twitter_card_fills_a_link(site: FakeSite) -> None:
    site.page(
        "/card",
        '<meta name="twitter:title" content="A card"><meta name="twitter:description" content="C">'
        '<meta name="twitter:image" content="/card.png">',
    )
    element = _one(_resolver(site), site.url("/card"))
    assert element.type == "link"
    assert element.data == {
        "link": {"title": "A card", "description": "C", "thumbnail": site.url("/card.png")}
    }


def test_html_in_provider_text_becomes_text(site: FakeSite) -> None:
    site.page(
        "/article",
        '<meta property="og:title" content="&lt;script&gt;alert(1)&lt;/script&gt;Safe &lt;b&gt;t">',
    )
    element = _one(_resolver(site), site.url("/article"))
    assert element.type == "link"
    assert element.data == {"link": {"title": "Safe t", "description": "", "thumbnail": ""}}


def test_an_oembed_answer_over_its_cap_is_not_used(site: FakeSite) -> None:
    site.json("/oembed", {"type": "rich", "html": "<p>big</p>", "pad": "x" * JSON_CAP})
    site.page("/alice/status/1", POST_PAGE)
    element = _one(_resolver(site), site.url("/alice/status/1"))
    assert element.type == "quote"
    assert element.data == {"quote": {"text": "From the page"}}


def test_a_page_that_is_not_html_gives_nothing(site: FakeSite) -> None:
    site.page("/file", '<meta property="og:title" content="no">', content_type="text/plain")
    base = _resolver(site).resolve(site.url("/file"), element_id="e1", added_at=NOW)
    assert _resolver(site).fill([base]) == [base]


def test_an_image_files_permalink_is_not_fetched(site: FakeSite) -> None:
    site.page("/picture.png", "")
    _one(_resolver(site), site.url("/picture.png"))
    assert site.requests == []


def test_a_site_that_never_answers_leaves_the_element_as_it_was_within_the_budget(
    site: FakeSite,
) -> None:
    site.page("/slow", "", hang=True)
    resolver = _resolver(site, resolver_timeout=0.3, resolver_budget=0.6)
    base = resolver.resolve(site.url("/slow"), element_id="e1", added_at=NOW)
    assert resolver.fill([base]) == [base]
    assert site.in_flight == 1  # answered while the site still hangs


def test_what_is_found_is_kept_and_not_fetched_again(site: FakeSite) -> None:
    site.page("/article", '<meta property="og:title" content="Kept">')
    resolver = _resolver(site)
    first = _one(resolver, site.url("/article"))
    site.page("/article", '<meta property="og:title" content="Changed">')
    second = _one(resolver, site.url("/article"))
    assert first.data == second.data
    assert site.requests == ["/article"]


def test_what_is_kept_expires_after_an_hour(site: FakeSite) -> None:
    site.page("/article", '<meta property="og:title" content="Old">')
    clock = ManualClock()
    resolver = online_resolver(
        online_settings(_provider(site), networks=(_network(),)), clock=clock
    )
    _one(resolver, site.url("/article"))
    site.page("/article", '<meta property="og:title" content="New">')
    clock.advance(KEPT_FOR - 0.001)
    assert _one(resolver, site.url("/article")).model_dump()["data"]["link"]["title"] == "Old"
    clock.advance(0.001)
    assert _one(resolver, site.url("/article")).model_dump()["data"]["link"]["title"] == "New"


def test_a_permalink_that_could_not_be_fetched_is_tried_again(site: FakeSite) -> None:
    resolver = _resolver(site)
    _one(resolver, site.url("/later"))  # 404
    site.page("/later", '<meta property="og:title" content="There now">')
    element = _one(resolver, site.url("/later"))
    assert element.model_dump()["data"]["link"]["title"] == "There now"
    assert site.requests == ["/later", "/later"]


def test_one_permalink_twice_in_a_write_is_fetched_once(site: FakeSite) -> None:
    site.page("/article", '<meta property="og:title" content="Twice">')
    resolver = _resolver(site)
    bases = [
        resolver.resolve(site.url("/article"), element_id=f"e{n}", added_at=NOW) for n in (1, 2)
    ]
    first, second = resolver.fill(bases)
    assert (first.id, second.id) == ("e1", "e2")
    assert first.type == second.type == "link"
    assert first.data == second.data == {"link": {"title": "Twice", "description": "",
                                                  "thumbnail": ""}}  # fmt: skip
    assert site.requests == ["/article"]


def test_a_page_in_an_answer_that_is_not_200_gives_nothing(site: FakeSite) -> None:
    site.page("/gone", '<meta property="og:title" content="Gone">', status=410)
    base = _resolver(site).resolve(site.url("/gone"), element_id="e1", added_at=NOW)
    assert _resolver(site).fill([base]) == [base]


def test_a_broken_oembed_answer_falls_back_to_the_page(site: FakeSite) -> None:
    site.page(
        "/p",
        '<link rel="alternate" type="application/json+oembed" href="/p.json">'
        '<meta property="og:title" content="Page title">',
    )
    site.replies["/p.json"] = Reply(b"{not json", content_type="application/json")
    element = _one(_resolver(site), site.url("/p"))
    assert element.model_dump()["data"]["link"]["title"] == "Page title"
