"""A small, realistic demo data set: five users (one enterprise, one editor, one curator) and
about fifty stories using every element type, with topics, hashtags, drafts and private ones.

It looks like a real site offline (docs/decisions.md): its pictures, link thumbnails, video
posters and avatars are files storycore ships and serves itself under ``/static/demo/``; quotes
carry their text, author, avatar and time; link cards their title, description and thumbnail.
It is made through the service like any host application would, so it obeys every rule.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from storycore.http.static import demo_file, demo_url
from storycore.rules.slugs import derive_slug, next_free_slug
from storycore.rules.timestamps import format_timestamp
from storycore.service import Service

__all__ = ["load_demo"]

DEMO_PASSWORD = "demo-password"  # noqa: S105 - a documented demo password

_USERS: tuple[tuple[str, str, str, str, str, dict[str, bool]], ...] = (
    ("alice", "Alice Martin", "Harbour town reporter.", "Lisbon", "enterprise", {}),
    ("bruno", "Bruno Keller", "Science desk. Slow news, good news.", "Zürich", "free", {}),
    ("chloe", "Chloé Dubois", "Food and travel notebooks.", "Lyon", "free", {}),
    ("dev_ed", "Edwin Park", "Editor on duty.", "Seoul", "free", {"editor": True}),
    ("curator", "Mina Okafor", "Picks the front page.", "Lagos", "free", {"can_feature": True}),
)

_TOPICS = {
    "travel": ("Night train to {place}", "Three days in {place}", "Walking the coast of {place}"),
    "science": ("What the {thing} taught us", "A closer look at {thing}", "Why {thing} matters"),
    "food": ("The {thing} of {place}", "Cooking {thing} at home", "Markets of {place}"),
    "music": ("Live from {place}", "The sound of {thing}", "A night of {thing} in {place}"),
    "sport": ("Match day in {place}", "The return of {thing}", "Training with {thing}"),
}
_PLACES = ("Porto", "Kyoto", "Oaxaca", "Tromsø", "Marrakesh", "Tbilisi", "Valparaíso", "Hanoi")
_THINGS = ("comets", "sourdough", "tides", "jazz", "lichen", "cycling", "tea", "glaciers")
_LINES = (
    "The morning started grey and ended in gold.",
    "Nobody in the queue agreed on anything except the coffee.",
    "We counted forty boats before noon.",
    "The guide spoke three languages and laughed in all of them.",
    "By evening the square was full of music.",
    "Locals say the best view is from the old water tower.",
)
#: Each place's picture (``{key}.webp``), as its caption tells it.
_CAPTIONS = {
    "porto": "Boats waiting in the harbour fog under the bridge, Porto",
    "kyoto": "Evening sun over the hills and a pagoda, Kyoto",
    "oaxaca": "Cacti on the hills outside Oaxaca at dusk",
    "tromso": "Northern lights over the fjord, Tromsø",
    "marrakesh": "Snow on the Atlas behind the palms and walls of Marrakesh",
    "tbilisi": "The old town's lights below the fortress, Tbilisi",
    "valparaiso": "Sunset over the bay and the coloured houses of Valparaíso",
    "hanoi": "Rice terraces in the morning mist, north of Hanoi",
}
#: A second paragraph for a story's text.
_NOTES = (
    "We took the first train out and were there before the shops opened.",
    "Half the town seemed to be on the water; the other half was watching them.",
    "Ask for the daily special, and then ask where the cook buys the fish.",
    "The walk back took twice as long, because everyone stopped to talk.",
    "A storm was forecast all week. It never came, and nobody complained.",
)
#: What a place's news account posts (socialA).
_NEWS = (
    "Ferries on the river line run again from 10:00 after the morning fog. Expect short delays.",
    "Tonight: free concert on the main square from 21:00.\nBring a jacket, the wind is back.",
    "The old market in {place} reopens on Saturday after two years of works. Stalls open at 7.",
    "Road to the coast closed until 18:00 for the cycling race. Buses take the hill road.",
    "Clear skies tonight over {place}: the best chance this month to see the comet.",
    "Water tower viewpoint open late all week.\nLast entry 22:30.",
)
#: The title of a topic's link card; its picture is ``{topic}.webp``.
_LINK_TITLES = {
    "travel": "A slow guide to {place}",
    "science": "{Thing}: what we know so far",
    "food": "Where to eat in {place}",
    "music": "The venues of {place}, from cellars to stadiums",
    "sport": "The season ahead in {place}",
}
_DEMO_DAY = datetime(2026, 3, 1, 8, tzinfo=UTC)  # around when the quoted posts were posted


def _picture_size(name: str) -> tuple[int, int]:
    """The width and height in pixels of the demo picture ``name``, read from its WebP header
    (a lossy ``VP8`` or an extended ``VP8X`` file, as the drawing script writes them)."""
    data = demo_file(name)
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        raise ValueError(f"{name} is not a WebP file")
    if data[12:16] == b"VP8 ":  # the key frame's header: 14-bit width and height
        return (
            int.from_bytes(data[26:28], "little") & 0x3FFF,
            int.from_bytes(data[28:30], "little") & 0x3FFF,
        )
    if data[12:16] == b"VP8X":  # the canvas: 24-bit width and height, less one
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    raise ValueError(f"{name}: a WebP file of an unexpected kind")


class _Pictures:
    """The addresses of the demo's files on the web host at ``web_url``."""

    def __init__(self, web_url: str) -> None:
        self.web_url = web_url

    def url(self, name: str) -> str:
        demo_file(name)  # a name the package does not ship is a KeyError here, not a dead link
        return demo_url(self.web_url, name)

    def image(self, name: str, caption: str) -> dict[str, Any]:
        width, height = _picture_size(name)
        return {"src": self.url(name), "caption": caption, "width": width, "height": height}


