# mypy: disable-error-code="union-attr"
# (a missing node fails the test with AttributeError, which says enough)
"""The pages people read on the web host (docs/api.md#the-web-host) through ``HttpApp``: status,
content type, head, caching, links that lead somewhere, 404s and redirects, and hostile text
that stays text.
"""

from __future__ import annotations

import pytest
from selectolax.lexbor import LexborHTMLParser

from storycore.rules.usernames import RESERVED_USERNAMES
from tests.http._clients import Answer, Client
from tests.http.conftest import World

HTML = "text/html; charset=utf-8"
HOSTILE = ("<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "</script><!--", "\u2028")
HOSTILE_TEXT = "".join(HOSTILE)


def _doc(answer: Answer) -> LexborHTMLParser:
    assert answer.headers["content-type"] == HTML
    return LexborHTMLParser(answer.body.decode())


def _get(client: Client, address: str, headers: dict[str, str] | None = None) -> Answer:
    """``client.get`` of a path that may carry its query, or of an address on the web host."""
    path, _, query = address.removeprefix(client.web_url).partition("?")
    return client.get(path, query or None, headers)


@pytest.mark.parametrize(
    "path", ["/", "/alice/open", "/alice", "/topics/harbour", "/tags/harbour", "/search?q=quay"]
)
def test_every_page_is_html_with_the_head_of_decisions_25(client: Client, path: str) -> None:
    answer = _get(client, path)
    assert answer.status == 200
    doc = _doc(answer)
    assert doc.css_first("html").attributes["lang"] == "en"
    head = doc.head
    assert head is not None
    assert head.css_first('meta[name="viewport"]') is not None
    assert head.css_first("title").text()
    assert head.css_first('meta[name="description"]') is not None
    assert head.css_first('link[rel="canonical"]').attributes["href"].startswith(client.web_url)
    for name in ("og:title", "og:description", "og:url", "og:type", "og:site_name"):
        assert head.css_first(f'meta[property="{name}"]') is not None, name
    assert head.css_first('meta[name="twitter:card"]') is not None


@pytest.mark.parametrize("path", ["/", "/alice/open", "/alice", "/tags/harbour", "/search"])
def test_every_page_has_an_etag_honoured_by_if_none_match(client: Client, path: str) -> None:
    answer = client.get(path)
    etag = answer.headers["etag"]
    assert answer.headers["cache-control"] == "public, max-age=0, must-revalidate"
    assert client.get(path, headers={"If-None-Match": f"W/{etag}"}).status == 304


def test_the_story_page_head_announces_oembed_feed_and_article(client: Client) -> None:
    head = _doc(client.get("/alice/open")).head
    assert head is not None
    oembed = head.css_first('link[rel="alternate"][type="application/json+oembed"]')
    assert "/v1/oembed?url=" in (oembed.attributes["href"] or "")
    feed = head.css_first('link[rel="alternate"][type="application/atom+xml"]')
    assert feed.attributes["href"] == f"{client.web_url}/alice/feed.atom"
    assert head.css_first('meta[property="og:type"]').attributes["content"] == "article"
    import json

    article = json.loads(head.css_first('script[type="application/ld+json"]').text())
    assert article["@type"] == "Article"
    assert article["headline"] == "Harbour at dawn"
    assert article["author"]["name"] == "Alice Liddell"
    assert {"datePublished", "dateModified"} <= set(article)
    assert head.css_first('meta[name="robots"]') is None


def test_the_oembed_discovery_link_answers(client: Client) -> None:
    head = _doc(client.get("/alice/open")).head
    assert head is not None
    href = head.css_first('link[type="application/json+oembed"]').attributes["href"] or ""
    assert _get(client, href).status == 200


def test_the_story_page_shows_byline_dates_and_embed_code(client: Client) -> None:
    doc = _doc(client.get("/alice/open"))
    assert doc.css_first("h1").text() == "Harbour at dawn"
    byline = doc.css_first(".byline")
    assert byline.css_first("img.avatar") is None or byline.css_first("img").attributes["alt"] == ""
    assert byline.css_first("a").attributes["href"] == f"{client.web_url}/alice"
    assert all(t.attributes.get("datetime") for t in byline.css("time"))
    code = doc.css_first(".embed-code pre code").text()
    assert code == f'<script src="{client.web_url}/alice/open.js"></script>'


def test_hashtags_in_description_and_text_link_to_their_tag_page(client: Client) -> None:
    doc = _doc(client.get("/alice/open"))
    links = [a.attributes["href"] for a in doc.css(".s-element-text a.hashtag")]
    assert links == [f"{client.web_url}/tags/harbour"]
    assert doc.css_first(".s-element-text p").text() == "Fog over the #harbour"


@pytest.mark.parametrize(
    "path", ["/", "/alice", "/topics/harbour", "/tags/quay", "/search?q=lights"]
)
def test_hashtags_in_a_cards_description_link_to_their_tag_page(
    client: Client, world: World, path: str
) -> None:
    world.publish("Night shift", description="Lights on the #quay tonight", topics=["harbour"])
    doc = _doc(_get(client, path))
    (card,) = [c for c in doc.css(".card") if c.css_first(".card-title a").text() == "Night shift"]
    description = card.css_first(".card-description")
    links = [(a.text(), a.attributes["href"]) for a in description.css("a.hashtag")]
    assert links == [("#quay", f"{client.web_url}/tags/quay")]
    assert description.text() == "Lights on the #quay tonight"


def test_hostile_text_around_a_cards_hashtags_stays_text(client: Client, world: World) -> None:
    hostile = '#quay"><img src=x onerror=alert(1)> <script>alert(1)</script>#harbour</p>'
    world.publish("Night shift", description=hostile)
    doc = _doc(client.get("/"))
    (card,) = [c for c in doc.css(".card") if c.css_first(".card-title a").text() == "Night shift"]
    description = card.css_first(".card-description")
    assert description.css("img, script") == []
    links = [a.attributes["href"] for a in description.css("a")]
    assert links == [f"{client.web_url}/tags/quay", f"{client.web_url}/tags/harbour"]
    assert description.text() == hostile


def test_every_element_page_holds_50_and_links_next_and_prev(client: Client, world: World) -> None:
    texts = [{"type": "text", "data": {"text": f"<p>line {n}</p>"}} for n in range(120)]
    (slug,) = world.publish("Long one", elements=texts)
    first = _doc(client.get(f"/alice/{slug}"))
    assert len(first.css(".s-element")) == 50
    assert first.css_first('link[rel="next"]').attributes["href"].endswith(f"{slug}?page=2")
    assert first.css_first('link[rel="prev"]') is None
    third = _doc(client.get(f"/alice/{slug}", {"page": "3"}))
    assert len(third.css(".s-element")) == 20
    assert third.css_first('a[rel="prev"]').attributes["href"].endswith(f"{slug}?page=2")
    assert third.css_first('link[rel="next"]') is None
    assert client.get(f"/alice/{slug}", {"page": "4"}).status == 404


@pytest.mark.parametrize("slug", ["draft", "secret", "nothing-here"])
def test_a_hidden_or_unknown_story_is_the_html_404_with_a_link_home(
    client: Client, slug: str
) -> None:
    answer = client.get(f"/alice/{slug}")
    assert answer.status == 404
    doc = _doc(answer)
    assert f"{client.web_url}/" in [a.attributes["href"] for a in doc.css("main a")]


@pytest.mark.parametrize("path", ["/nobody", "/nobody/open", "/a/b/c", "/alice?page=x"])
def test_what_does_not_exist_is_the_html_404(client: Client, path: str) -> None:
    answer = _get(client, path)
    assert answer.status == 404
    _doc(answer)


@pytest.mark.parametrize("path", ["/topics/nothing-here", "/tags/nothing-here"])
def test_a_topic_or_tag_without_a_public_story_is_the_html_404(client: Client, path: str) -> None:
    """An empty list at an address any word fits is no page (else a "soft 404")."""
    answer = client.get(path)
    assert answer.status == 404
    assert _doc(answer).css_first("h1").text() == "Not found"


@pytest.mark.parametrize("path", ["/topics/{}", "/tags/{}"])
def test_a_topic_or_tag_of_private_and_working_stories_alone_is_the_html_404(
    client: Client, world: World, path: str
) -> None:
    alice = world.service.accounts.as_user("alice")
    members = {"title": "Hidden #cellar", "topics": ["cellar"]}
    world.service.stories.create("alice", members, viewer=alice)
    world.service.stories.create("alice", {**members, "private": True}, viewer=alice, publish=True)
    assert client.get(path.format("cellar")).status == 404


@pytest.mark.parametrize("path", ["/topics/harbour", "/tags/harbour"])
def test_a_page_past_the_end_of_a_topic_or_tag_is_the_html_404(client: Client, path: str) -> None:
    assert client.get(path, {"page": "2"}).status == 404


def test_the_tag_page_head_names_the_tags_feed(client: Client) -> None:
    head = _doc(client.get("/tags/harbour")).head
    assert head is not None
    feed = head.css_first('link[rel="alternate"][type="application/atom+xml"]')
    assert feed.attributes["href"] == f"{client.web_url}/tags/harbour/feed.atom"


def test_the_html_404_is_not_indexed_and_names_no_canonical_address(client: Client) -> None:
    """A missing page is no copy of another: a canonical link to the front page would tell
    search engines that it is (a "soft 404")."""
    head = _doc(client.get("/alice/nothing-here")).head
    assert head is not None
    assert head.css_first('meta[name="robots"]').attributes["content"] == "noindex"
    assert head.css('link[rel="canonical"], meta[property="og:url"]') == []
    assert head.css_first('meta[property="og:site_name"]') is not None


def test_a_retired_slug_of_a_story_page_is_a_301(client: Client, world: World) -> None:
    client.post_form(
        "/v1/stories/alice/open/editslug", {**world.credentials("alice"), "slug": "quay"}
    )
    answer = client.get("/alice/open")
    assert (answer.status, answer.headers["location"]) == (301, "/alice/quay")


def test_every_author_link_leads_to_a_200_page(client: Client) -> None:
    for path in ("/", "/alice/open", "/tags/harbour", "/search?q=harbour"):
        doc = _doc(_get(client, path))
        authors = {
            a.attributes["href"]
            for a in doc.css(".card-meta a, .byline a")
            if a.attributes.get("href")
        }
        assert authors, path
        for href in authors:
            assert _get(client, href or "").status == 200, href


def test_the_author_page_shows_the_profile_and_stories(client: Client, world: World) -> None:
    world.service.accounts.update(
        "alice",
        {"bio": "Writes", "location": "Oxford", "website": "https://alice.example"},
        viewer=world.service.accounts.as_user("alice"),
    )
    doc = _doc(client.get("/alice"))
    assert doc.css_first("h1").text() == "Alice Liddell"
    assert doc.css_first(".author-bio").text() == "Writes"
    website = doc.css_first("a.author-website")
    assert website.attributes["rel"] == "me nofollow ugc"
    assert [a.text() for a in doc.css(".card-title a")] == ["Harbour at dawn"]
    head = doc.head
    assert head is not None
    assert head.css_first('link[type="application/atom+xml"]') is not None


def test_the_front_page_shows_featured_then_latest_topics_and_search(client: Client) -> None:
    doc = _doc(client.get("/"))
    headings = [h.text() for h in doc.css("h2")]
    assert headings.index("Featured") < headings.index("Latest stories")
    assert [a.text() for a in doc.css(".topics a")] == ["harbour"]
    form = doc.css_first("form[role=search]")
    assert form.attributes["action"] == f"{client.web_url}/search"
    assert form.css_first("input").attributes["name"] == "q"


def test_a_search_over_the_length_limit_is_the_search_page_saying_so(
    client: Client, world: World
) -> None:
    limit = world.service.settings.limits.query
    q = "quay " * (limit // 5) + "harbour"
    answer = client.get("/search", {"q": q})
    assert answer.status == 400
    doc = _doc(answer)
    field = doc.css_first("form[role=search] input[name=q]")
    assert field.attributes["value"] == q
    assert field.attributes["aria-invalid"] == "true"
    problem = doc.css_first(f"#{field.attributes['aria-describedby']}")
    assert f"at most {limit} characters" in problem.text()
    assert f"this one is {len(q)}" in problem.text()
    assert doc.css(".card") == []
    head = doc.head
    assert head is not None
    assert head.css_first('meta[name="robots"]').attributes["content"] == "noindex"
    assert head.css_first('link[rel="canonical"]').attributes["href"] == f"{client.web_url}/search"
    assert head.css_first('meta[property="og:site_name"]') is not None


def test_the_search_form_holds_no_more_than_the_length_limit(client: Client, world: World) -> None:
    limit = world.service.settings.limits.query
    for path in ("/", "/search"):
        field = _doc(client.get(path)).css_first("form[role=search] input[name=q]")
        assert field.attributes["maxlength"] == str(limit), path


@pytest.mark.parametrize("page", ["x", "0", "-1", "2", "1.5"])
def test_a_search_page_number_that_does_not_exist_is_the_html_404(
    client: Client, page: str
) -> None:
    answer = client.get("/search", {"q": "quay", "page": page})
    assert answer.status == 404
    assert _doc(answer).css_first("h1").text() == "Not found"


@pytest.mark.parametrize("query", [{}, {"q": ""}, {"q": "   "}, {"page": "x"}])
def test_a_search_without_words_is_the_form_alone(client: Client, query: dict[str, str]) -> None:
    answer = client.get("/search", query or None)
    assert answer.status == 200
    doc = _doc(answer)
    assert doc.css_first("form[role=search] input[name=q]").attributes["value"] == ""
    assert (doc.css_first("h1").text(), doc.css(".card")) == ("Search", [])


def test_a_search_without_a_letter_or_digit_finds_nothing(client: Client) -> None:
    answer = client.get("/search", {"q": "###"})
    assert answer.status == 200
    doc = _doc(answer)
    assert (doc.css(".card"), doc.css_first(".empty").text()) == ([], "No stories found.")


def test_search_finds_what_the_api_finds(client: Client) -> None:
    doc = _doc(client.get("/search", {"q": "quay"}))
    assert [a.text() for a in doc.css(".card-title a")] == ["Harbour at dawn"]


@pytest.mark.parametrize("name", ["tags", "docs"])
def test_tags_and_docs_are_reserved_usernames(name: str) -> None:
    assert name in RESERVED_USERNAMES


def test_hostile_strings_stay_text_on_every_page(client: Client, world: World) -> None:
    service = world.service
    service.accounts.create_user("mallory", "mallory-password", name=HOSTILE_TEXT)
    mallory = service.accounts.as_user("mallory")
    service.accounts.update("mallory", {"bio": HOSTILE_TEXT}, viewer=mallory)
    image = {"src": "https://img.example/a.jpg", "caption": HOSTILE_TEXT}
    link = {"title": HOSTILE_TEXT, "description": HOSTILE_TEXT}
    elements = [
        {"type": "image", "data": {"image": image}},
        {"type": "link", "permalink": "https://site.example/x", "data": {"link": link}},
    ]
    created = service.stories.create(
        "mallory",
        {"title": f"harbour {HOSTILE_TEXT}", "description": HOSTILE_TEXT, "elements": elements},
        viewer=mallory,
        publish=True,
    )
    for path in ("/", f"/mallory/{created.slug}", "/mallory", "/search?q=harbour"):
        doc = _doc(_get(client, path))
        assert doc.css("img[onerror]") == [], path
        scripts = [
            s for s in doc.css("script") if s.attributes.get("type") != "application/ld+json"
        ]
        assert [s.text() for s in scripts if "alert" in s.text()] == [], path
        assert "<script>alert(1)</script>" in doc.body.text(), path
    head = _doc(client.get(f"/mallory/{created.slug}")).head
    assert head is not None
    ld = head.css_first('script[type="application/ld+json"]').text()
    for breaking in ("</script", "<!--", "\u2028"):
        assert breaking not in ld
