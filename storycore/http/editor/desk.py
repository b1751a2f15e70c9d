"""The writer's desk (``/me``): their stories, latest change first, each with its state and
links to its editor, preview and page, and the form that starts a new story (``/me/new``),
which goes on to the new story's editor."""

from __future__ import annotations

from ...errors import InvalidParameter
from ...model.shapes import StorySummary
from ...presentation import editor
from ...presentation.editor.publishing import moment_text
from ...rules.paths import EDITOR, NEW_STORY, PREVIEW, filled
from ..messages import HttpResponse
from ..pages import not_found_page
from .call import EditorCall
from .frames import desk_of

__all__ = ["desk", "new_story"]

#: The stories the desk shows at once.
DESK_SIZE = 20


def desk(call: EditorCall, problem: str = "", status: int = 200) -> HttpResponse:
    """The desk's page (``?page=N``); a page number that is no page of it is the 404."""
    username = call.user.username
    try:
        stories = call.service.catalog.user(
            username,
            viewer=call.viewer,
            sort="date.modified",
            page=call.request.query().get("page"),
            per_page=DESK_SIZE,
        )
    except InvalidParameter:
        return not_found_page(call.service, "page")
    if stories.page > 1 and not stories.items:
        return not_found_page(call.service, "page")
    items = [_item(call, story) for story in stories.items]
    body = editor.desk_page(
        desk_of(call, "desk"),
        items,
        new_url=call.url(NEW_STORY),
        page=stories.page,
        has_next=stories.has_next,
        problem=problem,
    )
    return call.page(body, status)


def new_story(call: EditorCall) -> HttpResponse:
    """Starts a working story with the title given (which may be empty) and opens its
    editor; a title the service refuses is the desk again, saying why (400)."""
    title = call.form.get("title")
    try:
        created = call.service.stories.create(
            call.user.username, {"title": title}, viewer=call.viewer
        )
    except InvalidParameter as refused:
        return desk(call, refused.message, refused.status)
    path = filled(EDITOR, username=call.user.username, slug=created.slug)
    return call.see_other(path, done="created")


def _item(call: EditorCall, story: StorySummary) -> editor.DeskItem:
    username = story.author.username
    state, text = _state(call, story)
    title = story.title or "Untitled story"
    page = call.site.story(username, story.slug) if story.status == "published" else ""
    return editor.DeskItem(
        title=title,
        state=state,
        state_text=text,
        private=story.private,
        updated=story.updated,
        edit_url=call.url(filled(EDITOR, username=username, slug=story.slug)),
        preview_url=call.url(filled(PREVIEW, username=username, slug=story.slug)),
        page_url=page,
    )


def _state(call: EditorCall, story: StorySummary) -> tuple[str, str]:
    """A story's state and its words: published, scheduled (with its time) or working."""
    if story.status == "published":
        return "published", "Published"
    detail = call.service.stories.read(
        story.author.username, story.slug, viewer=call.viewer, per_page=1
    )
    if detail.publish_at:
        return "scheduled", f"Scheduled for {moment_text(detail.publish_at)}"
    return "working", "Not published"
