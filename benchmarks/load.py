"""Loading a data set through the adapters' bulk path (``StoryRepository.add_many``).

Records are built exactly as ``create`` builds them (``new_story_record``), with slugs derived
from titles and made unique per author, and publication times one second apart. The last
``working`` stories of the data set may be loaded working (not published), and scheduled to
publish (``publish_at``, docs/api.md#scheduled-publishing) one second apart from a given time.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta

from benchmarks.data import DataSet
from storycore import Service
from storycore.model.derived import story_words
from storycore.model.drafts import parse_story
from storycore.model.elements import normalize_elements
from storycore.model.events import Event
from storycore.ports import NewStory
from storycore.rules.slugs import derive_slug, next_free_slug
from storycore.rules.timestamps import format_timestamp
from storycore.usecases.lifecycle import new_story_record
from storycore.usecases.transitions import CREATE, CREATE_PUBLISHED

__all__ = ["load"]

START = datetime(2025, 1, 1, tzinfo=UTC)


def _records(
    service: Service, data: DataSet, working: int, scheduled: datetime | None
) -> Iterator[NewStory]:
    users = {name: service.store.users.get_by_username(name) for name in data.author_names()}
    limits = service.settings.limits
    taken: dict[str, set[str]] = {}
    first_working = data.stories - working
    for number, (author, story, published) in enumerate(data.story_inputs()):
        at = format_timestamp(START + timedelta(seconds=number))
        publish = published and number < first_working
        draft = parse_story(story, limits)
        elements = normalize_elements(
            draft.elements or [],
            path="story.elements",
            limits=limits,
            resolver=service.resolver,
            previous=[],
            now=at,
        )
        user = users[author]
        assert user is not None
        record = new_story_record(user.id, draft, elements, publish=publish, at=at)
        if scheduled is not None and number >= first_working:
            later = timedelta(seconds=number - first_working)
            record.publish_at = format_timestamp(scheduled + later)
        slugs = taken.setdefault(author, set())
        record.slug = next_free_slug(derive_slug(record.title), slugs)
        slugs.add(record.slug)
        yield record, elements, story_words(record, elements)


def load(
    service: Service,
    data: DataSet,
    *,
    working: int = 0,
    scheduled: datetime | None = None,
    events: bool = False,
) -> float:
    """Make the data set's authors and stories; returns the seconds the stories took.

    The last ``working`` stories are loaded working whatever the data set says; with
    ``scheduled``, each of them is scheduled to publish, the first at ``scheduled`` and the
    next ones a second apart. With ``events``, each story is stored with the events its create
    reports (``story.created``, and ``story.published`` or ``story.scheduled``), built as the
    create builds them, all in the one transaction: a burst in the event log (docs/webhooks.md). The
    records are then built before the timing starts.
    """
    for name in data.author_names():
        if service.store.users.get_by_username(name) is None:
            service.accounts.create_user(name, name=name.title())
    records: Iterable[NewStory] = _records(service, data, working, scheduled)
    logged: list[Event] = []
    if events:
        records = list(records)
        users = [service.store.users.get_by_username(name) for name in data.author_names()]
        authors = {user.id: user for user in users if user is not None}
        for record, _, _ in records:
            row = CREATE_PUBLISHED if record.status == "published" else CREATE
            author = authors[record.author_id]
            logged += service.stories._commits.events(row, None, record, author, record.created)
    start = time.perf_counter()
    service.store.stories.add_many(records, events=logged)
    return time.perf_counter() - start
