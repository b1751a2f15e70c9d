"""Strategies of addresses and elements: permalink strings and element objects of each type."""

from __future__ import annotations

import functools
import string
from collections.abc import Callable
from typing import Any, Final, Literal

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from storycore.model.element_kinds import ELEMENT_TYPES, ElementType
from storycore.settings import (
    DEFAULT_IMAGE_EXTENSIONS,
    DEFAULT_NETWORKS,
    DEFAULT_VIDEO_HOSTS,
    Limits,
)

from ._names import any_case
from ._narrowing import Absent, narrowed, optional, present
from ._text import plain_text, text_html
from ._times import timestamps
from .rules import is_http_url

__all__ = [
    "ELEMENT_KINDS",
    "PERMALINK_KINDS",
    "ElementKind",
    "PermalinkKind",
    "element_ids",
    "element_objects",
    "elements",
    "invalid_addresses",
    "permalinks",
]

LIMITS: Final = Limits()
PermalinkKind = Literal["quote", "image", "video", "link"]
PERMALINK_KINDS: Final[tuple[PermalinkKind, ...]] = ("quote", "image", "video", "link")
ElementKind = ElementType  # the core's element types
ELEMENT_KINDS: Final[tuple[ElementKind, ...]] = ELEMENT_TYPES

_LOWER_DIGITS = string.ascii_lowercase + string.digits
_WORD_CHARS = string.ascii_letters + string.digits + "_"


def _host_label() -> SearchStrategy[str]:
    return st.text(string.ascii_lowercase, min_size=1, max_size=8)


def _path_words(chars: str = _LOWER_DIGITS) -> SearchStrategy[str]:
    return st.lists(st.text(chars, min_size=1, max_size=8), min_size=1, max_size=3).map("/".join)


def _scheme() -> SearchStrategy[str]:
    return st.sampled_from(["https", "http", "HTTPS"])


def _quote_permalinks() -> SearchStrategy[str]:
    social_a, social_b = DEFAULT_NETWORKS
    a_hosts = st.sampled_from([*social_a.hosts, "socialA.example"])
    b_hosts = st.sampled_from([*social_b.hosts, "socialB.example"])
    a_user = st.text(_WORD_CHARS, min_size=1, max_size=15)
    b_user = st.text(_WORD_CHARS + ".", min_size=1, max_size=15)
    a_post = st.builds(
        "{}://{}/{}/status/{}".format,
        _scheme(),
        a_hosts,
        a_user,
        st.integers(min_value=1, max_value=10**18),
    )
    b_post = st.builds(
        "{}://{}/{}/posts/{}".format,
        _scheme(),
        b_hosts,
        b_user,
        st.text(_WORD_CHARS + "-", min_size=1, max_size=20),
    )
    return a_post | b_post


def _image_permalinks() -> SearchStrategy[str]:
    extension = st.sampled_from(DEFAULT_IMAGE_EXTENSIONS).flatmap(any_case)
    return st.builds(
        "{}://{}.example/{}{}".format, _scheme(), _host_label(), _path_words(), extension
    )


def _video_permalinks() -> SearchStrategy[str]:
    video_id = st.text(_WORD_CHARS + "-", min_size=1, max_size=11)
    return st.builds(
        "{}://{}/watch?v={}".format, _scheme(), st.sampled_from(DEFAULT_VIDEO_HOSTS), video_id
    )


def _link_permalinks() -> SearchStrategy[str]:
    taken = {h.lower() for network in DEFAULT_NETWORKS for h in network.hosts}
    taken |= set(DEFAULT_VIDEO_HOSTS)
    host = _host_label().map(lambda label: f"{label}.example").filter(lambda h: h not in taken)
    query = st.sampled_from(["", "?a=1", "?q=x&page=2", "#top"])
    return st.builds("{}://{}/{}{}".format, _scheme(), host, _path_words(), query)


def permalinks(kind: PermalinkKind | None = None) -> SearchStrategy[str]:
    """Permalink strings as the ``elements`` of a story may hold them, each an http(s)
    address that the default resolver types as ``kind``: ``quote`` (a socialA or socialB
    post), ``image`` (an image file, extension in any case), ``video`` (a known video host)
    or ``link`` (anything else). Without ``kind``, any of them.
    """
    by_kind: dict[PermalinkKind, Callable[[], SearchStrategy[str]]] = {
        "quote": _quote_permalinks,
        "image": _image_permalinks,
        "video": _video_permalinks,
        "link": _link_permalinks,
    }
    if kind is not None:
        return by_kind[kind]()
    return st.one_of([make() for make in by_kind.values()])


