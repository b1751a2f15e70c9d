"""A small, realistic demo data set: five users (one enterprise, one editor, one curator) and
fifty stories written by hand (``_demo_stories``) using every element type, with topics,
hashtags, drafts, private and featured ones, on a site named ``SITE_NAME``.

It reads as a real site (docs/decisions.md#command-line): each story is about one place and one
topic, its words, hashtags, picture, quoted posts, link card and video about them, and no two
stories share a title. It looks like one offline: its pictures, link thumbnails, video posters
and avatars are files storycore ships and serves itself under ``/static/demo/``; quotes carry
their text, author, avatar and time; link cards their title, description and thumbnail. It is
made through the service like any host application would, so it obeys every rule.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from storycore.http.static import demo_file, demo_url
from storycore.presentation import own_pictures
from storycore.rules.slugs import derive_slug
from storycore.rules.timestamps import format_timestamp
from storycore.service import Service

from ._demo_stories import PLACES, POSTERS, STORIES, DemoStory

__all__ = ["SITE_NAME", "load_demo"]

DEMO_PASSWORD = "demo-password"  # noqa: S105 - a documented demo password
#: The demo site's name, fitting its writers (a harbour-town reporter, a science desk, food
#: and travel notebooks): ``serve --demo`` names its site so when no name is given.
SITE_NAME = "Harbour Notes"

_USERS: tuple[tuple[str, str, str, str, str, dict[str, bool]], ...] = (
    ("alice", "Alice Martin", "Harbour town reporter.", "Lisbon", "enterprise", {}),
    ("bruno", "Bruno Keller", "Science desk. Slow news, good news.", "Zürich", "free", {}),
    ("chloe", "Chloé Dubois", "Food and travel notebooks.", "Lyon", "free", {}),
    ("dev_ed", "Edwin Park", "Editor on duty.", "Seoul", "free", {"editor": True}),
    ("curator", "Mina Okafor", "Picks the front page.", "Lagos", "free", {"can_feature": True}),
)
_DEMO_DAY = datetime(2026, 3, 1, 8, tzinfo=UTC)  # around when the quoted posts were posted


class _Pictures:
    """The addresses of the demo's files on the web host at ``web_url``."""

    def __init__(self, web_url: str) -> None:
        self.web_url = web_url

    def url(self, name: str) -> str:
        demo_file(name)  # a name the package does not ship is a KeyError here, not a dead link
        return demo_url(self.web_url, name)

    def image(self, name: str, caption: str) -> dict[str, Any]:
        width, height = own_pictures.picture_size(name)
        return {"src": self.url(name), "caption": caption, "width": width, "height": height}


#: The two accounts of each place whose posts the stories quote, by network: the account's
#: username and name, the path of its posts, and its avatar (``avatar-{place}-{kind}.webp``).
_ACCOUNTS = {
    "socialA": ("{key}news", "{name} News", "status", "news"),
    "socialB": ("{key}_voices", "{name} Voices", "posts", "voices"),
}


def _quote(
    network: str, story: DemoStory, text: str, posted: datetime, number: int, pictures: _Pictures
) -> dict[str, Any]:
    """The post ``text`` of ``story``'s place's account on ``network``, quoted."""
    place = PLACES[story.place]
    username, name, path, kind = (
        part.format(key=story.place, name=place.name) for part in _ACCOUNTS[network]
    )
    home = f"https://{network}.example"
    return {
        "type": "quote",
        "permalink": f"{home}/{username}/{path}/{1000 + number}",
        "source": {"name": network, "href": home, "username": username},
        "attribution": {
            "name": name,
            "username": username,
            "href": f"{home}/{username}",
            "thumbnail": pictures.url(f"avatar-{story.place}-{kind}.webp"),
        },
        "data": {"quote": {"text": text}},
        "posted_at": format_timestamp(posted),
    }


def _elements(number: int, story: DemoStory, pictures: _Pictures) -> list[Any]:
    """The elements of the demo's story ``number``, in the order a writer would put them: its
    picture (first, so that its page opens with it and shows it once: docs/api.md, "The lead
    picture"), its text, the place's news, a voice of the place, a link, a video, a map."""
    place = PLACES[story.place]
    picture = f"{story.place}.webp" if story.picture == "place" else f"{story.topic}.webp"
    caption = story.caption or place.caption
    paragraphs = "".join(f"<p>{paragraph}</p>" for paragraph in story.text)
    elements: list[Any] = [
        {
            "type": "image",
            "permalink": pictures.url(picture),
            "data": {"image": pictures.image(picture, caption)},
        },
        {"type": "text", "data": {"text": paragraphs}},
    ]
    posted = _DEMO_DAY + timedelta(days=number, minutes=37 * number % 600)
    if story.news:
        elements.append(_quote("socialA", story, story.news, posted, number, pictures))
    if story.voice:
        later = posted + timedelta(minutes=90)
        elements.append(_quote("socialB", story, story.voice, later, number, pictures))
    if story.link is not None:
        title, description = story.link
        elements.append(
            {
                "type": "link",
                "permalink": f"https://news.example/{story.topic}/{derive_slug(title)}",
                "source": {"name": "News Example", "href": "https://news.example"},
                "data": {
                    "link": {
                        "title": title,
                        "description": description,
                        "thumbnail": pictures.url(f"{story.topic}.webp"),
                    }
                },
            }
        )
    if story.video:
        address = f"https://www.youtube.com/watch?v=demo{number:07d}"
        elements.append(
            {
                "type": "video",
                "permalink": address,
                "source": {"name": "YouTube", "href": "https://www.youtube.com"},
                "data": {
                    "video": {
                        "src": address,
                        "title": story.video,
                        "thumbnail": pictures.url(POSTERS[story.topic]),
                    }
                },
            }
        )
    if story.map:
        elements.append({"type": "other", "permalink": f"https://maps.example/{story.place}"})
    return elements


def load_demo(service: Service, *, stories: int = len(STORIES), web_url: str | None = None) -> int:
    """Make the demo users and its first ``stories`` stories (all of them by default: about
    fifty, written by hand in ``_demo_stories``); returns how many stories were made.

    Users get the password ``demo-password``; ``dev_ed`` is an editor and ``curator`` may
    feature stories. Existing users are left alone, and so is a demo story its author already
    has: each goes at the slug its title gives, so loading the demo again changes nothing
    (docs/decisions.md#command-line).

    Pictures and avatars are stored as addresses on the web host at ``web_url``, by default the
    service's own (``Settings.web_url``, else ``DEFAULT_WEB_URL``; ``serve --demo`` passes the
    address it listens on when no web address is set). Addresses on a loopback host the pages
    show from whatever address serves them (``storycore.rules.own_files``): the demo's
    pictures load wherever the store is served.
    """
    pictures = _Pictures(web_url or service.web_url)
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
    curator = service.accounts.as_user("curator")
    made = 0
    for number, story in enumerate(STORIES[:stories]):
        viewer = service.accounts.as_user(story.author)
        assert viewer.user is not None
        slug = derive_slug(story.title)
        if service.store.stories.taken_slugs(viewer.user.id, [slug]):
            continue  # loaded before
        sent = {
            "title": story.title,
            "slug": slug,
            "description": story.description,
            "elements": _elements(number, story, pictures),
            "topics": [story.topic],
            "hashtags": [story.place, *story.hashtags],
            "private": story.private,
        }
        service.stories.create(story.author, sent, viewer=viewer, publish=not story.draft)
        made += 1
        if story.featured:
            service.stories.feature(story.author, slug, viewer=curator)
    return made
