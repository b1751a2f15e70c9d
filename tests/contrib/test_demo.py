"""The demo looks like a real site, offline (docs/decisions.md): its pictures and avatars are
files storycore serves itself under ``/static/demo/`` of the web host, quotes carry their text,
author, avatar, network and time, videos a poster and a title, link cards a title, a
description and a thumbnail, and users an avatar, a website and a bio. Its stories read as
written by people: each is about the place its title names and the topic it is filed under
(its words, hashtags, pictures and quoted accounts), and no two share a title."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.contrib.demo import load_demo
from storycore.http import HttpApp, HttpRequest
from storycore.model.records import StoryRecord
from storycore.model.shapes import StoryDetail
from storycore.rules.sanitize import plain_text
from tests.conftest import TEST_SETTINGS

WEB_URL = "https://stories.example/site"
YOUTUBE = re.compile(r"https://www\.youtube\.com/watch\?v=[A-Za-z0-9_-]{11}")


@pytest.fixture(scope="module")
def demo() -> Iterator[Service]:
    service = Service(
        open_store("memory://"), TEST_SETTINGS.model_copy(update={"web_url": WEB_URL})
    )
    load_demo(service)
    yield service
    service.close()


def _elements(service: Service) -> list[dict[str, Any]]:
    """Every element of every story of the demo, private and working ones included."""
    found = []
    for author in ("alice", "bruno", "chloe"):
        viewer = service.accounts.as_user(author)
        listed = service.catalog.user(
            author, viewer=viewer, filter="working,published", per_page=100
        )
        for story in listed.items:
            detail = service.stories.read(author, story.slug, viewer=viewer, per_page=100)
            found += [element.model_dump() for element in detail.elements]
    return found


def _stories(service: Service) -> list[tuple[StoryDetail, StoryRecord]]:
    """Every story of the demo, private and working ones included, as read and as stored."""
    found = []
    for author in ("alice", "bruno", "chloe"):
        viewer = service.accounts.as_user(author)
        listed = service.catalog.user(
            author, viewer=viewer, filter="working,published", per_page=100
        )
        for item in listed.items:
            record = service.store.stories.get(item.id)
            assert record is not None
            found.append((service.stories.read(author, item.slug, viewer=viewer), record))
    return found


def _of_type(service: Service, kind: str) -> list[dict[str, Any]]:
    return [element for element in _elements(service) if element["type"] == kind]


def _users(service: Service) -> list[Any]:
    return [service.accounts.get(u) for u in ("alice", "bruno", "chloe", "dev_ed", "curator")]


def _addresses(service: Service) -> set[str]:
    """Every picture address of the demo: images, quoted accounts' avatars, link thumbnails,
    video posters and users' avatars."""
    found = {user.avatar for user in _users(service)}
    for element in _elements(service):
        data = element["data"]
        if element["type"] == "image":
            found.add(data["image"]["src"])
        elif element["type"] == "quote":
            found.add(element["attribution"]["thumbnail"])
        elif element["type"] in ("link", "video"):
            found.add(data[element["type"]]["thumbnail"])
    return found


def test_every_picture_of_the_demo_is_served_by_the_web_host(demo: Service) -> None:
    app = HttpApp(demo)
    addresses = _addresses(demo)
    assert all(address.startswith(f"{WEB_URL}/static/demo/") for address in addresses)
    answers = {
        address: app.handle(HttpRequest("GET", address.removeprefix(WEB_URL), root_path="/site"))
        for address in addresses
    }
    assert {
        a: (r.status, dict(r.headers)["Content-Type"]) for a, r in answers.items()
    } == dict.fromkeys(addresses, (200, "image/webp"))


def test_the_demo_shows_eight_to_fifteen_pictures_with_their_size_and_caption(
    demo: Service,
) -> None:
    images = [element["data"]["image"] for element in _of_type(demo, "image")]
    assert 8 <= len({image["src"] for image in images}) <= 15
    assert all(image["width"] > 0 and image["height"] > 0 and image["caption"] for image in images)


def test_every_quote_has_its_text_author_avatar_network_and_time(demo: Service) -> None:
    quotes = _of_type(demo, "quote")
    assert quotes
    for quote in quotes:
        who = quote["attribution"]
        assert quote["data"]["quote"]["text"]
        assert all(who[member] for member in ("name", "username", "thumbnail", "href"))
        assert quote["source"]["name"] in ("socialA", "socialB")
        assert quote["posted_at"]


