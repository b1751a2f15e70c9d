"""The kinds of element (docs/api.md#elements), each written once: its ``type``, what its
``data`` holds and which members it requires.

``Element`` is a pydantic discriminated union of one class per kind, told apart by ``type``.
Validating a client's element object as ``Element`` is normalizing it
(``storycore.model.elements``): every member is read by the rules of ``member_types``
(``null`` is not sent, addresses are http(s), text HTML is sanitized) and members outside the
kind's shape are dropped. ``data`` is a plain dict typed per kind (a ``TypedDict``), so an
element rebuilt from storage holds its data as stored, and its JSON (``model_dump_json``) is
what was stored, byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny
from typing_extensions import TypedDict  # pydantic reads TypedDicts from it before Python 3.12

from ..input.member_types import (
    Address,
    ElementId,
    Html,
    LongText,
    Object,
    OptionalAddress,
    OptionalObject,
    OptionalTimestamp,
    RequiredAddress,
    ShortText,
    Size,
    Timestamp,
)

__all__ = [
    "DATA_TYPES",
    "ELEMENT_CLASSES",
    "ELEMENT_TYPES",
    "AnyElement",
    "Attribution",
    "Element",
    "ElementType",
    "Image",
    "ImageData",
    "ImageElement",
    "Link",
    "LinkData",
    "LinkElement",
    "OtherData",
    "OtherElement",
    "Quote",
    "QuoteData",
    "QuoteElement",
    "Source",
    "TextData",
    "TextElement",
    "Video",
    "VideoData",
    "VideoElement",
    "type_of_data",
]

ElementType = Literal["text", "quote", "image", "video", "link", "other"]
#: Every element type, in the order ``stats.elements`` counts them.
ELEMENT_TYPES: Final[tuple[ElementType, ...]] = get_args(ElementType)
#: The types whose ``data`` holds a member named after the type, in the order an element sent
#: without ``type`` is told one by its ``data`` (docs/api.md#calls-and-answers).
DATA_TYPES: Final[tuple[ElementType, ...]] = ("text", "quote", "image", "video", "link")


def type_of_data(data: object) -> ElementType | None:
    """The type ``data`` tells: the first of ``DATA_TYPES`` it holds a member of (``null``
    counts as not sent), or None."""
    if not isinstance(data, Mapping):
        return None
    return next((kind for kind in DATA_TYPES if data.get(kind) is not None), None)


class _Member(BaseModel):
    # a client's members outside the shape are dropped, not refused (decisions: elements)
    model_config = ConfigDict(extra="ignore")


class Source(_Member):
    """Where an element comes from: a network or a site."""

    name: ShortText = ""
    href: Address = ""
    username: ShortText = ""
    userid: ShortText = ""


class Attribution(_Member):
    """Who made an element's content."""

    name: ShortText = ""
    username: ShortText = ""
    href: Address = ""
    thumbnail: Address = ""


class TextData(TypedDict):
    """``data`` of a ``text`` element: HTML, sanitized to the allowlist."""

    text: Html


class Quote(TypedDict):
    """A quoted post: its text (empty until a resolver fetches it)."""

    text: LongText


class QuoteData(TypedDict):
    """``data`` of a ``quote`` element."""

    quote: Object[Quote]


class Image(TypedDict):
    """An image: its address, caption and size in pixels (0 when unknown)."""

    src: RequiredAddress
    caption: ShortText
    width: Size
    height: Size


class ImageData(TypedDict):
    """``data`` of an ``image`` element."""

    image: Object[Image]


class Video(TypedDict):
    """A video: its address, title and thumbnail."""

    src: RequiredAddress
    title: ShortText
    thumbnail: Address


class VideoData(TypedDict):
    """``data`` of a ``video`` element."""

    video: Object[Video]


class Link(TypedDict):
    """A linked page: its title, description and thumbnail."""

    title: ShortText
    description: ShortText
    thumbnail: Address


class LinkData(TypedDict):
    """``data`` of a ``link`` element."""

    link: Object[Link]


class OtherData(TypedDict):
    """``data`` of an ``other`` element: nothing."""


def _empty() -> Any:
    """An empty object, which validation fills with its members' defaults (``Object``)."""
    return {}


class _Element(_Member):
    """What every element has, its members in the order of its JSON."""

    id: ElementId = ""
    type: ElementType
    permalink: OptionalAddress = None
    source: OptionalObject[Source] = None
    attribution: OptionalObject[Attribution] = None
    data: object
    posted_at: OptionalTimestamp = None
    added_at: Timestamp = ""  # when the service adds it, if not sent (``normalize_elements``)


class TextElement(_Element):
    """Text written in the story."""

    type: Literal["text"] = "text"
    data: Object[TextData] = Field(default_factory=_empty)


class QuoteElement(_Element):
    """A post of a network, quoted: it needs its permalink."""

    type: Literal["quote"] = "quote"
    permalink: RequiredAddress
    data: Object[QuoteData] = Field(default_factory=_empty)


class ImageElement(_Element):
    """An image: it needs ``data.image.src``."""

    type: Literal["image"] = "image"
    data: Object[ImageData]


class VideoElement(_Element):
    """A video: it needs ``data.video.src``."""

    type: Literal["video"] = "video"
    data: Object[VideoData]


class LinkElement(_Element):
    """A linked page: it needs its permalink."""

    type: Literal["link"] = "link"
    permalink: RequiredAddress
    data: Object[LinkData] = Field(default_factory=_empty)


class OtherElement(_Element):
    """Anything else: it keeps no ``data``."""

    type: Literal["other"] = "other"
    data: Object[OtherData] = Field(default_factory=_empty)


#: An element of any kind, as a plain union (what ``type[...]`` and ``isinstance`` take).
AnyElement = TextElement | QuoteElement | ImageElement | VideoElement | LinkElement | OtherElement
#: One element of a story, of any kind, told apart by ``type``. Where it is a member of another
#: model, each element is written by its own class (``SerializeAsAny``): the same JSON at
#: about half the cost of the union's serializer.
Element = Annotated[AnyElement, Field(discriminator="type"), SerializeAsAny()]

#: The class of each element type.
ELEMENT_CLASSES: Final[Mapping[str, type[AnyElement]]] = {
    kind.model_fields["type"].default: kind for kind in get_args(AnyElement)
}