def invalid_addresses(*, max_length: int = LIMITS.address) -> SearchStrategy[str]:
    """Addresses the service refuses where it wants an http(s) URL: other schemes
    (``javascript:``, ``data:``, ``ftp:``, ``mailto:``), relative or host-less addresses,
    white space, and addresses over the length limit. (A protocol-relative address with a host,
    ``//host/path``, is taken as https: docs/api.md#calls-and-answers.)
    """
    samples = st.sampled_from(
        [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "ftp://files.example/a.png",
            "mailto:alice@example.org",
            "/relative/path.png",
            "example.org/page",
            "http://",
            "https:///path",
            "https://exa mple.org/",
            "https://example.org/\n",
            "///path.png",
            "http://:80/",
        ]
    )
    too_long = st.just("https://example.org/" + "a" * max_length)
    return (
        (samples | too_long | st.text(max_size=30))
        .map(_as_taken)
        .filter(lambda taken: len(taken[1]) > max_length or not is_http_url(taken[1]))
        .map(lambda taken: taken[0])
    )


def _as_taken(url: str) -> tuple[str, str]:
    """``url`` and the address the service takes it as (a protocol-relative one as https)."""
    return url, f"https:{url}" if url.startswith("//") else url


def element_ids() -> SearchStrategy[str]:
    """Client-chosen element ids: 1 to 32 letters, digits, ``-`` or ``_``."""
    return st.text(_WORD_CHARS + "-", min_size=1, max_size=32)


def _element_data(kind: ElementKind) -> SearchStrategy[dict[str, Any]]:
    short = plain_text(max_size=40)
    if kind == "text":
        return st.fixed_dictionaries({"text": text_html()})
    if kind == "quote":
        return st.fixed_dictionaries({"quote": st.fixed_dictionaries({"text": short})})
    if kind == "link":
        return st.fixed_dictionaries(
            {
                "link": st.fixed_dictionaries(
                    {"title": short, "description": short},
                    optional={"thumbnail": permalinks("image")},
                )
            }
        )
    if kind == "image":
        size = st.integers(min_value=0, max_value=100_000)
        return st.fixed_dictionaries(
            {
                "image": st.fixed_dictionaries(
                    {"src": permalinks("image")},
                    optional={"caption": short, "width": size, "height": size},
                )
            }
        )
    if kind == "video":
        return st.fixed_dictionaries(
            {
                "video": st.fixed_dictionaries(
                    {"src": permalinks("video")},
                    optional={"title": short, "thumbnail": permalinks("image")},
                )
            }
        )
    return st.just({})


def element_objects(
    type: ElementKind | None = None,
    *,
    id: str | SearchStrategy[str] | Absent | None = None,
) -> SearchStrategy[dict[str, Any]]:
    """Valid element objects (docs/api.md#elements) of ``type``, or of any type: ``text`` with
    HTML, ``quote`` and ``link`` with a permalink, ``image`` and ``video`` with a ``src``,
    ``other``; optional ``source``, ``attribution`` and ``posted_at``. ``id`` is a
    client-chosen id, sometimes sent; narrow it with a value, a strategy or ``ABSENT``.
    """
    if type is None:
        return st.one_of([element_objects(kind, id=id) for kind in ELEMENT_KINDS])
    permalink: SearchStrategy[str | Absent]
    if type == "quote":
        permalink = permalinks("quote")
    elif type == "link":
        permalink = permalinks("link")
    else:
        permalink = optional(permalinks())
    source = st.fixed_dictionaries(
        {"name": st.sampled_from(["socialA", "socialB", "a site"])},
        optional={"href": permalinks("link"), "username": st.text(_WORD_CHARS, max_size=15)},
    )
    attribution = st.fixed_dictionaries(
        {},
        optional={
            "name": plain_text(max_size=30),
            "username": st.text(_WORD_CHARS, max_size=15),
            "href": permalinks("link"),
            "thumbnail": permalinks("image"),
        },
    )
    members = st.fixed_dictionaries(
        {
            "type": st.just(type),
            "id": narrowed(id, optional(element_ids())),
            "permalink": permalink,
            "data": _element_data(type),
            "source": optional(source),
            "attribution": optional(attribution),
            "posted_at": optional(timestamps()),
        }
    )
    return members.map(present)


@functools.cache
def _any_element() -> SearchStrategy[str | dict[str, Any]]:
    """A permalink or an element object of any type: built once, not at each draw of
    ``elements`` (building it anew is most of a draw's cost)."""
    return permalinks() | element_objects()


@st.composite
def elements(
    draw: st.DrawFn,
    *,
    min_size: int = 0,
    max_size: int = 5,
    items: SearchStrategy[str | dict[str, Any]] | None = None,
) -> list[str | dict[str, Any]]:
    """The ``elements`` member of a story: permalink strings and element objects mixed, with
    ids unique within the list (a repeated id is dropped from the later element).
    """
    chosen = draw(st.lists(items or _any_element(), min_size=min_size, max_size=max_size))
    seen: set[str] = set()
    result: list[str | dict[str, Any]] = []
    for item in chosen:
        if isinstance(item, dict) and "id" in item and item["id"] in seen:
            result.append({key: value for key, value in item.items() if key != "id"})
            continue
        if isinstance(item, dict) and "id" in item:
            seen.add(item["id"])
        result.append(item)
    return result
