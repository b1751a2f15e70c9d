"""The editor's publishing and address forms (docs/editor.md#publishing-the-address-and-deleting):
publish now, schedule, cancel the schedule, unpublish and change the slug, each a ``POST`` to
its own path that calls one ``Service`` use case and answers a 303 back to the editor saying
what it did (at the new address after a slug change).

Publish, schedule and cancel send the version the editor holds: a story changed since is a
409 and nothing is done. A schedule's date and time are read in the zone the form names
(``storycore.rules.zones``). A refused value is the forms again, as typed, with the problem
beside its field and the API's status; a story the writer may not change is the 404.
"""

from __future__ import annotations

from collections.abc import Callable

from ...errors import Conflict, Forbidden, InvalidParameter, NotFound, StoryMoved, VersionConflict
from ...model.shapes import StoryDetail
from ...presentation import editor
from ...rules.numbers import whole_number
from ...rules.paths import EDITOR, filled
from ...rules.zones import DEFAULT_ZONE, utc_moment
from ..messages import HttpResponse
from ..pages import not_found_page
from .call import EditorCall
from .frames import desk_of

__all__ = [
    "change_slug",
    "editable_story",
    "publish",
    "schedule",
    "unpublish",
    "unschedule",
    "with_story",
]

#: What a form's action does to the story, given it as the editor read it: the path and the
#: query of the page the 303 goes on to.
Action = Callable[[StoryDetail], tuple[str, dict[str, str]]]

#: The fields of the forms that a refused form shows again as typed.
_TYPED = ("version", "date", "time", "zone", "slug")

_CHANGED = (
    "The story changed after this page was loaded (in another window, or by an editor). "
    "Open the editor again to see it as it is now."
)
#: What a writer calls the API's fields where its messages name them.
_SAID = {"publish_at": "the time"}
_NO_VERSION = "This form holds no version of the story. Open the editor again and send it anew."


def editable_story(call: EditorCall) -> StoryDetail | None:
    """The story of the path as its editor reads it, if the caller may change it (its author
    or an editor), else None (the 404: no one learns that a story they may not see exists)."""
    username, slug = call.arguments["username"], call.arguments["slug"]
    try:
        reading = call.service.stories.open(
            username, slug, viewer=call.viewer, per_page=1, count_view=False
        )
    except (NotFound, StoryMoved, InvalidParameter):
        return None
    story = reading.detail
    if not call.viewer.is_editor and story.author.username != call.user.username:
        return None
    return story


def with_story(call: EditorCall, action: Action) -> HttpResponse:
    """The answer of a form of the story's editor: ``action`` done, and a 303 where it leads;
    the forms again with the problem (the API's status) when the service refuses a value; the
    404 when the caller may not change the story."""
    story = editable_story(call)
    if story is None:
        return not_found_page(call.service, "story")
    try:
        path, query = action(story)
    except (NotFound, Forbidden):
        return not_found_page(call.service, "story")
    except (InvalidParameter, Conflict) as refused:
        return _refused(call, story, refused)
    return call.see_other(path, **query)


def publish(call: EditorCall) -> HttpResponse:
    """Publishes the story now, as of the version the editor holds."""

    def act(story: StoryDetail) -> tuple[str, dict[str, str]]:
        call.service.stories.publish(*_names(story), viewer=call.viewer, version=_version(call))
        return _editor(story), {"done": "published"}

    return with_story(call, act)


def schedule(call: EditorCall) -> HttpResponse:
    """Schedules the story for the date and time of the form in its time zone."""

    def act(story: StoryDetail) -> tuple[str, dict[str, str]]:
        form = call.form
        zone = form.get("zone") or DEFAULT_ZONE
        moment = utc_moment(form.get("date").strip(), form.get("time").strip(), zone)
        call.service.stories.publish(
            *_names(story), viewer=call.viewer, version=_version(call), publish_at=moment
        )
        return _editor(story), {"done": "scheduled", "zone": zone}

    return with_story(call, act)


def unschedule(call: EditorCall) -> HttpResponse:
    """Cancels the story's schedule (a save without a time): it stays unpublished. Sent with
    the version the editor holds, so a story that was published at its time meanwhile is not
    changed."""

    def act(story: StoryDetail) -> tuple[str, dict[str, str]]:
        call.service.stories.save(
            *_names(story), {}, viewer=call.viewer, version=_version(call), publish_at=None
        )
        return _editor(story), {"done": "unscheduled"}

    return with_story(call, act)


def unpublish(call: EditorCall) -> HttpResponse:
    """Takes the story back to working."""

    def act(story: StoryDetail) -> tuple[str, dict[str, str]]:
        call.service.stories.unpublish(*_names(story), viewer=call.viewer)
        return _editor(story), {"done": "unpublished"}

    return with_story(call, act)


def change_slug(call: EditorCall) -> HttpResponse:
    """Moves the story to the slug of the form; its editor, at the new address, says so."""

    def act(story: StoryDetail) -> tuple[str, dict[str, str]]:
        changed = call.service.stories.change_slug(
            *_names(story), call.form.get("slug").strip(), viewer=call.viewer
        )
        path = filled(EDITOR, username=story.author.username, slug=changed.slug)
        return path, {"done": "slug"}

    return with_story(call, act)


def _names(story: StoryDetail) -> tuple[str, str]:
    return story.author.username, story.slug


def _editor(story: StoryDetail) -> str:
    return filled(EDITOR, username=story.author.username, slug=story.slug)


def _version(call: EditorCall) -> int:
    """The version the form holds (the editor's hidden ``version``)."""
    return whole_number(call.form.get("version"), "version")


def _problems(refused: InvalidParameter | Conflict) -> dict[str, str]:
    """The problem ``refused`` names, by the field of the forms it is beside (``form``: none)."""
    if isinstance(refused, VersionConflict):
        return {"form": _CHANGED}
    if refused.field == "version":
        return {"form": _NO_VERSION}
    field = refused.field or ""
    message = refused.message
    if field in _SAID and message.startswith(f"{field} "):
        message = _SAID[field] + message[len(field) :]
    name = {"publish_at": "date"}.get(field, field)
    return {name if name in _TYPED else "form": message[:1].upper() + message[1:]}


def _refused(
    call: EditorCall, story: StoryDetail, refused: InvalidParameter | Conflict
) -> HttpResponse:
    """The forms of ``story`` again as typed, with the problem, in the API's status."""
    desk = desk_of(call)
    typed = {name: call.form.get(name) for name in _TYPED if name in call.form}
    publishing = editor.publishing_of(desk, story, typed, _problems(refused))
    return call.page(editor.publishing_refused_page(desk, story, publishing), refused.status)
