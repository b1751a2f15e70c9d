# mypy: disable-error-code="union-attr"
# (a missing node fails the test with AttributeError, which says enough)
"""Pages, the embed, oEmbed and JSON-LD show the copies storycore keeps of their pictures
(docs/media.md#where-kept-pictures-show): a picture's source address until it is kept, then its
kept copy from the web host, offered in every kept width (``srcset``) with its size; a page, an
answer and their ``ETag`` change when a picture they show becomes kept."""

from __future__ import annotations

import json
from typing import Any
from xml.etree import ElementTree

import jsonschema_rs
import pytest
from selectolax.lexbor import LexborHTMLParser

from storycore.model.element_kinds import ELEMENT_TYPES
from storycore.model.kept import KeptCopy
from tests._kept_pictures import IMAGE, LINK, QUOTED, SHOWING_EVERY_KIND, THUMBNAIL, VIDEO, keep
from tests.http._clients import Client
from tests.http.conftest import World

AVATAR = "https://pics.example/bob.png"
PICTURES = (THUMBNAIL, AVATAR, IMAGE, QUOTED, VIDEO, LINK)
ELEMENTS: list[dict[str, Any]] = [
    {"type": "text", "data": {"text": "<p>Pictures kept</p>"}},
    *SHOWING_EVERY_KIND,
]


@pytest.fixture
def story(world: World) -> str:
    """Bob's story showing a picture of every kind, its path."""
    bob = world.service.accounts.as_user("bob")
    world.service.accounts.update("bob", {"avatar": AVATAR}, viewer=bob)
    story = {"title": "Kept pictures", "thumbnail": THUMBNAIL, "elements": ELEMENTS}
    slug = world.service.stories.create("bob", story, viewer=bob, publish=True).slug
    return f"/bob/{slug}"


def _keep_all(world: World) -> dict[str, tuple[KeptCopy, ...]]:
    return {address: keep(world.service.store, address) for address in PICTURES}


def _media(client: Client, copy: KeptCopy) -> str:
    return f"{client.web_url}/media/{copy.name}.webp"


def _doc(client: Client, path: str, params: dict[str, str] | None = None) -> LexborHTMLParser:
    answer = client.get(path, params)
    assert answer.status == 200
    return LexborHTMLParser(answer.body.decode())


def _pictures(doc: LexborHTMLParser) -> list[dict[str, str | None]]:
    return [dict(img.attributes) for img in doc.css("img")]


def test_a_page_shows_a_pictures_source_until_it_is_kept(
    client: Client, world: World, story: str
) -> None:
    sources = {img["src"] for img in _pictures(_doc(client, story))}
    assert sources == set(PICTURES)


def test_a_story_page_shows_every_kept_picture_from_the_web_host(
    client: Client, world: World, story: str
) -> None:
    kept = _keep_all(world)
    shown = _pictures(_doc(client, story))
    assert {img["src"] for img in shown} == {_media(client, kept[a][0]) for a in PICTURES}
    for img in shown:
        (copies,) = [c for c in kept.values() if img["src"] == _media(client, c[0])]
        widths = sorted(copies, key=lambda copy: copy.width)
        assert img["srcset"] == ", ".join(f"{_media(client, c)} {c.width}w" for c in widths)
        assert img["sizes"]
        assert img["width"]
        assert img["height"]


def test_a_kept_images_size_is_its_kept_copys(client: Client, world: World, story: str) -> None:
    (copy, *_) = keep(world.service.store, IMAGE, 1400, 800)
    (img,) = _doc(client, story).css(".s-element-image img")
    assert (img.attributes["width"], img.attributes["height"]) == ("1400", "800")
    assert img.attributes["src"] == _media(client, copy)


def test_the_story_page_changes_and_its_etag_too_once_a_picture_is_kept(
    client: Client, world: World, story: str
) -> None:
    before = client.get(story)
    assert client.get(story).headers["etag"] == before.headers["etag"]
    keep(world.service.store, QUOTED)
    after = client.get(story, headers={"If-None-Match": before.headers["etag"]})
    assert after.status == 200
    assert after.headers["etag"] != before.headers["etag"]
    assert QUOTED not in after.body.decode()


def test_the_api_read_changes_its_etag_once_a_picture_is_kept(
    client: Client, world: World, story: str
) -> None:
    before = client.get(f"/v1/stories{story}")
    keep(world.service.store, IMAGE)
    after = client.get(f"/v1/stories{story}", headers={"If-None-Match": before.headers["etag"]})
    assert after.status == 200
    assert after.headers["etag"] != before.headers["etag"]
    (image,) = [e for e in after.json()["content"]["elements"] if e["type"] == "image"]
    assert image["data"]["image"]["src"] == IMAGE
    assert image["kept"]["data.image.src"]["url"].startswith(f"{client.web_url}/media/")


