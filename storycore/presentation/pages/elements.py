"""The one renderer of a story's elements (docs/api.md#the-web-host): each element kind has its
partial (``templates/partials/element_{type}.html``), and the story page and the embed insert
the same markup, with the class names of docs/api.md#the-web-host (``s-elements``,
``s-element s-element-{type}``).

An element becomes a view here (``ElementView``): what its partial shows, worked out once in
Python (a quote's author, an image's description, a video's player, a link's host, where each
picture is shown from: ``Site.picture``), so the partials only place text. Every string
reaches the markup escaped; the one exception is the text element's HTML, sanitized again here
and given its hashtag links (``text``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup

from ...model.records import Element
from ...rules.sanitize import sanitize_html
from ...rules.video_players import player_for
from .environment import environment
from .site import Site
from .text import linked_hashtags_html

__all__ = ["ElementView", "element_view", "render_elements", "render_views"]


@dataclass(frozen=True, slots=True)
class ElementView:
    """What an element's partial shows. Members a kind does not have are empty."""

    type: str
    id: str
    permalink: str = ""
    html: Markup = field(default_factory=Markup)
    text: str = ""
    title: str = ""
    description: str = ""
    src: str = ""
    image: str = ""
    #: the widths ``src`` (an image), ``image`` (a video's or a link's thumbnail) or ``avatar``
    #: (a quote's author) comes in: ``Site.srcset``
    srcset: str = ""
    width: int = 0
    height: int = 0
    caption: str = ""
    alt: str = ""
    player: str = ""
    host: str = ""
    path: str = ""
    author_name: str = ""
    author_username: str = ""
    author_href: str = ""
    avatar: str = ""
    network: str = ""
    posted_at: str = ""


def _member(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = data.get(name)
    return value if isinstance(value, Mapping) else {}


def _text(mapping: Mapping[str, Any] | None, name: str) -> str:
    value = None if mapping is None else mapping.get(name)
    return value if isinstance(value, str) else ""


def _size(mapping: Mapping[str, Any], name: str) -> int:
    value = mapping.get(name)
    return value if isinstance(value, int) and value > 0 else 0


def _host_and_path(address: str) -> tuple[str, str]:
    parts = urlsplit(address)
    host = (parts.hostname or "").removeprefix("www.")
    return host, parts.path if parts.path not in ("", "/") else ""


def element_view(element: Element, site: Site) -> ElementView:
    """The view of ``element`` on ``site``'s pages."""
    data: Mapping[str, Any] = element.data if isinstance(element.data, Mapping) else {}
    permalink = element.permalink or ""
    source = element.source.model_dump() if element.source is not None else None
    attribution = element.attribution.model_dump() if element.attribution is not None else None
    if element.type == "text":
        html = sanitize_html(_text(data, "text"))
        return ElementView("text", element.id, html=linked_hashtags_html(html, site.tag))
    if element.type == "quote":
        host, path = _host_and_path(permalink)
        return ElementView(
            "quote",
            element.id,
            permalink=permalink,
            text=_text(_member(data, "quote"), "text"),
            author_name=_text(attribution, "name"),
            author_username=_text(attribution, "username") or _text(source, "username"),
            author_href=_text(attribution, "href"),
            avatar=site.picture(_text(attribution, "thumbnail")),
            srcset=site.srcset(_text(attribution, "thumbnail")),
            network=_text(source, "name") or host,
            posted_at=element.posted_at or "",
            host=host,
            path=path,
        )
    if element.type == "image":
        image = _member(data, "image")
        src = _text(image, "src")
        host, path = _host_and_path(src)
        caption = _text(image, "caption")
        width, height = site.picture_size(src) or (_size(image, "width"), _size(image, "height"))
        return ElementView(
            "image",
            element.id,
            permalink=permalink,
            src=site.picture(src),
            srcset=site.srcset(src),
            width=width,
            height=height,
            caption=caption,
            alt=caption or (f"An image from {host}" if host else "An image"),
            host=host,
        )
    if element.type == "video":
        video = _member(data, "video")
        src = _text(video, "src") or permalink
        host, path = _host_and_path(src)
        return ElementView(
            "video",
            element.id,
            permalink=permalink,
            src=src,
            title=_text(video, "title"),
            image=site.picture(_text(video, "thumbnail")),
            srcset=site.srcset(_text(video, "thumbnail")),
            player=player_for(site.players, src) or "",
            host=host,
            path=path,
        )
    if element.type == "link":
        link = _member(data, "link")
        host, path = _host_and_path(permalink)
        return ElementView(
            "link",
            element.id,
            permalink=permalink,
            title=_text(link, "title"),
            description=_text(link, "description"),
            image=site.picture(_text(link, "thumbnail")),
            srcset=site.srcset(_text(link, "thumbnail")),
            network=_text(source, "name"),
            host=host,
            path=path,
        )
    host, path = _host_and_path(permalink)
    return ElementView("other", element.id, permalink=permalink, host=host, path=path)


def render_elements(elements: Sequence[Element], site: Site) -> Markup:
    """The markup of ``elements``: one ``div.s-elements`` holding each element's partial."""
    return render_views([element_view(element, site) for element in elements])


def render_views(views: Sequence[ElementView]) -> Markup:
    """The markup of elements already made views (``element_view``)."""
    template = environment().get_template("partials/elements.html")
    return Markup(template.render(elements=views))  # noqa: S704 - autoescaped
