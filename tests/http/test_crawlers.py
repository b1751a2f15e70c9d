"""What the web host tells crawlers (docs/api.md#crawlers): ``/robots.txt`` allows the pages,
keeps crawlers out of the editor's paths and names the sitemap; ``/sitemap.xml`` names the
front page, every public, indexed story and every author of one, and past its size becomes an
index of numbered sitemaps (``/sitemaps/{n}.xml``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import xml.etree.ElementTree as ET

import pytest

from storycore.errors import InvalidParameter
from storycore.http import crawlers
from storycore.http.app import HttpApp
from storycore.http.table import TABLE
from storycore.rules.paths import EDITOR_PATHS
from storycore.rules.usernames import validate_username
from tests.http._clients import AppClient, Client
from tests.http.conftest import PREFIX, World

TEXT = "text/plain; charset=utf-8"
XML = "application/xml; charset=utf-8"
SITEMAPS = "http://www.sitemaps.org/schemas/sitemap/0.9"
# W3C datetime as sitemaps.org 0.9 takes it (a date, or a time with its zone)
W3C_DATETIME = re.compile(
    r"\A\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?\Z"
)
#: Paths of pages people read, and other answers crawlers may fetch, some named like the
#: editor's words (``/meadow`` begins like ``/me``).
PUBLIC = (
    "/",
    "/?page=2",
    "/alice",
    "/meadow",
    "/signing",
    "/alice/open",
    "/alice/open?page=2",
    "/alice/edit",
    "/alice/history-of-tea",
    "/alice/open.js",
    "/alice/feed.atom",
    "/topics/edit",
    "/topics/edit?page=2",
    "/tags/history/feed.atom",
    "/static/demo/editorial.jpg",
    "/search?q=edit",
    "/feed.atom",
    "/docs/api",
    "/s/abc",
    "/sitemap.xml",
    "/sitemaps/1.xml",
)


def robots_rules(text: str) -> list[tuple[bool, str]]:
    """The rules of the group for every crawler, as (allowed, pattern)."""
    rules = []
    for line in text.splitlines():
        field, _, value = line.partition(":")
        if field.strip().lower() in ("allow", "disallow") and value.strip():
            rules.append((field.strip().lower() == "allow", value.strip()))
    return rules


def allowed(rules: list[tuple[bool, str]], path: str) -> bool:
    """Whether ``path`` (with its query) may be fetched, as Google and Bing read the rules:
    ``*`` any characters, a final ``$`` the end, the longest matching pattern wins and an
    allowing one wins a tie."""
    matching = []
    for allows, pattern in rules:
        anchored = pattern.endswith("$")
        body = re.escape(pattern.removesuffix("$")).replace(r"\*", ".*")
        if re.match(body + ("$" if anchored else ""), path):
            matching.append((len(pattern), allows))
    return max(matching, default=(0, True))[1]


def _filled(template: str) -> str:
    return re.sub(r"\{[^}]+\}", "word", template)


# -- robots.txt ----------------------------------------------------------------------------


def test_robots_txt_is_plain_text_for_every_crawler_naming_the_sitemap(client: Client) -> None:
    answer = client.get("/robots.txt")
    assert (answer.status, answer.headers["content-type"]) == (200, TEXT)
    lines = answer.body.decode().splitlines()
    assert "User-agent: *" in lines
    assert f"Sitemap: {client.web_url}/sitemap.xml" in lines


@pytest.mark.parametrize("template", EDITOR_PATHS)
def test_robots_txt_keeps_crawlers_out_of_every_editor_path(client: Client, template: str) -> None:
    rules = robots_rules(client.get("/robots.txt").body.decode())
    path = _filled(template)
    assert not allowed(rules, path), path
    assert not allowed(rules, path + "?next=/me"), path


@pytest.mark.parametrize("path", PUBLIC)
def test_robots_txt_allows_every_page(client: Client, path: str) -> None:
    rules = robots_rules(client.get("/robots.txt").body.decode())
    assert allowed(rules, path)


def test_under_a_prefix_robots_txt_names_the_prefixed_paths(mounted: Client) -> None:
    """Crawlers read robots.txt at a host's root only: a host application that mounts
    storycore under a prefix serves it there itself, with the paths it names."""
    text = mounted.get("/robots.txt").body.decode()
    rules = robots_rules(text)
    assert not allowed(rules, f"{PREFIX}/alice/open/edit")
    assert allowed(rules, f"{PREFIX}/alice/open")
    assert f"Sitemap: {mounted.web_url}/sitemap.xml" in text.splitlines()


def test_robots_txt_keeps_its_rules_when_the_editor_is_not_served(world: World) -> None:
    """The editor's paths are the web host's whether or not it serves them (docs/editor.md)."""
    client = AppClient(world.service)
    with_editor = client.get("/robots.txt").body
    client.app = HttpApp(world.service, editor=False)
    assert client.get("/robots.txt").body == with_editor


# -- sitemap.xml ---------------------------------------------------------------------------


def _urls(answer_body: bytes) -> dict[str, str | None]:
    """The sitemap's addresses, each with its lastmod; the document checked against the
    sitemaps.org 0.9 schema's rules on the way."""
    root = ET.fromstring(answer_body)
    assert root.tag == f"{{{SITEMAPS}}}urlset"
    urls: dict[str, str | None] = {}
    for url in root:
        assert url.tag == f"{{{SITEMAPS}}}url"
        children = {child.tag.removeprefix(f"{{{SITEMAPS}}}"): child.text for child in url}
        assert set(children) <= {"loc", "lastmod"}
        loc = children["loc"] or ""
        assert loc.startswith(("http://", "https://"))
        assert len(loc) < 2048
        lastmod = children.get("lastmod")
        assert lastmod is None or W3C_DATETIME.fullmatch(lastmod), lastmod
        assert loc not in urls
        urls[loc] = lastmod
    assert 0 < len(urls) <= 50_000
    return urls


