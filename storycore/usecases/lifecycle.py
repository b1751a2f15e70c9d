"""The life of one story (docs/api.md#stories, docs/api.md#slugs, docs/api.md#who-may-do-what).

create -> working | published; save keeps the status (a published story becomes ``modified``);
publish -> published (``date.published`` is the first publication); unpublish -> working;
delete; slug change (the old slug becomes an alias); feature and unfeature. A working story may
be scheduled to publish (``publish_at``, docs/api.md#scheduled-publishing): create, save and
publish set or cancel the time, and ``publish_due`` publishes it, as ``publish`` would. Restoring
a revision is ``Revisions.restore`` (docs/api.md#revisions).

Each write is a row of the table in ``transitions`` (the statuses it leaves from, what it
changes, its events, whether it keeps a revision) and is stored by the one commit path
(``_commit``). ``Stories`` is made of the groups of commands, a module each: reading
(``_reading``), creating (``_creating``), changing (``_changing``) and featuring
(``_featuring``), and what the editor reads (``_editing``).
"""

from __future__ import annotations

from ._changing import Changing
from ._creating import Creating, new_story_record
from ._editing import EditedStory, Editing
from ._featuring import Featuring
from ._reading import Reading, StoryReading

__all__ = ["EditedStory", "Stories", "StoryReading", "new_story_record"]


class Stories(Reading, Creating, Changing, Featuring, Editing):
    """Creating, changing and reading one story, and what its editor reads."""
