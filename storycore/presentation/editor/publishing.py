"""The editor's publishing, address and deleting forms
(docs/editor.md#publishing-the-address-and-deleting): what ``editor/_publishing.html`` shows
of a story, the page that shows the forms again with a refused value beside its field, and the
page that asks before a delete.

Publish, schedule and cancel the schedule carry the version the editor holds, so that they
never act on a version the writer did not see. A schedule is shown in the zone the writer
chose (``Desk.zone``) with the time in UTC it means; the story keeps only the UTC time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from markupsafe import Markup, escape

from ...model.shapes import StoryDetail
from ...rules.paths import (
    CHANGE_SLUG,
    DELETE,
    EDITOR,
    PUBLISH,
    SCHEDULE,
    UNPUBLISH,
    UNSCHEDULE,
    filled,
)
from ...rules.zones import DEFAULT_ZONE, known_zone, local_moment, zone_names
from ..embed.oembed import embed_code
from .frame import Desk, render_editor_page

__all__ = [
    "Publishing",
    "delete_page",
    "moment_text",
    "publishing_of",
    "publishing_refused_page",
    "zone_options",
]

#: The title a story without one is called by.
UNTITLED = "Untitled story"
#: The ids of the fields of the forms (the problems' links go to them), and which are shown
#: only for a story that is not published (the schedule's).
_FIELD_IDS = {
    "date": "schedule-date",
    "time": "schedule-time",
    "zone": "schedule-zone",
    "slug": "address-slug",
}
_SCHEDULE_FIELDS = frozenset({"date", "time", "zone"})


def moment_text(timestamp: str, zone: str = DEFAULT_ZONE) -> str:
    """A stored time as a writer reads it in ``zone``, with the time in UTC it means:
    ``1 December 2026 at 10:30 Europe/Paris (09:30 UTC)``; in UTC, ``1 December 2026 at
    09:30 UTC``."""
    moment = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    zone = known_zone(zone) or DEFAULT_ZONE
    local = local_moment(moment, zone)
    said = f"{local.day} {local:%B %Y} at {local:%H:%M} {zone}"
    return said if zone == DEFAULT_ZONE else f"{said} ({moment:%H:%M} UTC)"


@lru_cache(maxsize=32)
def zone_options(selected: str) -> Markup:
    """The ``<option>`` elements of the time-zone list, ``selected`` chosen (made once for
    each zone chosen: the list holds some 600 zones)."""
    options = (
        f'<option value="{escape(name)}"{" selected" if name == selected else ""}>'
        f"{escape(name)}</option>"
        for name in zone_names()
    )
    return Markup("".join(options))  # noqa: S704 - every name escaped


@dataclass(frozen=True, slots=True)
class Publishing:
    """What the publishing forms show of a story: its state, the version the editor holds,
    the schedule's date, time and zone and the slug (as the story has them, or as typed in a
    refused form), the problems the service found (by field: ``date``, ``time``, ``zone``,
    ``slug``; ``form`` for one that belongs to no field), where each form posts, and the
    story's addresses to copy."""

    title: str
    state: str
    version: str
    schedule: str
    date: str
    time: str
    zone: str
    slug: str
    edit_url: str
    publish_url: str
    schedule_url: str
    unschedule_url: str
    unpublish_url: str
    slug_url: str
    delete_url: str
    permalink: str
    shortlink: str
    embed_code: str
    problems: Mapping[str, str] = field(default_factory=dict)

    @property
    def published(self) -> bool:
        """Whether the story is published (it can be unpublished, not scheduled)."""
        return self.state == "published"

    @property
    def state_text(self) -> str:
        """The story's state in words."""
        if self.state == "scheduled":
            return f"Scheduled for {self.schedule}"
        return "Published" if self.published else "Not published"

    @property
    def zones(self) -> Markup:
        """The time-zone list, the zone of the form chosen."""
        return zone_options(self.zone)

    @property
    def browser_zone(self) -> bool:
        """Whether the list may start at the browser's zone where JavaScript runs: no zone
        other than the default was chosen (docs/editor.md#with-javascript)."""
        return self.zone == DEFAULT_ZONE

    def problem(self, name: str) -> str:
        """The problem with the field ``name``, or ``""``."""
        return self.problems.get(name, "")

    @property
    def listed_problems(self) -> list[tuple[str, str]]:
        """Each problem and the id of the field it is beside (``""``: none shown)."""
        return [(self._field_id(name), problem) for name, problem in self.problems.items()]

    def _field_id(self, name: str) -> str:
        if name in _SCHEDULE_FIELDS and self.published:
            return ""
        return _FIELD_IDS.get(name, "")


def publishing_of(
    desk: Desk,
    story: StoryDetail,
    typed: Mapping[str, str] | None = None,
    problems: Mapping[str, str] | None = None,
) -> Publishing:
    """The publishing forms of ``story`` for the writer of ``desk``; ``typed``: the values of
    a refused form (``version``, ``date``, ``time``, ``zone``, ``slug``), kept as typed."""
    typed = typed or {}
    zone = known_zone(typed.get("zone")) or desk.zone
    day = clock = schedule = ""
    if story.publish_at:
        local = local_moment(datetime.fromisoformat(story.publish_at.replace("Z", "+00:00")), zone)
        day, clock, schedule = (
            f"{local:%Y-%m-%d}",
            f"{local:%H:%M}",
            moment_text(story.publish_at, zone),
        )
    state = "published" if story.status == "published" else "working"
    if story.publish_at and state == "working":
        state = "scheduled"
    username, slug = story.author.username, story.slug

    def at(template: str) -> str:
        return desk.site.web_url + filled(template, username=username, slug=slug)

    return Publishing(
        title=story.title or UNTITLED,
        state=state,
        version=typed.get("version", str(story.version)),
        schedule=schedule,
        date=typed.get("date", day),
        time=typed.get("time", clock),
        zone=zone,
        slug=typed.get("slug", slug),
        edit_url=at(EDITOR),
        publish_url=at(PUBLISH),
        schedule_url=at(SCHEDULE),
        unschedule_url=at(UNSCHEDULE),
        unpublish_url=at(UNPUBLISH),
        slug_url=at(CHANGE_SLUG),
        delete_url=at(DELETE),
        permalink=story.permalink,
        shortlink=story.shortlink,
        embed_code=embed_code(desk.site.script(username, slug)),
        problems=dict(problems or {}),
    )


def publishing_refused_page(desk: Desk, story: StoryDetail, publishing: Publishing) -> str:
    """The publishing forms of ``story`` again, after the service refused what one sent: the
    values as typed and each problem beside its field."""
    return render_editor_page(
        "editor/publishing_refused.html",
        desk,
        f"Not done: {publishing.title}",
        story=story,
        publishing=publishing,
    )


def delete_page(desk: Desk, story: StoryDetail) -> str:
    """The page that names ``story`` and asks before deleting it."""
    publishing = publishing_of(desk, story)
    return render_editor_page(
        "editor/delete.html", desk, f"Delete {publishing.title}?", publishing=publishing
    )