def _hide_from_search_engines(world: World, username: str, slug: str) -> None:
    store = world.service.store
    author = store.users.get_by_username(username)
    assert author is not None
    story = store.stories.get_by_slug(author.id, slug)
    assert story is not None  # a story's own setting, which imports carry (docs/storify.md)
    changed = story.model_copy(update={"not_indexed": True, "version": story.version + 1})
    store.stories.replace(changed, expected_version=story.version)


@pytest.fixture
def written(world: World) -> World:
    """alice's ``open`` (the world's) and two more of hers; bob's one story, not indexed; and
    cora's story."""
    world.publish("Tides", "Quays")
    world.publish("Unlisted", username="bob")
    _hide_from_search_engines(world, "bob", "unlisted")
    world.publish("Gulls", username="cora")
    return world


def _updated(world: World, username: str, slug: str) -> str:
    store = world.service.store
    author = store.users.get_by_username(username)
    assert author is not None
    story = store.stories.get_by_slug(author.id, slug)
    assert story is not None
    return story.updated


def test_the_sitemap_names_the_front_page_each_public_indexed_story_and_its_author(
    client: Client, written: World
) -> None:
    answer = client.get("/sitemap.xml")
    assert (answer.status, answer.headers["content-type"]) == (200, XML)
    web = client.web_url
    assert set(_urls(answer.body)) == {
        f"{web}/",
        f"{web}/alice",
        f"{web}/alice/open",
        f"{web}/alice/tides",
        f"{web}/alice/quays",
        f"{web}/cora",
        f"{web}/cora/gulls",
    }


def test_a_storys_lastmod_is_its_last_change_and_an_authors_their_latest(
    client: Client, written: World
) -> None:
    urls = _urls(client.get("/sitemap.xml").body)
    web = client.web_url
    assert urls[f"{web}/alice/tides"] == _updated(written, "alice", "tides")
    latest = max(_updated(written, "alice", slug) for slug in ("open", "tides", "quays"))
    assert urls[f"{web}/alice"] == latest


