"""The story editor (docs/editor.md#the-editor): ``GET`` shows the story's form, ``POST``
applies what its buttons ask for to the form as posted and saves it with the version the page
holds, then goes back to the editor (303), at the element acted on.

Every button posts the whole form, so what was typed is kept: ``save``; ``up:ID``,
``down:ID``, ``top:ID``, ``bottom:ID``, ``remove:ID``; ``add-address:WHERE`` (``top``,
``bottom`` or ``position``: the Position select), ``add-text:WHERE`` and ``add-source:KEY``
save too. ``preview-add`` (what an address adds) and ``find-sources`` save nothing and show the
editor again, with everything typed. A value the service refuses is shown beside its field with
the API's status; a save that meets a newer version saves nothing and shows what it changed,
with the writer's own form to apply again (409). Only the story's author and editors have an
editor: for anyone else it is the 404 page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...errors import Forbidden, NotFound, StorycoreError, Unauthorized, VersionConflict
from ...model.records import Element, trusted_element
from ...presentation import editor
from ...presentation.editor.editing import (
    Conflict,
    EditorLinks,
    ElementItem,
    Problems,
    SourceItem,
    element_item,
)
from ...rules.ids import new_element_id
from ...rules.paths import EDITOR, HISTORY, PREVIEW, filled
from ...usecases.lifecycle import EditedStory
from ...usecases.sources import Source
from ..messages import HttpResponse
from ..pages import not_found_page
from ._conflicts import conflict_of, merged_elements
from ._refused_fields import problems_of
from ._story_form import MOVES, Held, held_form, held_story, inserted, moved, story_input
from .call import EditorCall
from .frames import desk_of

__all__ = ["edit", "editor_page"]

_HIDDEN = (NotFound, Forbidden, Unauthorized)
NO_PROBLEMS = Problems()


def editor_page(call: EditorCall) -> HttpResponse:
    """The editor of the story, as it is."""
    try:
        edited = _edited(call)
    except _HIDDEN:
        return not_found_page(call.service, "story")
    return _page(call, edited, held_story(edited))


def edit(call: EditorCall) -> HttpResponse:
    """What a button of the editor's form asks for, applied to the form as posted."""
    try:
        edited = _edited(call)
    except _HIDDEN:
        return not_found_page(call.service, "story")
    held = held_form(call.form, _known(call, edited))
    verb, _, argument = call.form.get("action", "save").partition(":")
    focus = ""
    if verb in MOVES:
        focus = _focus_after(held.elements, argument, verb)
        held = _with_elements(held, moved(held.elements, argument, verb))
    elif verb == "preview-add":
        return _preview(call, edited, held)
    elif verb == "find-sources":
        return _find_sources(call, edited, held)
    elif verb in ("add-address", "add-text", "add-source"):
        added = _added(call, edited, held, verb, argument)
        if isinstance(added, HttpResponse):
            return added
        where = call.form.get("position") if argument in ("position", "") else argument
        held = _with_elements(held, inserted(held.elements, added, where))
        if verb == "add-text":
            held = _with_text(held, added.id, call.form.get("new_text"))
        focus = f"element-{added.id}"
    return _save(call, edited, held, focus, "added" if verb.startswith("add-") else "saved")


def _edited(call: EditorCall) -> EditedStory:
    username, slug = call.arguments["username"], call.arguments["slug"]
    return call.service.stories.edited(username, slug, viewer=call.viewer)


def _known(call: EditorCall, edited: EditedStory) -> dict[str, Element]:
    """The elements a posted form may name: the story's, and the version's the page held."""
    known = {element.id: element for element in edited.elements}
    version = call.form.get("version")
    if version.isdigit() and int(version) != edited.story.version:
        held = _held(call, edited, int(version))
        for element in held.elements:
            known.setdefault(element.id, element)
    return known


def _held(call: EditorCall, edited: EditedStory, version: int) -> EditedStory:
    username = edited.author.username
    return call.service.stories.held(username, edited.story.slug, version, viewer=call.viewer)


def _with_elements(held: Held, elements: Sequence[Element]) -> Held:
    return replace(held, elements=tuple(elements))


def _with_text(held: Held, element_id: str, text: str) -> Held:
    return replace(held, texts={**held.texts, element_id: text})


def _focus_after(elements: Sequence[Element], element_id: str, verb: str) -> str:
    """Where the page returns after ``verb`` on ``element_id``: the element moved, or what
    took the place of the one removed (the list, when none)."""
    if verb != "remove":
        return f"element-{element_id}"
    ids = [element.id for element in elements]
    if element_id not in ids:
        return "elements-heading"
    at = ids.index(element_id)
    rest = ids[:at] + ids[at + 1 :]
    return f"element-{rest[min(at, len(rest) - 1)]}" if rest else "elements-heading"