def test_every_video_has_a_poster_and_a_title_and_is_a_youtube_address(demo: Service) -> None:
    videos = _of_type(demo, "video")
    assert videos
    for video in videos:
        assert YOUTUBE.fullmatch(video["permalink"])
        assert video["data"]["video"]["title"]
        assert video["data"]["video"]["thumbnail"]


def test_every_link_card_has_a_title_description_and_thumbnail(demo: Service) -> None:
    links = [element["data"]["link"] for element in _of_type(demo, "link")]
    assert links
    assert all(link["title"] and link["description"] and link["thumbnail"] for link in links)


def test_every_demo_user_has_an_avatar_a_website_and_a_bio(demo: Service) -> None:
    for user in _users(demo):
        assert user.avatar.startswith(f"{WEB_URL}/static/demo/")
        assert user.website.startswith("https://")
        assert user.bio


def test_without_a_web_url_the_demo_uses_the_one_it_is_given() -> None:
    with Service(open_store("memory://"), TEST_SETTINGS) as service:
        load_demo(service, stories=1, web_url="http://127.0.0.1:9999")
        assert _addresses(service)
        assert all(a.startswith("http://127.0.0.1:9999/static/demo/") for a in _addresses(service))


def test_the_demo_uses_the_services_web_url_by_default() -> None:
    with Service(open_store("memory://"), Settings(password_cost=2**4)) as service:
        load_demo(service, stories=1)
        assert all(a.startswith(f"{service.web_url}/static/demo/") for a in _addresses(service))


# -- stories that read as written by people ---------------------------------------------------

#: The demo's places, by name: each has its picture (``{key}.webp``) and two quoted accounts.
PLACES = {
    "Porto": "porto",
    "Kyoto": "kyoto",
    "Oaxaca": "oaxaca",
    "Tromsø": "tromso",
    "Marrakesh": "marrakesh",
    "Tbilisi": "tbilisi",
    "Valparaíso": "valparaiso",
    "Hanoi": "hanoi",
}
#: The hashtags a story of each topic may carry, besides its place's (``porto``).
TOPIC_TAGS = {
    "travel": {"travel", "trains", "walking", "coast", "ferries", "river", "mountains",
               "oldtown", "winter", "desert", "islands", "slowtravel"},
    "science": {"science", "astronomy", "comets", "aurora", "tides", "fog", "lichen", "moss",
                "geology", "glaciers", "weather", "ocean", "earthquakes", "springs", "monsoon",
                "birds"},
    "food": {"food", "tea", "coffee", "markets", "fish", "bread", "spices", "wine", "mezcal",
             "chocolate", "noodles", "streetfood", "cheese"},
    "music": {"music", "jazz", "fado", "folk", "choir", "concerts", "festival", "brass",
              "gnawa", "vinyl"},
    "sport": {"sport", "cycling", "running", "rowing", "football", "skiing", "surfing",
              "sailing", "rugby", "marathon", "badminton", "swimming"},
}  # fmt: skip
#: The poster of a video of each topic that has videos: what it shows.
POSTERS = {"music": "poster-stage.webp", "travel": "poster-journey.webp"}


def _place(story: StoryDetail) -> str:
    """The one place of the demo that ``story``'s title names."""
    (name,) = [name for name in PLACES if name in story.title]
    return name


def _picture(address: str) -> str:
    return address.rsplit("/", 1)[-1]


def test_no_two_demo_stories_share_a_title(demo: Service) -> None:
    titles = [story.title for story, _ in _stories(demo)]
    assert len(titles) >= 45
    assert sorted(titles) == sorted(set(titles))


def test_every_story_is_filed_under_one_topic_and_its_title_names_one_place(
    demo: Service,
) -> None:
    for story, record in _stories(demo):
        assert len(record.topics) == 1, story.title
        assert record.topics[0] in TOPIC_TAGS, story.title
        assert _place(story)


def test_each_story_names_its_place_in_its_description_or_first_text(demo: Service) -> None:
    for story, _ in _stories(demo):
        first = next(e.model_dump() for e in story.elements if e.type == "text")
        words = story.description + " " + plain_text(first["data"]["text"])
        assert _place(story) in words, story.title


