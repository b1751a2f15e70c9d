"""The table of a story's transitions: every write a story goes through, as data.

A row names the write, the statuses it leaves from, the status it leads to, what it does to
the ``modified`` mark and to the schedule (``publish_at``), the events it reports
(docs/webhooks.md) and whether it keeps the story as it was as a revision
(docs/api.md#revisions). The commands read their row; the one commit path (``_commit``)
stores what they decide with the row's events, revision and version, so a rule about a write
is one cell here, not a branch in a command.

From a status not in its ``leaves`` a transition's status step does nothing and reports
nothing (an unpublish of a working story); what else the write sends (members, a schedule)
still applies. Two rules hold for every row: a story that becomes published keeps its first
publication time (``date.published``), and a write that sets or cancels the schedule of a
story that is not published reports ``story.scheduled`` as well
(docs/api.md#scheduled-publishing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from ..errors import InvalidParameter
from ..model.events import EventType
from ..model.records import Status, StoryRecord
from ..rules.schedule import UNCHANGED, Unchanged

__all__ = [
    "ANY",
    "CHANGE_SLUG",
    "CREATE",
    "CREATE_PUBLISHED",
    "DELETE",
    "FEATURE",
    "NEW",
    "PUBLISH",
    "RESTORE",
    "SAVE",
    "TRANSITIONS",
    "UNFEATURE",
    "UNPUBLISH",
    "Schedule",
    "Transition",
]

#: What a write does to a story's ``publish_at``: leaves it, cancels it, or sets it as the
#: write sends it (a time sets it, None cancels it, not sent leaves it).
Schedule = Literal["keeps", "cancels", "as_sent"]
#: Where a transition leads: a status, the status the story has (``stays``), or out of the
#: store (``gone``).
Leads = Status | Literal["stays", "gone"]
#: Where a transition leaves from: a status, or ``new`` (no story yet: a create).
Leaves = frozenset[Status | Literal["new"]]

ANY: Final[Leaves] = frozenset({"working", "published"})
NEW: Final[Leaves] = frozenset({"new"})


@dataclass(frozen=True, slots=True)
class Transition:
    """One row of the table (the module docstring says how a row is read).

    ``modifies``: a published story it changes becomes ``modified`` (and a working one is
    not), until its next publication. ``keeps_revision``: the write replaces the stored story,
    checked against its version, at the next version, with the story as it was as a revision;
    a create adds the story, a delete removes it, and a row that is neither and keeps no
    revision changes only the featured mark, which a replacement keeps as stored.
    """

    name: str
    leaves: Leaves
    to: Leads
    modifies: bool
    schedule: Schedule
    reports: tuple[EventType, ...]
    keeps_revision: bool

    def changes(
        self, story: StoryRecord, at: str, schedule: str | Unchanged | None = UNCHANGED
    ) -> dict[str, Any] | None:
        """The members of ``story`` this transition changes at ``at`` (its status, ``modified``,
        ``published``, ``publish_at``), given the ``schedule`` the write sent (a checked time,
        None, or ``UNCHANGED``); None when it changes nothing: the story's status is not one it
        leaves from and its schedule stays as it is.

        Scheduling a published story is an ``InvalidParameter`` naming ``publish_at``.
        """
        changes: dict[str, Any] = {}
        steps = story.status in self.leaves
        if steps and self.to in ("working", "published"):
            changes = {"status": self.to, "modified": False}
            if self.to == "published":
                changes["published"] = story.published or at
        elif steps and self.modifies:
            changes = {"modified": story.status == "published"}
        wanted = None if self.schedule == "cancels" else schedule
        if self.schedule != "keeps" and not isinstance(wanted, Unchanged):
            if wanted is not None and story.status == "published":
                raise InvalidParameter(
                    "a published story cannot be scheduled: unpublish it first", field="publish_at"
                )
            if steps or wanted != story.publish_at:
                changes["publish_at"] = wanted
        return changes if steps or changes else None

    def reported(self, before: StoryRecord | None, after: StoryRecord) -> list[EventType]:
        """The events of this transition from ``before`` (None: a create) to ``after``, in
        order: the row's own when it leaves from ``before``'s status, then ``story.scheduled``
        when the schedule of a story that is not published changed."""
        status = "new" if before is None else before.status
        reports = list(self.reports) if status in self.leaves else []
        was = None if before is None else before.publish_at
        if after.publish_at != was and after.status != "published":
            reports.append("story.scheduled")
        return reports


# fmt: off
#: Create: a new working story, scheduled when the create sends a time.
CREATE: Final = Transition(
    "create", NEW, to="working", modifies=False, schedule="as_sent",
    reports=("story.created",), keeps_revision=False,
)
#: Create with ``publish`` (and no time): a new published story.
CREATE_PUBLISHED: Final = Transition(
    "create published", NEW, to="published", modifies=False, schedule="cancels",
    reports=("story.created", "story.published"), keeps_revision=False,
)
#: Save (also a publish with a time, which schedules): the status stays.
SAVE: Final = Transition(
    "save", ANY, to="stays", modifies=True, schedule="as_sent",
    reports=("story.saved",), keeps_revision=True,
)
#: Publish, now (also a scheduled story when its time comes): cancels the schedule.
PUBLISH: Final = Transition(
    "publish", ANY, to="published", modifies=False, schedule="cancels",
    reports=("story.published",), keeps_revision=True,
)
#: Unpublish: a published story goes back to working; a working story keeps its status, and
#: its schedule is cancelled, as a save with ``publish_at`` None would.
UNPUBLISH: Final = Transition(
    "unpublish", frozenset({"published"}), to="working", modifies=False, schedule="cancels",
    reports=("story.unpublished",), keeps_revision=True,
)
#: Restore of a revision's content: slug, status and schedule stay.
RESTORE: Final = Transition(
    "restore", ANY, to="stays", modifies=True, schedule="keeps",
    reports=("story.restored",), keeps_revision=True,
)
#: Slug change (to another slug): the old slug becomes an alias.
CHANGE_SLUG: Final = Transition(
    "change slug", ANY, to="stays", modifies=False, schedule="keeps",
    reports=("story.slug_changed",), keeps_revision=True,
)
#: Delete: the story goes, with its elements, aliases and revisions.
DELETE: Final = Transition(
    "delete", ANY, to="gone", modifies=False, schedule="keeps",
    reports=("story.deleted",), keeps_revision=False,
)
#: Feature and unfeature: the featured mark alone; no version, no revision, no event.
FEATURE: Final = Transition(
    "feature", ANY, to="stays", modifies=False, schedule="keeps",
    reports=(), keeps_revision=False,
)
UNFEATURE: Final = Transition(
    "unfeature", ANY, to="stays", modifies=False, schedule="keeps",
    reports=(), keeps_revision=False,
)
# fmt: on

#: Every row, in the order above.
TRANSITIONS: Final = (
    CREATE,
    CREATE_PUBLISHED,
    SAVE,
    PUBLISH,
    UNPUBLISH,
    RESTORE,
    CHANGE_SLUG,
    DELETE,
    FEATURE,
    UNFEATURE,
)
