"""A story's history (docs/editor.md#preview-and-history), for its author and editors: its
revisions newest first (``?page=N``), two versions compared (``?from=V&to=W``, ``to=current``
the story as it is), the page that asks before a restore (``?restore=V``), and the restore
itself (a ``POST`` with ``action=restore``, the ``revision`` and the story's current
``version``), which goes on to the editor.

For anyone else the story has no history: the HTML 404. A version that is no whole number is
the history again, saying so (400); a revision the story does not have, or a page past the
last, is the 404; a restore from a stale version is refused (409) and changes nothing.
"""

from __future__ import annotations

from ...errors import Forbidden, InvalidParameter, NotFound, VersionConflict
from ...model.comparison import StoryVersion, compare
from ...model.element_kinds import Element
from ...model.shapes import RevisionItem, StoryDetail
from ...presentation import editor
from ...presentation.editor.history import Choice, HistoryItem, HistoryStory, Side
from ...presentation.editor.publishing import moment_text
from ...rules.numbers import whole_number
from ...rules.paths import EDITOR, HISTORY, PREVIEW, filled
from ..messages import HttpResponse
from ..pages import not_found_page
from .call import EditorCall
from .frames import desk_of

__all__ = ["history", "restore"]

#: The revisions the history shows at once.
HISTORY_SIZE = 20
#: What the comparison form's ``to`` takes for the story as it is.
CURRENT = "current"


def history(call: EditorCall) -> HttpResponse:
    """The history's pages: the list, a comparison, or the question before a restore."""
    query = call.request.query()
    if not _sees_history(call):
        return not_found_page(call.service, "story")
    try:
        if "restore" in query:
            return _ask_restore(call, query["restore"])
        if "from" in query or "to" in query:
            return _compare(call, query.get("from", ""), query.get("to", CURRENT))
        return _list(call, query.get("page"))
    except NotFound:  # a revision the story does not have (or no longer: changed meanwhile)
        return not_found_page(call.service, "revision")


def restore(call: EditorCall) -> HttpResponse:
    """Restores the revision the form names onto the story at the version it names, then
    goes to the editor saying so; a stale version is the 409 page, nothing changed."""
    username, slug = call.arguments["username"], call.arguments["slug"]
    if not _sees_history(call):
        return not_found_page(call.service, "story")
    if call.form.get("action") != "restore":
        return _refused(call, 400, "Nothing was changed", "This form asks for nothing known.")
    try:
        version = whole_number(call.form.get("version"), "version")
        restored = call.service.revisions.restore(
            username, slug, call.form.get("revision"), viewer=call.viewer, version=version
        )
    except NotFound:
        return not_found_page(call.service, "revision")
    except VersionConflict:
        return _refused(
            call,
            409,
            "The story changed since",
            "Nothing was restored: the story was changed after you opened this page. "
            "Look at its history again and choose what to restore.",
        )
    except InvalidParameter:
        return _refused(
            call, 400, "Nothing was changed", "This form did not name a version to restore."
        )
    at = {"username": restored.author.username, "slug": restored.slug}
    return call.see_other(filled(EDITOR, **at), done="restored")


def _sees_history(call: EditorCall) -> bool:
    """Whether the caller may see the story's history: its author and editors. For anyone
    else the story has none, whether it exists or not."""
    username, slug = call.arguments["username"], call.arguments["slug"]
    try:
        call.service.revisions.list(username, slug, viewer=call.viewer, per_page=1)
    except (NotFound, Forbidden):
        return False
    return True


def _refused(call: EditorCall, status: int, heading: str, message: str) -> HttpResponse:
    at = {"username": call.arguments["username"], "slug": call.arguments["slug"]}
    body = editor.refused_page(
        desk_of(call),
        heading,
        message,
        back=call.url(filled(HISTORY, **at)),
        back_text="Go to the story's history",
    )
    return call.page(body, status)


def _list(
    call: EditorCall,
    page: str | None,
    chosen: tuple[str, str] = ("", CURRENT),
    problem: str = "",
    status: int = 200,
) -> HttpResponse:
    """The list's page ``page``; with ``problem``, the comparison form holding ``chosen`` and
    saying what is wrong with them (``status``)."""
    username, slug = call.arguments["username"], call.arguments["slug"]
    try:
        revisions = call.service.revisions.list(
            username, slug, viewer=call.viewer, page=page, per_page=HISTORY_SIZE
        )
    except InvalidParameter:
        return not_found_page(call.service, "page")
    if revisions.page > 1 and not revisions.items:
        return not_found_page(call.service, "page")
    story = _story(call, _current(call, per_page=1))
    body = editor.history_page(
        desk_of(call),
        story,
        [_item(call, story, item) for item in revisions.items],
        _choices(call),
        page=revisions.page,
        has_next=revisions.has_next,
        chosen=chosen,
        problem=problem,
    )
    return call.page(body, status)


