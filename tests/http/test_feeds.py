"""Atom feeds on the public web host (docs/feeds.md), read back with feedparser.

``/feed.atom`` holds the latest public stories, ``/{username}/feed.atom`` a user's and
``/topics/{topic}/feed.atom`` a topic's; each is Atom 1.0 that feedparser reads without a
warning, answers ``application/atom+xml`` and honours ``If-None-Match``.
"""

from __future__ import annotations

from typing import Any

import feedparser
import pytest

from storycore import Service
from storycore.errors import InvalidParameter, InvalidSlug
from storycore.http.feeds import EMPTY_FEED_UPDATED, FEED_SIZE
from storycore.rules.slugs import validate_slug
from tests.http._clients import HOST, Answer, AppClient, Client
from tests.http.conftest import PREFIX, World

ATOM = "application/atom+xml; charset=utf-8"


def parsed(answer: Answer) -> Any:
    """The feed feedparser reads from a 200 answer, which must hold no warning (``bozo``)."""
    assert answer.status == 200, answer.body
    document = feedparser.parse(
        answer.body, response_headers={"content-type": answer.headers["content-type"]}
    )
    assert not document.bozo, document.get("bozo_exception")
    assert document.version == "atom10"
    return document


def links(document: Any) -> list[str]:
    return [entry.link for entry in document.entries]


def permalink(client: Client, username: str, slug: str) -> str:
    """A story's permalink in the answers ``client`` gets."""
    return f"{client.web_url}/{username}/{slug}"


def test_a_feed_is_atom_that_feedparser_reads_without_warnings(client: Client) -> None:
    answer = client.get("/feed.atom")
    assert answer.headers["content-type"] == ATOM
    assert len(parsed(answer).entries) == 1


def test_the_site_feed_orders_stories_as_the_latest_list_does(client: Client, world: World) -> None:
    world.publish("First", "Second", username="bob")
    world.publish("Third")
    latest = world.service.catalog.latest(per_page=FEED_SIZE).items
    expected = [permalink(client, s.author.username, s.slug) for s in latest]
    assert links(parsed(client.get("/feed.atom"))) == expected
    assert len(expected) == 4


def test_the_site_feed_holds_at_most_50_stories(client: Client, world: World) -> None:
    world.publish(*(f"Story {number}" for number in range(FEED_SIZE)))
    shown = links(parsed(client.get("/feed.atom")))
    assert len(shown) == FEED_SIZE
    assert permalink(client, "alice", "open") not in shown  # the oldest of 51


def test_a_feed_holds_no_more_than_the_services_page_limit(world: World) -> None:
    limits = world.service.settings.limits.model_copy(update={"per_page": 2})
    settings = world.service.settings.model_copy(update={"limits": limits})
    world.publish("Second", "Third")
    service = Service(world.service.store, settings)
    assert len(parsed(AppClient(service).get("/feed.atom")).entries) == 2


def test_an_entry_holds_title_permalink_dates_author_and_summary(
    client: Client, world: World
) -> None:
    stories, bob = world.service.stories, world.service.accounts.as_user("bob")
    stories.create("bob", {"title": "Tide", "slug": "tide", "description": "Low"}, viewer=bob)
    world.clock.advance(1)
    published = stories.publish("bob", "tide", viewer=bob).updated
    world.clock.advance(1)
    detail = stories.save("bob", "tide", {"title": "Tide tables"}, viewer=bob)
    assert len({detail.created, published, detail.updated}) == 3
    (entry,) = parsed(client.get("/bob/feed.atom")).entries
    assert (entry.title, entry.link, entry.id) == (
        "Tide tables",
        permalink(client, "bob", "tide"),
        permalink(client, "bob", "tide"),
    )
    assert (entry.published, entry.updated) == (published, detail.updated)
    assert entry.author == "Bob Builder"
    assert (entry.summary, entry.summary_detail.type) == ("Low", "text/plain")


def test_an_author_without_a_display_name_is_named_by_username(
    client: Client, world: World
) -> None:
    world.service.accounts.create_user("noname", "noname-password")
    world.publish("Nameless", username="noname")
    assert parsed(client.get("/noname/feed.atom")).entries[0].author == "noname"