def test_a_private_or_working_story_is_not_in_the_sitemap(client: Client) -> None:
    urls = _urls(client.get("/sitemap.xml").body)
    assert not {f"{client.web_url}/alice/secret", f"{client.web_url}/alice/draft"} & set(urls)


def test_a_site_without_stories_has_a_sitemap_of_its_front_page(world: World) -> None:
    for story in ("open", "secret", "draft"):
        world.service.stories.delete("alice", story, viewer=world.service.accounts.as_user("alice"))
    client = AppClient(world.service)
    assert _urls(client.get("/sitemap.xml").body) == {f"{client.web_url}/": None}


def test_the_sitemap_honours_if_none_match_and_is_public(client: Client) -> None:
    answer = client.get("/sitemap.xml")
    assert answer.headers["cache-control"] == "public, max-age=0, must-revalidate"
    again = client.get("/sitemap.xml", headers={"If-None-Match": answer.headers["etag"]})
    assert (again.status, again.body) == (304, b"")


def test_the_sitemaps_etag_changes_when_a_story_is_published(client: Client, world: World) -> None:
    before = client.get("/sitemap.xml").headers["etag"]
    world.publish("News")
    assert client.get("/sitemap.xml", headers={"If-None-Match": before}).status == 200


# -- past the size: an index -------------------------------------------------------------


def _sized(world: World, size: int) -> AppClient:
    """A client of an app whose sitemaps hold at most ``size`` addresses."""
    sized = {crawlers.sitemap, crawlers.numbered_sitemap}
    routes = tuple(
        dataclasses.replace(row, handler=functools.partial(row.handler, size=size))
        if row.handler in sized
        else row
        for row in TABLE
    )
    client = AppClient(world.service)
    client.app = HttpApp(world.service, routes)
    return client


def _index(client: Client) -> list[str]:
    answer = client.get("/sitemap.xml")
    assert (answer.status, answer.headers["content-type"]) == (200, XML)
    root = ET.fromstring(answer.body)
    assert root.tag == f"{{{SITEMAPS}}}sitemapindex"
    locs = []
    for sitemap in root:
        assert sitemap.tag == f"{{{SITEMAPS}}}sitemap"
        assert [child.tag for child in sitemap] == [f"{{{SITEMAPS}}}loc"]
        locs.append(sitemap[0].text or "")
    return locs


def test_past_its_size_the_sitemap_is_an_index_of_numbered_sitemaps_holding_them_all(
    client: Client, written: World
) -> None:
    everything = _urls(client.get("/sitemap.xml").body)  # 7 addresses
    sized = _sized(written, 3)
    locs = _index(sized)
    assert locs == [f"{sized.web_url}/sitemaps/{n}.xml" for n in (1, 2, 3)]
    parts = [_urls(sized.get(loc.removeprefix(sized.web_url)).body) for loc in locs]
    assert [len(part) for part in parts] == [3, 3, 1]
    assert {url: mod for part in parts for url, mod in part.items()} == everything


def test_at_its_size_the_sitemap_is_one_list(client: Client, written: World) -> None:
    assert len(_urls(_sized(written, 7).get("/sitemap.xml").body)) == 7


@pytest.mark.parametrize("number", ["0", "4", "01", "x", "-1"])
def test_a_numbered_sitemap_past_the_last_or_not_a_number_is_the_html_404(
    written: World, number: str
) -> None:
    answer = _sized(written, 3).get(f"/sitemaps/{number}.xml")
    assert (answer.status, answer.headers["content-type"]) == (404, "text/html; charset=utf-8")


def test_the_default_size_is_50000() -> None:
    assert crawlers.SITEMAP_SIZE == 50_000


# -- the paths ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["robots.txt", "sitemap.xml", "sitemaps"])
def test_no_user_can_be_named_like_a_crawlers_path(name: str) -> None:
    with pytest.raises(InvalidParameter):
        validate_username(name)


def test_robots_and_sitemap_refuse_post_with_405(client: Client) -> None:
    for path in ("/robots.txt", "/sitemap.xml", "/sitemaps/1.xml"):
        assert client.request("POST", path).status == 405, path