def _compare(call: EditorCall, before: str, after: str) -> HttpResponse:
    try:
        wanted = [_version_asked(value, name) for value, name in ((before, "from"), (after, "to"))]
    except InvalidParameter:
        problem = "Choose two versions from the lists to compare them."
        return _list(call, None, (before, after), problem, 400)
    (old, old_side), (new, new_side) = (_read(call, value) for value in wanted)
    detail = _current(call, per_page=1)
    body = editor.compare_page(
        desk_of(call),
        _story(call, detail),
        compare(old, new),
        old_side,
        new_side,
        _choices(call),
    )
    return call.page(body)


def _ask_restore(call: EditorCall, asked: str) -> HttpResponse:
    username, slug = call.arguments["username"], call.arguments["slug"]
    try:
        wanted = whole_number(asked, "revision")
    except InvalidParameter:
        return not_found_page(call.service, "revision")
    revision = _revision_item(call, wanted)
    current, _ = _read(call, CURRENT)
    old, _ = _read(call, str(wanted))
    story = _story(call, _current(call, per_page=1))
    at = {"username": username, "slug": slug}
    body = editor.restore_page(
        desk_of(call),
        story,
        _item(call, story, revision),
        compare(current, old),
        action=call.url(filled(HISTORY, **at)),
    )
    return call.page(body)


def _version_asked(value: str, name: str) -> str:
    """``value`` as a version the comparison reads: ``current`` or a whole number."""
    return CURRENT if value == CURRENT else str(whole_number(value, name))


def _current(call: EditorCall, *, per_page: int) -> StoryDetail:
    """The story as it is, as its author or an editor reads it (no view counted)."""
    username, slug = call.arguments["username"], call.arguments["slug"]
    return call.service.stories.open(
        username, slug, viewer=call.viewer, per_page=per_page, count_view=False
    ).detail


def _read(call: EditorCall, which: str) -> tuple[StoryVersion, Side]:
    """The version ``which`` (``current``, or a revision's number) whole, all its elements
    read page by page, and its words on the page."""
    username, slug = call.arguments["username"], call.arguments["slug"]
    per_page = call.service.settings.limits.per_page
    elements: list[Element] = []
    page, more = 1, True
    while more:
        if which == CURRENT:
            read = call.service.stories.open(
                username, slug, viewer=call.viewer, page=page, per_page=per_page, count_view=False
            )
        else:
            read = call.service.revisions.open(
                username, slug, which, viewer=call.viewer, page=page, per_page=per_page
            )
        elements += read.detail.elements
        page, more = page + 1, read.has_next
    detail = read.detail
    version = StoryVersion(detail.title, detail.description or "", elements)
    if which == CURRENT:
        return version, Side(CURRENT, f"the story as it is (version {detail.version})")
    return version, Side(which, f"version {which}")


def _revision_item(call: EditorCall, wanted: int) -> RevisionItem:
    """The list's item of the revision ``wanted`` (``NotFound`` when the story has none)."""
    username, slug = call.arguments["username"], call.arguments["slug"]
    per_page = call.service.settings.limits.per_page
    page, more = 1, True
    while more:
        listed = call.service.revisions.list(
            username, slug, viewer=call.viewer, page=page, per_page=per_page
        )
        for item in listed.items:
            if item.version == wanted:
                return item
        page, more = page + 1, listed.has_next
    raise NotFound(f"{username}/{slug} has no revision {wanted}")


def _choices(call: EditorCall) -> list[Choice]:
    """The versions the comparison form offers: the story as it is, then every revision the
    story keeps, newest first."""
    username, slug = call.arguments["username"], call.arguments["slug"]
    listed = call.service.revisions.list(
        username, slug, viewer=call.viewer, per_page=call.service.settings.limits.per_page
    )
    revisions = [
        Choice(str(item.version), f"Version {item.version}, {moment_text(item.replaced)}")
        for item in listed.items
    ]
    return [Choice(CURRENT, "Current: the story as it is"), *revisions]


def _story(call: EditorCall, detail: StoryDetail) -> HistoryStory:
    at = {"username": detail.author.username, "slug": detail.slug}
    return HistoryStory(
        title=detail.title or "Untitled story",
        version=detail.version,
        history_url=call.url(filled(HISTORY, **at)),
        editor_url=call.url(filled(EDITOR, **at)),
        preview_url=call.url(filled(PREVIEW, **at)),
    )


def _item(call: EditorCall, story: HistoryStory, item: RevisionItem) -> HistoryItem:
    return HistoryItem(
        version=item.version,
        by=item.by,
        replaced=item.replaced,
        replaced_text=moment_text(item.replaced),
        title=item.title,
        status=item.status,
        elements=item.elements,
        restore_url=f"{story.history_url}?restore={item.version}",
    )