def test_the_head_and_json_ld_name_the_kept_thumbnail(
    client: Client, world: World, story: str
) -> None:
    kept = _keep_all(world)
    doc = _doc(client, story)
    thumbnail = _media(client, kept[THUMBNAIL][0])
    assert doc.css_first('meta[property="og:image"]').attributes["content"] == thumbnail
    assert doc.css_first('meta[name="twitter:image"]').attributes["content"] == thumbnail
    json_ld = json.loads(doc.css_first('script[type="application/ld+json"]').text())
    assert json_ld["image"] == [thumbnail]


def test_the_embed_shows_every_kept_picture_from_the_web_host(
    client: Client, world: World, story: str
) -> None:
    before = client.get(f"{story}.js")
    kept = _keep_all(world)
    after = client.get(f"{story}.js", headers={"If-None-Match": before.headers["etag"]})
    assert after.status == 200
    script = after.body.decode()
    assert not [address for address in PICTURES if address in script]
    shown = [kept[address][0] for address in PICTURES if address != THUMBNAIL]  # no lead
    assert all(_media(client, copy) in script for copy in shown)


def test_oembed_names_the_kept_thumbnail_with_its_size(
    client: Client, world: World, story: str
) -> None:
    url = f"{client.web_url}{story}"
    assert "thumbnail_url" not in client.get("/v1/oembed", params={"url": url}).json()
    copies = keep(world.service.store, THUMBNAIL, 1200, 600)
    answer = client.get("/v1/oembed", params={"url": url}).json()
    assert answer["thumbnail_url"] == _media(client, copies[0])
    assert (answer["thumbnail_width"], answer["thumbnail_height"]) == (1200, 600)
    narrow = client.get("/v1/oembed", params={"url": url, "maxwidth": 700}).json()
    (fitting,) = [copy for copy in copies if copy.width == 640]
    assert narrow["thumbnail_url"] == _media(client, fitting)
    assert (narrow["thumbnail_width"], narrow["thumbnail_height"]) == (640, 320)


@pytest.mark.parametrize(("path", "params"), [("/", {}), ("/search", {"q": "kept"}), ("/bob", {})])
def test_a_list_page_shows_kept_thumbnails_and_avatars(
    client: Client, world: World, story: str, path: str, params: dict[str, str]
) -> None:
    kept = _keep_all(world)
    sources = {img["src"] for img in _pictures(_doc(client, path, params))}
    assert not sources & set(PICTURES)
    assert _media(client, kept[AVATAR if path == "/bob" else THUMBNAIL][0]) in sources


def _feed_thumbnails(client: Client, path: str) -> dict[str, dict[str, str]]:
    root = ElementTree.fromstring(client.get(path).body)
    atom = "{http://www.w3.org/2005/Atom}"
    return {
        entry.findtext(f"{atom}title", ""): dict(thumbnail.attrib)
        for entry in root.iter(f"{atom}entry")
        for thumbnail in entry.iter("{http://search.yahoo.com/mrss/}thumbnail")
    }


@pytest.mark.parametrize("path", ["/feed.atom", "/bob/feed.atom"])
def test_a_feed_shows_each_storys_picture_kept_once_it_is(
    client: Client, world: World, story: str, path: str
) -> None:
    before = client.get(path)
    assert _feed_thumbnails(client, path)["Kept pictures"] == {"url": THUMBNAIL}
    copies = keep(world.service.store, THUMBNAIL, 1200, 600)
    after = client.get(path, headers={"If-None-Match": before.headers["etag"]})
    assert after.status == 200
    shown = {"url": _media(client, copies[0]), "width": "1200", "height": "600"}
    assert _feed_thumbnails(client, path)["Kept pictures"] == shown


def test_the_api_document_says_which_shapes_may_have_kept(client: Client) -> None:
    schemas = client.get("/v1/openapi.json").json()["components"]["schemas"]
    elements = [f"{kind.title()}Element" for kind in ELEMENT_TYPES]
    users = ["UserProfile", "TokenGrant", "AuthorFull"]
    for name in ["StoryDetail", "SearchItem", "SlugChanged", *users, *elements]:
        kept = schemas[name]["properties"]["kept"]
        assert kept["additionalProperties"] == {"$ref": "#/components/schemas/KeptCopyShape"}
        assert "kept" not in schemas[name].get("required", [])
    assert schemas["KeptCopyShape"]["required"] == ["url", "width", "height"]
    assert "kept" not in schemas["StorySummary"]["properties"]


def test_a_kept_answer_fits_the_api_document(client: Client, world: World, story: str) -> None:
    _keep_all(world)
    document = client.get("/v1/openapi.json").json()
    answer = document["paths"]["/v1/stories/{username}/{slug}"]["get"]["responses"]["200"]
    schema = answer["content"]["application/json"]["schema"]
    validator = jsonschema_rs.validator_for({**schema, "components": document["components"]})
    validator.validate(client.get(f"/v1/stories{story}").json())