def _added(
    call: EditorCall, edited: EditedStory, held: Held, verb: str, argument: str
) -> Element | HttpResponse:
    """The element an Add button adds, or the editor saying why it adds none."""
    form = call.form
    if verb == "add-text":
        if not form.get("new_text").strip():
            problems = Problems(by_input={"new-text": "Write the text to add first."})
            return _page(call, edited, held, problems=problems, status=400)
        # sanitized by the save, as every text element is; shown sanitized until then
        text = {"id": new_element_id(), "type": "text", "data": {"text": ""}, "added_at": None}
        return trusted_element(text)
    if verb == "add-source":
        found = _sources(call, form.get("q"), form.get("network"))
        if isinstance(found, Problems):
            return _page(call, edited, held, problems=found, status=400)
        source = next((s for s in found if s.key == argument), None)
        if source is None:
            problems = Problems(general="That source is no longer found. Search again.")
            return _page(call, edited, held, problems=problems, status=409)
        return source.element.model_copy(update={"id": new_element_id(), "added_at": None})
    try:
        return call.service.stories.preview_element(form.get("address"), viewer=call.viewer)
    except StorycoreError as refused:
        problems = problems_of(refused, held.elements)
        return _page(call, edited, held, problems=problems, status=refused.status)


def _preview(call: EditorCall, edited: EditedStory, held: Held) -> HttpResponse:
    """The editor again, showing what the address typed adds (nothing saved)."""
    address = call.form.get("address")
    try:
        element = call.service.stories.preview_element(address, viewer=call.viewer)
    except StorycoreError as refused:
        problems = problems_of(refused, held.elements)
        return _page(call, edited, held, problems=problems, status=refused.status)
    return _page(call, edited, held, preview=element_item(element, call.site))


def _find_sources(call: EditorCall, edited: EditedStory, held: Held) -> HttpResponse:
    """The editor again, with the sources found for the words typed (nothing saved)."""
    found = _sources(call, call.form.get("q"), call.form.get("network"))
    if isinstance(found, Problems):
        return _page(call, edited, held, problems=found, status=400)
    return _page(call, edited, held, sources=found)


def _sources(call: EditorCall, q: str, network: str) -> list[Source] | Problems:
    try:
        return call.service.sources.find(q, viewer=call.viewer, network=network)
    except StorycoreError as refused:
        return problems_of(refused, ())


def _save(call: EditorCall, edited: EditedStory, held: Held, focus: str, done: str) -> HttpResponse:
    """Saves what the form holds with its version: back to the editor at ``focus``; the
    editor with the refused value beside its field; or, when the story changed since the page
    was made, the conflict (409)."""
    username = edited.author.username
    version = int(held.version) if held.version.isdigit() else held.version
    try:
        saved = call.service.stories.save(
            username, edited.story.slug, story_input(held), viewer=call.viewer, version=version
        )
    except _HIDDEN:
        return not_found_page(call.service, "story")
    except VersionConflict:
        return _conflict(call, held)
    except StorycoreError as refused:
        problems = problems_of(refused, held.elements)
        return _page(call, edited, held, problems=problems, status=refused.status)
    address = call.url(filled(EDITOR, username=username, slug=saved.slug), done=done)
    return HttpResponse(303, [("Location", f"{address}#{focus}" if focus else address)])


def _conflict(call: EditorCall, held: Held) -> HttpResponse:
    """The editor of the newer version holding the writer's form: what the newer version
    changed since the one they held, their members as typed and their elements with those the
    newer version added put back, and the newer version to apply them onto (409)."""
    try:
        newer = _edited(call)
        before = _held(call, newer, int(held.version))
    except _HIDDEN:
        return not_found_page(call.service, "story")
    elements, added = merged_elements(held.elements, before, newer)
    mine = Held(held.fields, str(newer.story.version), elements, held.texts)
    conflict = conflict_of(before, newer, call.site)
    return _page(call, newer, mine, conflict=conflict, added=added, status=409)


def _page(
    call: EditorCall,
    edited: EditedStory,
    held: Held,
    *,
    problems: Problems = NO_PROBLEMS,
    conflict: Conflict | None = None,
    added: frozenset[str] = frozenset(),
    preview: ElementItem | None = None,
    sources: Sequence[Source] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The editor of ``edited`` holding ``held``."""
    username, slug = edited.author.username, edited.story.slug
    story = call.service.stories.open(
        username, slug, viewer=call.viewer, per_page=1, count_view=False
    ).detail
    site = call.site
    links = EditorLinks(
        action=call.url(filled(EDITOR, username=username, slug=slug)),
        preview=call.url(filled(PREVIEW, username=username, slug=slug)),
        history=call.url(filled(HISTORY, username=username, slug=slug)),
        page=site.story(username, slug) if edited.story.status == "published" else "",
    )
    items = [
        element_item(e, site, text=held.texts.get(e.id), added_since=e.id in added)
        for e in held.elements
    ]
    body = editor.editor_page(
        desk_of(call),
        story=story,
        links=links,
        version=held.version,
        fields=held.fields,
        items=items,
        problems=problems,
        conflict=conflict,
        address=call.form.get("address"),
        preview=preview,
        new_text=call.form.get("new_text"),
        position=call.form.get("position", "bottom"),
        q=call.form.get("q"),
        network=call.form.get("network"),
        networks=[network.name for network in call.service.settings.networks],
        sources=None if sources is None else [_source_item(call, s) for s in sources],
    )
    return call.page(body, status)


def _source_item(call: EditorCall, source: Source) -> SourceItem:
    return SourceItem(
        key=source.key,
        item=element_item(source.element, call.site),
        story_title=source.story_title,
        story_url=call.site.story(source.username, source.slug),
    )
