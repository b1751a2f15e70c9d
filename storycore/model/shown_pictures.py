"""Which pictures a story or a profile shows (docs/media.md#how-pictures-are-kept): the
addresses storycore keeps a copy of. An image element's ``data.image.src``, a quote's (or any
element's) ``attribution.thumbnail``, a video's and a link's thumbnail, the story's
``thumbnail`` and a user's ``avatar``; only http(s) addresses, each once, in the order shown."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..rules.addresses import is_http_url
from .element_kinds import Element
from .records import StoryRecord, UserRecord

__all__ = ["element_pictures", "pictures", "story_pictures", "user_pictures"]

#: The member of ``data`` that holds each kind's picture, and the picture's key in it.
_DATA_PICTURES = {"image": ("image", "src"), "video": ("video", "thumbnail"),
                  "link": ("link", "thumbnail")}  # fmt: skip


def pictures(addresses: Iterable[str | None]) -> list[str]:
    """The http(s) addresses of ``addresses``, each once, in their order."""
    return list(dict.fromkeys(a for a in addresses if a and is_http_url(a)))


def element_pictures(element: Element) -> list[str]:
    """The pictures one element shows: its data's picture and its author's thumbnail."""
    found: list[str | None] = []
    where = _DATA_PICTURES.get(element.type)
    data = element.data
    if where is not None and isinstance(data, Mapping):
        member: Any = data.get(where[0])
        if isinstance(member, Mapping):
            found.append(_text(member.get(where[1])))
    if element.attribution is not None:
        found.append(_text(getattr(element.attribution, "thumbnail", None)))
    return pictures(found)


def story_pictures(story: StoryRecord, elements: Iterable[Element]) -> list[str]:
    """The pictures a story shows: its thumbnail, then its elements' in order."""
    return pictures([story.thumbnail, *(a for e in elements for a in element_pictures(e))])


def user_pictures(user: UserRecord) -> list[str]:
    """The pictures a profile shows: its avatar."""
    return pictures([user.avatar])


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
