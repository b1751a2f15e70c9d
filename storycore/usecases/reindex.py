"""Recomputing the stored derived data through the core (``storycore reindex``).

What a write derives (``storycore.model.derived``: a user's search tokens, a story's tags, topic
keys, title key, cover, counts and search words) is stored with the record, so that reads never
recompute it. When those rules change, ``DERIVATION_VERSION`` goes up, and what a store holds
from before is stale. ``reindex`` reads every user and story back through the ports and stores
what the current rules derive, with the writes the service itself makes, on every backend; then
it records the version in the store (``Store.set_derivation``). ``bring_up_to_date`` is the step
that does it when needed, once, before services open the store (``storycore.contrib.compose``
runs it where a deployment opens the store first; a host that builds ``Service`` itself calls
it at start-up); the command line calls ``reindex`` on demand.

A reindex is not an edit: a story keeps its version and its ``updated`` time, its elements and
its counters. A story changed while it runs (``StaleVersion``) was derived by its writer, and
one removed meanwhile (``Missing``) needs nothing: both are skipped. A reindex that stops half
way (a crash, an unavailable store) records nothing, so the next ``bring_up_to_date`` does it
again; doing it twice changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Missing, StaleVersion
from ..model.derived import (
    DERIVATION_VERSION,
    story_words,
    user_search_tokens,
    with_derived_members,
)
from ..ports import Store, StoryRepository, UserRepository
from ..rules.counts import counted

__all__ = ["Reindexed", "bring_up_to_date", "reindex"]

#: Users read per page.
_USER_PAGE = 500


@dataclass(frozen=True, slots=True)
class Reindexed:
    """What a reindex did: the users and stories it recomputed, the stories it skipped because
    they changed or went while it ran, and the derivation version it recorded.
    """

    users: int
    stories: int
    skipped: int
    version: int = DERIVATION_VERSION

    def __str__(self) -> str:
        """One line, as ``storycore reindex`` prints it."""
        skipped = f", skipped {self.skipped} changed meanwhile" if self.skipped else ""
        return (
            f"reindexed {counted(self.users, 'user')} and {counted(self.stories, 'story')}"
            f"{skipped} (derivation version {self.version})"
        )


def reindex(store: Store) -> Reindexed:
    """Recompute the derived members of every user and story of ``store``, then record
    ``DERIVATION_VERSION`` as the store's derivation.
    """
    users = _reindex_users(store.users)
    stories, skipped = _reindex_stories(store.stories)
    store.set_derivation(DERIVATION_VERSION)
    return Reindexed(users=users, stories=stories, skipped=skipped)


def bring_up_to_date(store: Store) -> Reindexed | None:
    """Bring ``store`` up to date, once, before services open it: nothing when its derivation
    is current (one read); mark an empty store current; reindex one written by an older
    version, or by an unknown one while it holds any user or story. A store written by a newer
    version is left alone: its rules are newer than these, and processes of both versions may
    share it during an upgrade.
    Returns the reindex's report, or None when none ran.
    """
    recorded = store.derivation()
    if recorded is not None and recorded >= DERIVATION_VERSION:
        return None
    if recorded is None and not _holds_records(store):
        store.set_derivation(DERIVATION_VERSION)
        return None
    return reindex(store)


def _holds_records(store: Store) -> bool:
    """Whether ``store`` holds any user or story (every story's author is a user, so the first
    read answers for a store the service wrote).
    """
    if store.users.find(0, 1):
        return True
    return next(iter(store.stories.iter_all()), None) is not None


def _reindex_users(users: UserRepository) -> int:
    """Store every user's search tokens as the current rules derive them, with a targeted
    update (a concurrent change of another member is kept). Returns how many users.
    """
    count = offset = 0
    while page := users.find(offset, _USER_PAGE):
        for user in page:
            try:
                users.update(user.id, {"search_tokens": user_search_tokens(user)})
            except Missing:
                continue
            count += 1
        offset += len(page)
    return count


def _reindex_stories(stories: StoryRepository) -> tuple[int, int]:
    """Store every story with its derived members and search words recomputed, at the version
    it has. Returns how many stories were recomputed and how many skipped.
    """
    done = skipped = 0
    for story, elements in stories.iter_all():
        derived = with_derived_members(story, elements)
        try:
            stories.replace(
                derived, expected_version=story.version, words=story_words(derived, elements)
            )
        except (StaleVersion, Missing):
            skipped += 1
            continue
        done += 1
    return done, skipped