def _elements(
    rng: random.Random, story: int, topic: str, place: str, thing: str, pictures: _Pictures
) -> list[Any]:
    """A story's elements. ``rng`` draws the three lines it drew before pictures came (so the
    demo's titles and slugs stay as they were); everything else comes from ``extra``."""
    extra = random.Random(f"demo:{story}")  # noqa: S311 - reproducible demo data, not secrets
    key = derive_slug(place).replace("-", "")
    posted = _DEMO_DAY + timedelta(days=story, minutes=extra.randrange(600))
    video_id = f"demo{story:07d}"
    elements: list[Any] = [
        {
            "type": "text",
            "data": {
                "text": f"<p>{rng.choice(_LINES)} <b>{place}</b> #{topic}</p>"
                f"<p>{extra.choice(_NOTES)}</p>"
            },
        },
        {
            "type": "quote",
            "permalink": f"https://socialA.example/{key}news/status/{1000 + story}",
            "source": {
                "name": "socialA",
                "href": "https://socialA.example",
                "username": f"{key}news",
            },
            "attribution": {
                "name": f"{place} News",
                "username": f"{key}news",
                "href": f"https://socialA.example/{key}news",
                "thumbnail": pictures.url(f"avatar-{key}-news.webp"),
            },
            "data": {"quote": {"text": extra.choice(_NEWS).format(place=place)}},
            "posted_at": format_timestamp(posted),
        },
        {
            "type": "image",
            "permalink": pictures.url(f"{key}.webp"),
            "data": {"image": pictures.image(f"{key}.webp", _CAPTIONS[key])},
        },
        {
            "type": "quote",
            "permalink": f"https://socialB.example/{key}_voices/posts/{story}",
            "source": {
                "name": "socialB",
                "href": "https://socialB.example",
                "username": f"{key}_voices",
            },
            "attribution": {
                "name": f"{place} Voices",
                "username": f"{key}_voices",
                "href": f"https://socialB.example/{key}_voices",
                "thumbnail": pictures.url(f"avatar-{key}-voices.webp"),
            },
            "data": {"quote": {"text": rng.choice(_LINES)}},
            "posted_at": format_timestamp(posted + timedelta(minutes=extra.randrange(30, 240))),
        },
        {
            "type": "link",
            "permalink": f"https://news.example/{topic}/{key}-{story}",
            "source": {"name": "News Example", "href": "https://news.example"},
            "data": {
                "link": {
                    "title": _LINK_TITLES[topic].format(place=place, Thing=thing.capitalize()),
                    "description": rng.choice(_LINES),
                    "thumbnail": pictures.url(f"{topic}.webp"),
                }
            },
        },
    ]
    if story % 3 == 0:
        title = (
            f"A night of {thing} in {place}, live"
            if topic == "music"
            else f"{place} from the train window"
        )
        poster = "poster-stage.webp" if topic == "music" else "poster-journey.webp"
        address = f"https://www.youtube.com/watch?v={video_id}"
        elements.append(
            {
                "type": "video",
                "permalink": address,
                "source": {"name": "YouTube", "href": "https://www.youtube.com"},
                "data": {
                    "video": {"src": address, "title": title, "thumbnail": pictures.url(poster)}
                },
            }
        )
    if story % 5 == 0:
        elements.append({"type": "other", "permalink": f"https://maps.example/{key}"})
    return elements