def test_an_entry_of_a_story_without_a_description_has_no_summary(
    client: Client, world: World
) -> None:
    world.publish("Bare", username="bob")
    assert "summary" not in parsed(client.get("/bob/feed.atom")).entries[0]


def test_private_and_working_stories_are_in_no_feed(client: Client, world: World) -> None:
    # alice's draft and secret are hers too, and on no public list
    for path in ("/feed.atom", "/alice/feed.atom"):
        assert links(parsed(client.get(path))) == [permalink(client, "alice", "open")]


def test_a_feed_names_its_own_address_and_an_alternate(client: Client) -> None:
    web_url = client.web_url
    feed = parsed(client.get("/alice/feed.atom")).feed
    by_rel = {link.rel: link.href for link in feed.links}
    assert (feed.id, feed.title) == (
        f"{web_url}/alice/feed.atom",
        f"Stories by Alice Liddell on {HOST}",
    )
    assert by_rel == {"self": f"{web_url}/alice/feed.atom", "alternate": f"{web_url}/alice"}


@pytest.mark.parametrize(
    ("path", "title"),
    [
        ("/feed.atom", "Latest stories on {site}"),
        ("/alice/feed.atom", "Stories by Alice Liddell on {site}"),
        ("/topics/harbour/feed.atom", "Stories about harbour on {site}"),
        ("/tags/harbour/feed.atom", "Stories tagged #harbour on {site}"),
    ],
    ids=["site", "user", "topic", "tag"],
)
def test_each_feed_s_title_names_the_site(world: World, path: str, title: str) -> None:
    """``Settings.site_name`` when configured, else the host the request names
    (docs/decisions.md)."""
    named = Service(
        world.service.store, world.service.settings.model_copy(update={"site_name": "Harbour News"})
    )
    assert parsed(AppClient(named).get(path)).feed.title == title.format(site="Harbour News")
    assert parsed(AppClient(world.service).get(path)).feed.title == title.format(site=HOST)


def test_a_feed_is_updated_when_its_latest_updated_entry_is(client: Client, world: World) -> None:
    world.publish("Later")
    world.clock.advance(1)
    alice = world.service.accounts.as_user("alice")
    world.service.stories.save("alice", "open", {"description": "Revised"}, viewer=alice)
    later, revised = parsed(client.get("/feed.atom")).entries
    assert later.updated < revised.updated
    assert parsed(client.get("/feed.atom")).feed.updated == revised.updated


def test_an_empty_feed_has_a_fixed_updated(client: Client) -> None:
    document = parsed(client.get("/bob/feed.atom"))
    assert (document.entries, document.feed.updated) == ([], EMPTY_FEED_UPDATED)


def test_a_user_feed_holds_only_that_users_public_stories(client: Client, world: World) -> None:
    (slug,) = world.publish("From bob", username="bob")
    assert links(parsed(client.get("/bob/feed.atom"))) == [permalink(client, "bob", slug)]


def test_a_mounted_apps_feed_names_addresses_under_its_prefix(mounted: Client) -> None:
    document = parsed(mounted.get("/alice/feed.atom"))
    assert document.feed.id == f"http://{HOST}{PREFIX}/alice/feed.atom"
    assert links(document) == [f"http://{HOST}{PREFIX}/alice/open"]


def test_a_user_feed_answers_to_any_case_of_the_username(client: Client) -> None:
    feed = parsed(client.get("/ALICE/feed.atom")).feed
    assert feed.id == f"{client.web_url}/alice/feed.atom"


def test_the_feed_of_an_unknown_user_is_the_web_hosts_html_404(client: Client) -> None:
    answer = client.get("/nobody/feed.atom")
    assert (answer.status, answer.headers["content-type"]) == (404, "text/html; charset=utf-8")
    assert b"There is no such user." in answer.body


def test_feed_atom_can_never_be_a_slug() -> None:
    with pytest.raises(InvalidSlug):
        validate_slug("feed.atom")


def test_a_topic_feed_holds_the_public_stories_of_the_topic(client: Client, world: World) -> None:
    world.publish("Elsewhere", topics=["inland"])
    document = parsed(client.get("/topics/Harbour/feed.atom"))
    assert links(document) == [permalink(client, "alice", "open")]
    assert document.feed.id == f"{client.web_url}/topics/harbour/feed.atom"


