"""A story's preview (docs/editor.md#preview-and-history): its page as readers will see it,
working, scheduled or private alike, marked as a preview, for its author and editors. For
anyone else it is the HTML 404, as the story's other editor pages are."""

from __future__ import annotations

from ...errors import Forbidden, InvalidParameter, NotFound
from ...model.records import StoryRecord
from ...presentation import pages
from ...rules.paths import EDITOR, PREVIEW, filled
from ..messages import HttpResponse
from ..pages import not_found_page
from .call import EditorCall

__all__ = ["preview"]


def preview(call: EditorCall) -> HttpResponse:
    """The preview of the story's page ``?page=N`` (its elements paginated as the page does);
    a page that is not one of it is the 404."""
    username, slug = call.arguments["username"], call.arguments["slug"]
    try:
        shown = call.service.embeds.preview(
            username, slug, viewer=call.viewer, page=call.request.query().get("page")
        )
    except (NotFound, Forbidden):
        return not_found_page(call.service, "story")
    except InvalidParameter:
        return not_found_page(call.service, "page")
    at = {"username": shown.author.username, "slug": shown.story.slug}
    story = shown.story
    mark = pages.Preview(
        notice=_notice(story),
        address=call.url(filled(PREVIEW, **at)),
        editor_url=call.url(filled(EDITOR, **at)),
        page_url=call.site.story(at["username"], at["slug"]) if story.status == "published" else "",
    )
    body = pages.story_page(
        call.site.showing(call.service.embeds.kept_on_page(shown)),
        author=shown.author,
        story=story,
        elements=shown.elements,
        page=shown.page,
        has_next=shown.has_next,
        minutes=shown.minutes,
        preview=mark,
    )
    return call.page(body)


def _notice(story: StoryRecord) -> str:
    """What the preview's banner says of the story's state."""
    if story.status != "published":
        return "Preview: this is how the story will look. It is not published."
    if story.private:
        return (
            "Preview: this is how the story looks. It is published privately: "
            "only you and editors can read it."
        )
    return "Preview: this is how the story looks to readers. It is published."
