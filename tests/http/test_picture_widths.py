# mypy: disable-error-code="union-attr"
# (a missing node fails the test with AttributeError, which says enough)
"""Pictures no larger than they are drawn (docs/api.md#pictures-in-widths): a picture
storycore serves itself comes in the widths the package holds, each a file of the web host of
that very width, and a card names them in its ``srcset``; a picture from elsewhere is shown as it
is.
"""

from __future__ import annotations

from typing import Any

import pytest
from selectolax.lexbor import LexborHTMLParser

from storycore.model.element_kinds import ELEMENT_CLASSES
from storycore.presentation.own_pictures import names, picture_size, widths
from storycore.presentation.pages import Site, render_elements
from tests.http._clients import Client
from tests.http.conftest import World

SITE = Site("https://news.example", "Harbour News")
PICTURES = sorted(name for name in names() if widths(name))


def test_the_demos_pictures_come_in_smaller_widths() -> None:
    assert {"porto.webp", "food.webp"} <= set(PICTURES)
    assert [width for _, width in widths("porto.webp")] == [160, 320, 480, 640, 800, 960]
    assert [width for _, width in widths("food.webp")] == [160, 320, 480]


@pytest.mark.parametrize("picture", PICTURES)
def test_every_width_named_is_a_file_of_that_size(client: Client, picture: str) -> None:
    original_width, original_height = picture_size(picture)
    for name, width in widths(picture):
        answer = client.get(f"/static/demo/{name}")
        assert (answer.status, answer.headers["content-type"]) == (200, "image/webp")
        assert picture_size(name) == (width, round(original_height * width / original_width))


def test_an_own_picture_is_offered_in_its_widths() -> None:
    srcset = SITE.srcset("http://127.0.0.1:8000/static/demo/food.webp")
    assert srcset == (
        "https://news.example/static/demo/food-160w.webp 160w, "
        "https://news.example/static/demo/food-320w.webp 320w, "
        "https://news.example/static/demo/food.webp 480w"
    )


@pytest.mark.parametrize(
    "address",
    [
        "https://img.example/static/demo/food.webp",
        "https://img.example/food.webp",
        "http://127.0.0.1:8000/static/demo/avatar-alice.webp",  # drawn as large as it is
        "http://127.0.0.1:8000/static/demo/missing.webp",
        "",
    ],
)
def test_a_picture_without_widths_is_shown_as_it_is(address: str) -> None:
    assert SITE.srcset(address) == ""


def test_a_cards_picture_names_its_widths_and_how_wide_it_is_drawn(
    client: Client, world: World
) -> None:
    own = f"{client.web_url}/static/demo/porto.webp"
    world.publish("Porto", thumbnail=own)
    world.publish("Elsewhere", thumbnail="https://img.example/a.jpg")
    for path, query in (("/", None), ("/alice", None), ("/search", {"q": "porto"})):
        doc = LexborHTMLParser(client.get(path, query).body.decode())
        cards = {c.css_first(".card-title a").text(): c.css_first("img") for c in doc.css(".card")}
        image = cards["Porto"]
        assert image.attributes["srcset"] == _site(client).srcset(own), path
        assert image.attributes["sizes"], path
        if "Elsewhere" in cards:
            assert "srcset" not in cards["Elsewhere"].attributes, path


def _site(client: Client) -> Site:
    """The site ``client`` calls."""
    return Site(client.web_url, "")


def test_a_storys_own_pictures_are_offered_in_their_widths_on_its_page_and_embed() -> None:
    own = "http://127.0.0.1:8000/static/demo/porto.webp"
    elements: list[dict[str, Any]] = [
        {"type": "image", "data": {"image": {"src": own, "width": 960, "height": 640}}},
        {
            "type": "link",
            "permalink": "https://site.example/x",
            "data": {"link": {"title": "Porto", "thumbnail": own}},
        },
    ]
    html = render_elements([ELEMENT_CLASSES[e["type"]].model_validate(e) for e in elements], SITE)
    images = LexborHTMLParser(f"<html><body>{html}</body></html>").css("img")
    assert [image.attributes["srcset"] for image in images] == [SITE.srcset(own)] * 2
    assert all(image.attributes["sizes"] for image in images)