def load_demo(
    service: Service, *, stories: int = 50, seed: int = 2026, web_url: str | None = None
) -> int:
    """Make the demo users and stories; returns how many stories were made.

    Users get the password ``demo-password``. Existing users are left alone, and so is a demo
    story its author already has: each goes at the slug its title gives on an empty store, so
    loading the demo again changes nothing (docs/decisions.md#command-line).

    Pictures and avatars are stored as addresses on the web host at ``web_url``, by default the
    service's own (``Settings.web_url``, else ``DEFAULT_WEB_URL``; ``serve --demo`` passes the
    address it listens on when no web address is set). Addresses on a loopback host the pages
    show from whatever address serves them (``storycore.rules.own_files``): the demo's
    pictures load wherever the store is served.
    """
    pictures = _Pictures(web_url or service.web_url)
    rng = random.Random(seed)  # noqa: S311 - reproducible demo data, not secrets
    for username, name, bio, location, plan, roles in _USERS:
        if service.store.users.get_by_username(username) is None:
            service.accounts.create_user(
                username,
                DEMO_PASSWORD,
                name=name,
                bio=bio,
                location=location,
                plan=plan,
                website=f"https://{username.replace('_', '-')}.example",
                avatar=pictures.url(f"avatar-{username}.webp"),
                editor=roles.get("editor", False),
                can_feature=roles.get("can_feature", False),
            )
    authors = [u[0] for u in _USERS[:3]]
    curator = service.accounts.as_user("curator")
    slugs: dict[str, set[str]] = {author: set() for author in authors}
    made = 0
    for number in range(stories):
        author = authors[number % len(authors)]
        viewer = service.accounts.as_user(author)
        topic = rng.choice(sorted(_TOPICS))
        place, thing = rng.choice(_PLACES), rng.choice(_THINGS)
        title = rng.choice(_TOPICS[topic]).format(place=place, thing=thing)
        slug = next_free_slug(derive_slug(title), slugs[author])
        slugs[author].add(slug)
        story = {
            "title": title,
            "slug": slug,
            "description": f"{rng.choice(_LINES)} #{thing}",
            "elements": _elements(rng, number, topic, place, thing, pictures),
            "topics": [topic],
            "hashtags": [place.lower()],
            "private": number % 17 == 16,
        }
        assert viewer.user is not None
        if service.store.stories.taken_slugs(viewer.user.id, [slug]):
            continue  # loaded before
        created = service.stories.create(author, story, viewer=viewer, publish=number % 7 != 6)
        made += 1
        if created.status == "published" and not created.private and number % 6 == 0:
            service.stories.feature(author, created.slug, viewer=curator)
    return made
