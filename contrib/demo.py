"""A small, realistic demo data set: five users (one enterprise, one editor, one curator) and
about fifty stories using every element type, with topics, hashtags, drafts and private ones.

It is made through the service like any host application would, so it obeys every rule.
"""

from __future__ import annotations

import random
from typing import Any

from storycore.service import Service
from storycore.slugs import derive_slug, next_free_slug

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


def _elements(rng: random.Random, story: int, topic: str, place: str) -> list[Any]:
    place_key = place.lower().encode("ascii", "ignore").decode()
    elements: list[Any] = [
        {
            "type": "text",
            "data": {"text": f"<p>{rng.choice(_LINES)} <b>{place}</b> #{topic}</p>"},
        },
        f"https://socialA.example/{place_key}news/status/{1000 + story}",
        {
            "type": "image",
            "permalink": f"https://photos.example/{place_key}/{story}.jpg",
            "data": {
                "image": {
                    "src": f"https://photos.example/{place_key}/{story}.jpg",
                    "caption": f"{place} at dusk",
                    "width": 1200,
                    "height": 800,
                }
            },
        },
        {
            "type": "quote",
            "permalink": f"https://socialB.example/{place_key}_voices/posts/{story}",
            "source": {"name": "socialB", "href": "https://socialB.example"},
            "attribution": {
                "name": f"{place} Voices",
                "username": f"{place_key}_voices",
                "href": f"https://socialB.example/{place_key}_voices",
            },
            "data": {"quote": {"text": rng.choice(_LINES)}},
        },
        {
            "type": "link",
            "permalink": f"https://news.example/{topic}/{story}",
            "data": {
                "link": {
                    "title": f"More on {topic} in {place}",
                    "description": rng.choice(_LINES),
                    "thumbnail": "",
                }
            },
        },
    ]
    if story % 3 == 0:
        elements.append(f"https://www.youtube.com/watch?v=demo{story}")
    if story % 5 == 0:
        elements.append({"type": "other", "permalink": f"https://maps.example/{place_key}"})
    return elements


def load_demo(service: Service, *, stories: int = 50, seed: int = 2026) -> int:
    """Make the demo users and stories; returns how many stories were made.

    Users get the password ``demo-password``. Existing users are left alone, and so is a demo
    story its author already has: each goes at the slug its title gives on an empty store, so
    loading the demo again changes nothing (decisions section 21).
    """
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
                website=f"https://{username}.example",
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
            "elements": _elements(rng, number, topic, place),
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