def test_no_story_has_a_hashtag_its_topic_does_not_use(demo: Service) -> None:
    """Its hashtags, given or written in its title, description and text: a food story is
    not tagged #cycling."""
    for story, record in _stories(demo):
        allowed = TOPIC_TAGS[record.topics[0]] | {PLACES[_place(story)]}
        assert record.tags, story.title
        assert set(record.tags) <= allowed, (story.title, set(record.tags) - allowed)


def test_each_story_shows_the_picture_of_its_place_or_its_topic(demo: Service) -> None:
    """Its thumbnail (its first picture) and every picture in it show its place or its
    topic; its link cards have its topic's picture, its videos its topic's poster."""
    for story, record in _stories(demo):
        topic, place = record.topics[0], PLACES[_place(story)]
        assert _picture(story.thumbnail) in {f"{place}.webp", f"{topic}.webp"}, story.title
        for element in (e.model_dump() for e in story.elements):
            data = element["data"]
            if element["type"] == "image":
                assert _picture(data["image"]["src"]) in {f"{place}.webp", f"{topic}.webp"}
            elif element["type"] == "link":
                assert _picture(data["link"]["thumbnail"]) == f"{topic}.webp", story.title
            elif element["type"] == "video":
                assert _picture(data["video"]["thumbnail"]) == POSTERS[topic], story.title


def test_each_story_quotes_the_accounts_of_its_place(demo: Service) -> None:
    for story, _ in _stories(demo):
        place = PLACES[_place(story)]
        for element in (e.model_dump() for e in story.elements):
            if element["type"] == "quote":
                assert element["attribution"]["username"].startswith(place), story.title
                assert _picture(element["attribution"]["thumbnail"]).startswith(f"avatar-{place}-")


def test_the_demo_holds_drafts_private_and_featured_stories_of_every_kind_and_topic(
    demo: Service,
) -> None:
    records = [record for _, record in _stories(demo)]
    kinds = {kind for record in records for kind in record.element_counts}
    assert kinds == {"text", "quote", "image", "video", "link", "other"}
    assert {record.topics[0] for record in records} == set(TOPIC_TAGS)
    assert any(record.status == "working" for record in records)
    assert any(record.private and record.status == "published" for record in records)
    assert any(record.featured_at and record.is_public for record in records)


# -- pictures wherever the demo is served ---------------------------------------------------

#: The address the demo is served at in the tests below: not the one it was loaded at.
SERVED_AT = "http://127.0.0.1:9000"
_IMG = re.compile(r'<img\b[^>]*\bsrc="([^"]*)"')


def _pictures_of_pages(app: HttpApp, headers: list[tuple[str, str]]) -> list[str]:
    """The ``<img src>`` of alice's story pages, her author page and the front page."""
    service = app.service
    alice = service.accounts.as_user("alice")
    slugs = [story.slug for story in service.catalog.user("alice", viewer=alice).items]
    pages = ["/", "/alice", *(f"/alice/{slug}" for slug in slugs)]
    found = []
    for path in pages:
        answer = app.handle(HttpRequest("GET", path, headers=headers))
        assert answer.status == 200, path
        found += _IMG.findall(answer.body.decode())
    return found


def test_the_pages_show_the_demo_pictures_from_the_address_they_are_served_at() -> None:
    with Service(open_store("memory://"), TEST_SETTINGS) as service:
        load_demo(service, stories=6)  # as `storycore demo` loads it, with no web url set
        pictures = _pictures_of_pages(HttpApp(service), [("host", "127.0.0.1:9000")])
    assert pictures
    assert [p for p in pictures if not p.startswith(f"{SERVED_AT}/static/demo/")] == []


def test_the_pages_show_the_demo_pictures_from_the_web_url_they_are_served_at() -> None:
    store = open_store("memory://")
    with Service(store, TEST_SETTINGS) as service:
        load_demo(service, stories=6, web_url="http://127.0.0.1:8123")  # serve --demo --port
        served = Service(store, TEST_SETTINGS.model_copy(update={"web_url": WEB_URL}))
        pictures = _pictures_of_pages(HttpApp(served), [])
    assert pictures
    assert [p for p in pictures if not p.startswith(f"{WEB_URL}/static/demo/")] == []