def test_a_topic_feed_quotes_the_topic_in_its_address(client: Client) -> None:
    feed = parsed(client.get("/topics/été à la mer/feed.atom")).feed
    assert feed.id == f"{client.web_url}/topics/%C3%A9t%C3%A9%20%C3%A0%20la%20mer/feed.atom"


def test_the_feed_of_a_blank_topic_is_the_web_hosts_html_404(client: Client) -> None:
    answer = client.get("/topics/%23/feed.atom")
    assert (answer.status, answer.headers["content-type"]) == (404, "text/html; charset=utf-8")


def test_a_tag_feed_holds_the_public_stories_with_the_hashtag(client: Client, world: World) -> None:
    world.publish("Elsewhere #inland")
    document = parsed(client.get("/tags/Harbour/feed.atom"))
    assert links(document) == [permalink(client, "alice", "open")]
    assert document.feed.id == f"{client.web_url}/tags/harbour/feed.atom"
    assert document.feed.title == "Stories tagged #harbour on stories.test"


@pytest.mark.parametrize("kind", ["topics", "tags"])
def test_the_feed_of_a_topic_or_tag_without_stories_is_an_empty_feed(
    client: Client, kind: str
) -> None:
    """A reader keeps a feed it subscribed to when its stories go: an empty feed, not a 404
    (the page of such a topic or tag is the 404: docs/feeds.md)."""
    document = parsed(client.get(f"/{kind}/nothing-here/feed.atom"))
    assert (document.entries, document.feed.updated) == ([], EMPTY_FEED_UPDATED)


def test_the_feed_of_a_blank_tag_is_the_web_hosts_html_404(client: Client) -> None:
    answer = client.get("/tags/%23/feed.atom")
    assert (answer.status, answer.headers["content-type"]) == (404, "text/html; charset=utf-8")


def test_a_feed_refuses_post_with_405(client: Client) -> None:
    answer = client.request("POST", "/alice/feed.atom")
    assert (answer.status, answer.headers["allow"]) == (405, "GET, HEAD")


def test_head_of_a_feed_answers_its_headers_without_a_body(client: Client) -> None:
    got, head = client.get("/feed.atom"), client.request("HEAD", "/feed.atom")
    assert (head.status, head.body) == (200, b"")
    assert (head.headers["content-type"], head.headers["etag"]) == (ATOM, got.headers["etag"])
    assert head.headers["content-length"] == str(len(got.body))


def test_a_feed_honours_if_none_match_with_304(client: Client) -> None:
    etag = client.get("/topics/harbour/feed.atom").headers["etag"]
    answer = client.get("/topics/harbour/feed.atom", headers={"If-None-Match": etag})
    assert (answer.status, answer.body, answer.headers["etag"]) == (304, b"", etag)


def test_a_feeds_etag_changes_when_a_story_is_published(client: Client, world: World) -> None:
    before = client.get("/alice/feed.atom").headers["etag"]
    world.publish("News")
    answer = client.get("/alice/feed.atom", headers={"If-None-Match": before})
    assert answer.status == 200
    assert answer.headers["etag"] != before


def test_xml_hostile_titles_and_descriptions_round_trip_exactly(
    client: Client, world: World
) -> None:
    title = "<script>alert('x')</script> & ]]> \"quoted\" — 北の港 🌊"
    description = "]]><![CDATA[ & <b>not bold</b> &amp; 'ok' ✓"
    world.publish(title, username="bob", description=description)
    (entry,) = parsed(client.get("/bob/feed.atom")).entries
    assert (entry.title, entry.summary) == (title, description)


def test_characters_xml_cannot_hold_become_replacement_characters(
    client: Client, world: World
) -> None:
    world.publish("odd\ufffeone\uffff", username="bob")
    (entry,) = parsed(client.get("/bob/feed.atom")).entries
    assert entry.title == "odd\ufffdone\ufffd"


def test_topics_is_a_reserved_username(world: World) -> None:
    with pytest.raises(InvalidParameter):
        world.service.accounts.create_user("Topics", "topics-password")
