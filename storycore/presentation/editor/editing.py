"""The story editor's page (docs/editor.md#the-editor): one form holding every member a save
takes, the version the page was made from, and the elements in order, each shown by the one
element renderer of the story page, with the buttons that move, remove and add elements; what
the newer version changed when a save met one; and the place of the publishing forms.

The HTTP layer (``storycore.http.editor.editing``) says what the form holds (``StoryFields``,
``ElementItem``s made by ``element_item``) and what went wrong (``Problems``); this renders it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from ...model.records import Element, element_of
from ..pages.elements import element_view, render_views
from ..pages.environment import environment
from ..pages.site import Site
from .element_names import element_name
from .frame import Desk, render_editor_page

__all__ = [
    "Conflict",
    "EditorLinks",
    "ElementItem",
    "Problems",
    "SourceItem",
    "StoryFields",
    "editor_page",
    "element_item",
]


@dataclass(frozen=True, slots=True)
class StoryFields:
    """The story's members as the form holds them: typed, or as stored. Topics and hashtags
    are comma-separated text."""

    title: str = ""
    description: str = ""
    thumbnail: str = ""
    topics: str = ""
    hashtags: str = ""
    private: bool = False


@dataclass(frozen=True, slots=True)
class ElementItem:
    """An element in the editor: its id, kind and name, its markup as the story page shows
    it (none for a text element, which is edited in place), the text (a text element's HTML)
    or caption (an image's) the form holds for it, and whether it came with the newer
    version of a conflict."""

    id: str
    type: str
    name: str
    markup: Markup
    text: str = ""
    caption: str = ""
    added_since: bool = False

    @property
    def needs_caption(self) -> bool:
        """An image without a caption: its description for those who cannot see it."""
        return self.type == "image" and not self.caption.strip()


def element_item(
    element: Element, site: Site, *, text: str | None = None, added_since: bool = False
) -> ElementItem:
    """The item of ``element``; ``text``: a text element's HTML as typed (else as stored)."""
    view = element_view(element, site)
    data: Mapping[str, Any] = element.data if isinstance(element.data, Mapping) else {}
    stored_text = data.get("text", "") if element.type == "text" else ""
    image = data.get("image", {}) if element.type == "image" else {}
    return ElementItem(
        id=element.id,
        type=element.type,
        name=element_name(view),
        markup=Markup() if element.type == "text" else _markup(site, element.model_dump_json()),
        text=text if text is not None else str(stored_text or ""),
        caption=str(image.get("caption", "") or "") if isinstance(image, Mapping) else "",
        added_since=added_since,
    )


#: The elements' markups ``_markup`` keeps: an editor shows the same elements page after page.
KEPT_MARKUPS = 1024


@lru_cache(maxsize=KEPT_MARKUPS)
def _markup(site: Site, document: str) -> Markup:
    """The markup of the element whose JSON is ``document``, rendered once for each element
    and site (a pure function of them, as a kept story page is)."""
    return render_views([element_view(element_of(document), site)])


@dataclass(frozen=True, slots=True)
class SourceItem:
    """A source found: the element, the story it is in (its title and address) and the key
    its Add button sends."""

    key: str
    item: ElementItem
    story_title: str
    story_url: str


@dataclass(frozen=True, slots=True)
class Problems:
    """What the service refused, by the id of the input it is beside (``title``,
    ``text-e8f1c2``, ``element-e8f1c2``, ``address``); ``general`` when no input holds it."""

    by_input: Mapping[str, str] = field(default_factory=dict)
    general: str = ""

    def __bool__(self) -> bool:
        return bool(self.by_input or self.general)

    def of(self, input_id: str) -> str:
        """The problem beside ``input_id``, or ``""``."""
        return self.by_input.get(input_id, "")


@dataclass(frozen=True, slots=True)
class Conflict:
    """A save that met a newer version: the version the writer held and the newer one, the
    members it changed (their names and newer values, in words), and the elements it added
    and removed (by name)."""

    held: int
    newer: int
    members: Sequence[tuple[str, str]]
    added: Sequence[str]
    removed: Sequence[str]


@dataclass(frozen=True, slots=True)
class EditorLinks:
    """Where the editor's form posts, and the story's preview, history and page (a page only
    once it is published)."""

    action: str
    preview: str
    history: str
    page: str = ""


@lru_cache(maxsize=4096)
def element_fragment(
    item: ElementItem,
    number: int,
    last: bool,
    element_problem: str,
    text_problem: str,
    caption_problem: str,
    newer: int,
) -> Markup:
    """The editor's list item of ``item``, the ``number``-th element (``last`` or not), with
    the problems the service found with it and the version a conflict brought it with. Kept
    for each of these: a story's editor shows again mostly what it showed last (the story page
    keeps its rendering too, ``pages.kept_story_page``); its forms' token is not in it."""
    module: Any = environment().get_template("editor/_element.html").module
    fragment: Markup = module.element(
        item, number, last, element_problem, text_problem, caption_problem, newer
    )
    return fragment


def editor_page(
    desk: Desk,
    *,
    story: Any,
    links: EditorLinks,
    version: int | str,
    fields: StoryFields,
    items: Sequence[ElementItem],
    problems: Problems = Problems(),
    conflict: Conflict | None = None,
    address: str = "",
    preview: ElementItem | None = None,
    new_text: str = "",
    position: str = "bottom",
    q: str = "",
    network: str = "",
    networks: Sequence[str] = (),
    sources: Sequence[SourceItem] | None = None,
) -> str:
    """The editor of ``story`` (its detail, for the publishing forms around the form)."""
    title = fields.title or "Untitled story"
    return render_editor_page(
        "editor/edit.html",
        desk,
        f"Edit “{title}”",
        story=story,
        links=links,
        version=version,
        fields=fields,
        items=items,
        problems=problems,
        conflict=conflict,
        address=address,
        preview=preview,
        new_text=new_text,
        position=position,
        q=q,
        network=network,
        networks=networks,
        sources=sources,
        heading=title,
        fragments=_fragments(items, problems, conflict.newer if conflict else 0),
        positions=_positions(tuple((item.id, item.name) for item in items), position),
    )


def _fragments(items: Sequence[ElementItem], problems: Problems, newer: int) -> Markup:
    """The list items of ``items``, in order (``element_fragment``)."""
    last = len(items)
    return Markup("").join(
        element_fragment(
            item,
            number,
            number == last,
            problems.of(f"element-{item.id}"),
            problems.of(f"text-{item.id}"),
            problems.of(f"caption-{item.id}"),
            newer,
        )
        for number, item in enumerate(items, 1)
    )


@lru_cache(maxsize=1024)
def _positions(named: tuple[tuple[str, str], ...], position: str) -> Markup:
    """The Position list's options after each element (``named``: ids and names, in order),
    ``position`` chosen."""
    module: Any = environment().get_template("editor/_element.html").module
    options: Markup = module.positions(named, position)
    return options
