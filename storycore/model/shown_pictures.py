"""Which pictures a story or a profile shows (docs/media.md#how-pictures-are-kept): the
addresses storycore keeps a copy of, each with the path of the member that holds it. An image
element's ``data.image.src``, a quote's (or any element's) ``attribution.thumbnail``, a video's
``data.video.thumbnail`` and a link's ``data.link.thumbnail``, the story's ``thumbnail`` and a
user's ``avatar``; only http(s) addresses, in the order shown.

The paths are what an answer's ``kept`` member is keyed by (docs/api.md#kept-pictures), and the
addresses what the keeper fetches: both are read from these pairs, written here once. An
element is read alike as a model and as the JSON object it is stored as (a page's element
documents, parsed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from .element_kinds import ELEMENT_TYPES, Element
from .records import Stored, StoryRecord, UserRecord

__all__ = [
    "Shown",
    "answer_shown",
    "element_pictures",
    "element_shown",
    "pictures",
    "story_pictures",
    "story_shown",
    "user_pictures",
    "user_shown",
]

#: A picture shown: the path of the member that holds it, and its address.
Shown = tuple[str, str]

#: The member of each kind of element that holds its picture.
_DATA_PICTURES = {"image": "data.image.src", "video": "data.video.thumbnail",
                  "link": "data.link.thumbnail"}  # fmt: skip
#: The member of any element that holds its author's picture.
_ATTRIBUTION = "attribution.thumbnail"
#: The paths of each kind's pictures, each with its names (an answer reads them for every
#: element it shows).
_PATHS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    kind: tuple(
        (path, tuple(path.split("."))) for path in (_DATA_PICTURES.get(kind), _ATTRIBUTION) if path
    )
    for kind in ELEMENT_TYPES
}


class _Story(Protocol):
    @property
    def thumbnail(self) -> str | None: ...
    @property
    def cover(self) -> str: ...


class _User(Protocol):
    @property
    def avatar(self) -> str: ...


def pictures(addresses: Iterable[str | None]) -> list[str]:
    """The http(s) addresses of ``addresses`` (as records store them: checked when written),
    each once, in their order."""
    return list(dict.fromkeys(a for a in addresses if a and a.startswith(_HTTP)))


def element_shown(element: Element | Mapping[str, Any]) -> list[Shown]:
    """The pictures one element (a model, or its stored JSON object parsed) shows, by path:
    its data's picture, then its author's thumbnail."""
    paths = _PATHS.get(_text(_member(element, "type")) or "", _PATHS["other"])
    return _http((path, _text(_at(element, names))) for path, names in paths)


def story_shown(story: _Story | Stored) -> list[Shown]:
    """The story's own picture, by path: its ``thumbnail`` as answers show it (the first
    image's, ``cover``, without one). ``story`` is a record or head, or a record's members."""
    if isinstance(story, dict):
        return _http([("thumbnail", story["thumbnail"] or story["cover"])])
    return _http([("thumbnail", story.thumbnail or story.cover)])


def user_shown(user: _User | Stored) -> list[Shown]:
    """The picture a profile shows, by path: its ``avatar``. ``user`` is a record or a
    profile, or a record's members."""
    return _http([("avatar", user["avatar"] if isinstance(user, dict) else user.avatar)])


def answer_shown(
    story: _Story | Stored | None,
    author: _User | Stored | None,
    elements: Iterable[Element | Mapping[str, Any]] = (),
) -> list[Shown]:
    """Every picture an answer about a story shows: the story's own, its author's avatar and
    its elements' (a page of them)."""
    shown = [*(story_shown(story) if story is not None else ()),
             *(user_shown(author) if author is not None else ())]  # fmt: skip
    shown.extend(pair for element in elements for pair in element_shown(element))
    return shown


def element_pictures(element: Element) -> list[str]:
    """The pictures one element shows: its data's picture and its author's thumbnail."""
    return pictures(address for _, address in element_shown(element))


def story_pictures(story: StoryRecord, elements: Iterable[Element]) -> list[str]:
    """The pictures a story shows: its thumbnail, then its elements' in order."""
    return pictures([story.thumbnail, *(a for e in elements for a in element_pictures(e))])


def user_pictures(user: UserRecord) -> list[str]:
    """The pictures a profile shows: its avatar."""
    return pictures(address for _, address in user_shown(user))


#: What an http(s) address starts with, as a write stores it (``rules.addresses``): a cheap
#: test for the pictures an answer shows, where an address no record holds finds nothing.
_HTTP = ("http://", "https://")


def _http(found: Iterable[tuple[str, str | None]]) -> list[Shown]:
    return [(path, address) for path, address in found if address and address.startswith(_HTTP)]


def _at(value: object, names: tuple[str, ...]) -> object:
    """The member at the path ``names`` of ``value``, through mappings and models alike."""
    for name in names:
        if value is None:
            return None
        value = value.get(name) if type(value) is dict else _member(value, name)
    return value


def _member(value: object, name: str) -> object:
    if isinstance(value, Mapping):
        return value.get(name)
    return getattr(value, name, None) if value is not None else None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
