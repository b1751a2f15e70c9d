"""The answers both floors build (``floors.py`` on SQLite, ``pg_floor.py`` on PostgreSQL), by
hand, with ``orjson``: the same bytes storycore's HTTP layer sends, from the rows each floor
reads. One copy, so both floors answer alike and a change of the interface is made once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson

__all__ = ["Fragment", "answer", "full", "new_stats", "page", "profile", "summary"]

Fragment = orjson.Fragment
_PROFILE = ("username", "name", "bio", "location", "website", "avatar")


def profile(user: Mapping[str, Any]) -> dict[str, Any]:
    """A user's public profile, from their record."""
    return {key: user[key] for key in _PROFILE}


def summary(story: Mapping[str, Any], author: Mapping[str, Any]) -> dict[str, Any]:
    """A story in a list (and the head of a story read), from its record's members."""
    return {
        "id": story["id"],
        "title": story["title"],
        "slug": story["slug"],
        "description": story["description"] or "",
        "thumbnail": story["thumbnail"] or story["cover"],
        "created": story["created"],
        "updated": story["updated"],
        "status": story["status"],
        "private": story["private"],
        "author": profile(author),
    }


def answer(content: Any) -> bytes:
    """The envelope of every successful answer."""
    return orjson.dumps({"content": content, "code": 200})


def page(number: int, stories: list[Any]) -> bytes:
    """One page of a list (20 a page)."""
    return answer({"page": number, "per_page": 20, "stories": stories})


def new_stats(author_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Each author's stats before their public stories are counted: an author without any."""
    return {
        author: {"stories": 0, "views": 0, "embeds": 0, "last": None, "featured": None, "ids": []}
        for author in author_ids
    }


def full(
    row: Sequence[Any],
    user: Mapping[str, Any],
    stats: Mapping[str, Any],
    embeds: Mapping[str, list[dict[str, Any]]],
    web_url: str,
) -> dict[str, Any]:
    """A story in the full shape (search answers it): ``row`` is its record's JSON and its
    counters, ``(record, views, likes, comments, element_comments, popularity, ...)``;
    ``stats`` its author's (``new_stats``), ``embeds`` the pages of each story of the answer.
    """
    story = orjson.loads(row[0])
    username = user["username"]
    return {
        "sid": story["id"],
        "title": story["title"],
        "slug": story["slug"],
        "status": story["status"],
        "version": story["version"],
        "permalink": f"{web_url}/{username}/{story['slug']}",
        "shortlink": f"{web_url}/s/{story['id']}",
        "publish_at": story["publish_at"],
        "description": story["description"],
        "thumbnail": story["thumbnail"] or story["cover"],
        "date": {"created": story["created"], "modified": story["updated"],
                 "published": story["published"]},
        "private": story["private"],
        "topics": story["topics"],
        "siteposts": [],
        "meta": {"quoted": story["quoted"], "hashtags": story["tags"],
                 "created_with": story["created_with"]},
        "stats": {"popularity": row[5], "views": row[1], "likes": row[2], "comments": row[3],
                  "elementComments": row[4], "embeds": embeds.get(story["id"], []),
                  "elements": story["element_counts"]},
        "modified": story["modified"],
        "deleted": False,
        "author": {
            "username": username, "_access": 1 if user["editor"] else 0, "name": user["name"],
            "bio": user["bio"], "location": user["location"], "website": user["website"],
            "avatar": user["avatar"], "permalink": f"{web_url}/{username}",
            "lang": user["lang"], "settings": user["settings"],
            "stats": {"views": stats["views"], "subscriptions": 0, "subscribers": 0,
                      "stories": stats["stories"], "embeds": stats["embeds"]},
            "date": {"updated": user["updated"], "last_story": stats["last"],
                     "last_seen": user["last_seen"], "last_email": None,
                     "featured": stats["featured"], "created": user["created"]},
            "coverPhoto": user["cover_photo"], "canFeatureStories": user["can_feature"],
            "featuredStories": stats["ids"],
        },
        "canEdit": False,
    }  # fmt: skip
