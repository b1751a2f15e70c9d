"""The story state machine against a plain-Python model, on every store.

A hypothesis ``RuleBasedStateMachine`` drives the ``Service`` (create working or published,
save with or without a version, publish, unpublish, delete, slug change, feature and unfeature,
private toggling, restores of revisions, reads by the owner, another user, an editor, a curator
and anonymous) with the testing kit's strategies, and after every step checks the model's
invariants: what each caller may see, versions that grow by one per change (``version_conflict``
otherwise, with nothing changed), ``date.published`` kept from the first publication, slugs
unique per author, every alias leading to its live story, every list holding exactly what its
caller may see, each item once however it is paged, and revisions (docs/api.md#revisions): a
story keeps what it was at each of its last ``REVISIONS`` versions and nothing older, a restore
brings back exactly a revision's title, description, thumbnail and elements, and only the
author and editors ever see a revision. Events (docs/webhooks.md): the events logged during
a step are exactly those its change reports, of its story, with the story as the service shows
it after the change (``story.deleted``: its sid, author and slug); a refused step logs none.

Each hypothesis example runs on a fresh store from ``store_factory``, once per backend.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    invariant,
    multiple,
    precondition,
    rule,
    run_state_machine_as_test,
)

from storycore import (
    Forbidden,
    InvalidParameter,
    InvalidSlug,
    NotFound,
    Service,
    SlugTaken,
    StorycoreError,
    StoryMoved,
    Unauthorized,
    VersionConflict,
    Viewer,
)
from storycore.model.shapes import Page
from storycore.ports import Store
from storycore.testing.rules import (
    ANONYMOUS,
    derive_slug,
    is_valid_slug,
    may_view,
    next_free_slug,
)
from storycore.testing.strategies import (
    ABSENT,
    DataSet,
    data_sets,
    elements,
    invalid_slugs,
    stories,
    story_members,
    titles,
    valid_slugs,
)
from storycore.usecases.catalog import Catalog
from storycore.usecases.events import MAX_EVENTS
from tests._log import at_least
from tests.conftest import TEST_SETTINGS

# every store keeps the model's invariants (many examples on each: long, started first)
pytestmark = [pytest.mark.every_backend, pytest.mark.long]

AUTHORS = ("alice", "bob")
#: what a restore takes from a revision: title, description, thumbnail, element documents
Content = tuple[str, str | None, str | None, tuple[str, ...]]
# "other" is the author's counterpart among AUTHORS; "curator" may feature, "editor" may not.
# The author is the likeliest caller, so that changes go through often.
ACTORS = st.sampled_from(["author", "author", "author", "editor", "other", "curator", "anonymous"])
# Small pools make collisions (taken slugs, derived slugs, reused slugs) likely.
SLUG_POOL = ["harbour", "harbour-2", "story", "fog"]
SLUGS = st.sampled_from([*SLUG_POOL, ""]).flatmap(lambda s: st.just(s) if s else valid_slugs())
TITLES = st.sampled_from(["Harbour", "harbour!", "Hårbour", "", "Fog", "x"]).flatmap(
    lambda t: st.just(t) if t != "x" else titles(max_size=40)
)
PER_PAGE = 2
# the revisions a story keeps: few, so that the oldest go often
REVISIONS = 3
SERVICE_SETTINGS = TEST_SETTINGS.model_copy(
    update={"limits": TEST_SETTINGS.limits.model_copy(update={"revisions": REVISIONS})}
)
MACHINE_SETTINGS = settings(
    max_examples=30,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@dataclass
class Modelled:
    """What the model knows of one story."""

    id: str
    author: str
    slug: str
    status: str
    private: bool
    version: int = 1
    published: str | None = None
    featured: bool = False
    modified: bool = False
    live: bool = True

    @property
    def public(self) -> bool:
        return self.live and self.status == "published" and not self.private


class StoryMachine(RuleBasedStateMachine):
    handles = Bundle("stories")

    def __init__(self, open_store: Callable[[], Store]) -> None:
        super().__init__()
        self.service = Service(open_store(), SERVICE_SETTINGS)
        accounts = self.service.accounts
        accounts.create_user("alice")
        accounts.create_user("bob")
        accounts.create_user("ed", editor=True)
        accounts.create_user("cora", can_feature=True)
        self.users = {name: accounts.as_user(name) for name in ("alice", "bob", "ed", "cora")}
        self.stories: list[Modelled] = []
        self.aliases: dict[tuple[str, str], Modelled] = {}
        self.addresses: list[tuple[str, str]] = []  # every (author, slug) that ever held a story
        # what a restore takes, of every version each story had: id -> version -> content
        self.contents: dict[str, dict[int, Content]] = {}
        # the events the current step's change reports, and where the log stood before it
        self.reports: list[tuple[str, Modelled]] = []
        self.cursor = self.service.events.end()

    # -- the model ----------------------------------------------------------------------------

    def viewer(self, actor: str, author: str) -> Viewer:
        if actor == "anonymous":
            return ANONYMOUS
        name = {
            "author": author,
            "other": "bob" if author == "alice" else "alice",
            "editor": "ed",
            "curator": "cora",
        }[actor]
        return self.users[name]

    def live_at(self, author: str, slug: str) -> Modelled | None:
        for story in self.stories:
            if story.live and story.author == author and story.slug == slug:
                return story
        return None

    def live_slugs(self, author: str) -> set[str]:
        return {s.slug for s in self.stories if s.live and s.author == author}

    @staticmethod
    def sees(actor: str, story: Modelled) -> bool:
        return story.public or actor in ("author", "editor")

    def refusal(self, actor: str, story: Modelled | None) -> type[StorycoreError] | None:
        """What a change of ``story`` by ``actor`` is refused with, before its own checks."""
        if actor == "anonymous":
            return Unauthorized
        if story is None or not self.sees(actor, story):
            return NotFound
        if actor not in ("author", "editor"):
            return Forbidden
        return None

    def moved(self, story: Modelled, old_slug: str) -> None:
        """``story`` left ``old_slug``: the old slug is its alias; its new slug is no alias."""
        self.aliases.pop((story.author, story.slug), None)
        if old_slug != story.slug:
            self.aliases[(story.author, old_slug)] = story
            self.remember(story)

    def report(self, story: Modelled, *types: str) -> None:
        """The step's change of ``story`` reports ``types``, in this order."""
        self.reports += [(kind, story) for kind in types]

    def remember(self, story: Modelled) -> None:
        if (story.author, story.slug) not in self.addresses:
            self.addresses.append((story.author, story.slug))

    @staticmethod
    def attempt(action: str, expected: type[StorycoreError] | None, call: Callable[[], Any]) -> Any:
        """``call``'s result when ``expected`` is None; otherwise check it raises exactly that.

        Each outcome is a hypothesis event (``--hypothesis-show-statistics`` counts them).
        """
        event(f"{action}: {expected.__name__ if expected else 'done'}")
        try:
            result = call()
        except StorycoreError as exc:
            raised: StorycoreError | None = exc
        else:
            raised = None
        assert type(raised) is (expected or type(None)), f"expected {expected}, got {raised!r}"
        return None if raised else result

    # -- writes -------------------------------------------------------------------------------

    @rule(
        target=handles,
        author=st.sampled_from(AUTHORS),
        actor=st.sampled_from(["author", "author", "author", "editor", "other", "anonymous"]),
        new=stories(
            title=TITLES,
            slug=st.just(ABSENT) | SLUGS,
            elements=st.just(ABSENT) | elements(max_size=2),
            description=ABSENT,
        ),
    )
    def create(self, author: str, actor: str, new: Any) -> Any:
        slug = new.story.get("slug")
        taken = self.live_slugs(author)
        expected: type[StorycoreError] | None = None
        if actor == "anonymous":
            expected = Unauthorized
        elif actor == "other":
            expected = Forbidden
        elif slug in taken:
            expected = SlugTaken
        created = self.attempt(
            "create",
            expected,
            lambda: self.service.stories.create(
                author, new.story, viewer=self.viewer(actor, author), publish=new.publish
            ),
        )
        if created is None:
            return multiple()
        want = slug or next_free_slug(derive_slug(new.story.get("title", "")), taken)
        assert created.slug == want
        assert created.status == ("published" if new.publish else "working")
        assert created.private == new.private
        record = self.service.store.stories.get(created.id)
        assert record is not None
        assert record.published == (record.created if new.publish else None)
        story = Modelled(
            id=created.id,
            author=author,
            slug=want,
            status=created.status,
            private=new.private,
            published=record.published,
        )
        self.aliases.pop((author, want), None)  # a new story may take a retired slug
        self.stories.append(story)
        self.remember(story)
        self.report(story, "story.created", *(["story.published"] if new.publish else []))
        return story

    def _change(
        self,
        story: Modelled,
        actor: str,
        version: str,
        members: dict[str, Any],
        *,
        publish: bool,
    ) -> None:
        target = self.live_at(story.author, story.slug)
        expected = self.refusal(actor, target)
        sent_version = None
        if target is not None and version != "none":
            sent_version = target.version + (0 if version == "current" else 3)
        new_slug = members.get("slug")
        if expected is None and target is not None:
            if sent_version is not None and sent_version != target.version:
                expected = VersionConflict
            elif new_slug and new_slug != target.slug and new_slug in self.live_slugs(story.author):
                expected = SlugTaken
        stories_api = self.service.stories
        viewer = self.viewer(actor, story.author)
        if publish:
            call: Callable[[], Any] = lambda: stories_api.publish(  # noqa: E731
                story.author, story.slug, members, viewer=viewer, version=sent_version
            )
        else:
            call = lambda: stories_api.save(  # noqa: E731
                story.author, story.slug, members, viewer=viewer, version=sent_version
            )
        detail = self.attempt("publish" if publish else "save", expected, call)
        if detail is None:
            return
        assert target is not None
        old_slug = target.slug
        target.version += 1
        target.slug = new_slug or target.slug
        target.private = members.get("private", target.private)
        if publish:
            target.status = "published"
            target.modified = False
            if target.published is None:
                record = self.service.store.stories.get(target.id)
                assert record is not None
                assert record.published is not None
                target.published = record.published
        else:
            target.modified = target.status == "published"
        self.moved(target, old_slug)
        self.report(target, "story.published" if publish else "story.saved")
        assert (detail.slug, detail.status, detail.private) == (
            target.slug,
            target.status,
            target.private,
        )

    @rule(
        story=handles,
        actor=ACTORS,
        version=st.sampled_from(["none", "current", "stale"]),
        members=story_members(
            title=st.just(ABSENT) | TITLES,
            slug=st.just(ABSENT) | SLUGS,
            description=ABSENT,
            thumbnail=ABSENT,
            elements=ABSENT,
            topics=ABSENT,
            hashtags=ABSENT,
        ),
    )
    def save(self, story: Modelled, actor: str, version: str, members: dict[str, Any]) -> None:
        self._change(story, actor, version, members, publish=False)

    @rule(story=handles, actor=ACTORS, private=st.booleans())
    def set_private(self, story: Modelled, actor: str, private: bool) -> None:
        self._change(story, actor, "none", {"private": private}, publish=False)

    @rule(
        story=handles,
        actor=ACTORS,
        members=story_members(
            slug=ABSENT,
            private=ABSENT,
            topics=ABSENT,
            hashtags=ABSENT,
            elements=elements(max_size=2),
        ),
    )
    def save_content(self, story: Modelled, actor: str, members: dict[str, Any]) -> None:
        """A save of what a restore brings back: title, description, thumbnail, elements."""
        self._change(story, actor, "none", members, publish=False)

    @precondition(lambda self: any(story.version > 1 for story in self.stories))
    @rule(
        data=st.data(),
        actor=st.sampled_from(["author", "author", "author", "editor", "other", "anonymous"]),
        version=st.sampled_from(["current", "current", "current", "none", "stale"]),
        back=st.sampled_from([1, 1, 2, REVISIONS, 0, REVISIONS + 1]),
    )
    def restore(self, data: st.DataObject, actor: str, version: str, back: int) -> None:
        """A restore of a story that was changed, of the revision ``back`` versions before the
        current one (0: the current version, which is no revision; more than ``REVISIONS``:
        one dropped)."""
        changed = [story for story in self.stories if story.version > 1]
        story = data.draw(st.sampled_from(changed), label="story")
        target = self.live_at(story.author, story.slug)
        current = target.version if target is not None else story.version
        revision = max(1, current - back)
        expected: type[StorycoreError] | None = None
        if version == "none":
            expected = InvalidParameter
        elif target is None or actor not in ("author", "editor"):
            expected = NotFound  # for anyone else a story's revisions do not exist
        elif version == "stale":
            expected = VersionConflict
        elif not current - REVISIONS <= revision < current:
            expected = NotFound
        sent = None if version == "none" else current + (3 if version == "stale" else 0)
        viewer = self.viewer(actor, story.author)
        detail = self.attempt(
            "restore",
            expected,
            lambda: self.service.revisions.restore(
                story.author, story.slug, revision, viewer=viewer, version=sent
            ),
        )
        if detail is None:
            return
        assert target is not None
        target.version += 1
        target.modified = target.status == "published"
        self.report(target, "story.restored")
        assert (detail.slug, detail.status, detail.version) == (
            target.slug,
            target.status,
            target.version,
        )
        assert self.content_of(target.id)[1] == self.contents[target.id][revision]

    @rule(
        story=handles,
        actor=ACTORS,
        version=st.sampled_from(["none", "current", "stale"]),
        members=st.just({}) | story_members(slug=st.just(ABSENT) | SLUGS, elements=ABSENT),
    )
    def publish(self, story: Modelled, actor: str, version: str, members: dict[str, Any]) -> None:
        self._change(story, actor, version, members, publish=True)

    def _act(
        self, action: str, story: Modelled, actor: str, then: Callable[[Modelled, Any], None]
    ) -> None:
        """``service.stories.<action>(author, slug)`` as ``actor``, refused as the model says;
        when it goes through, ``then(live story, answer)`` updates the model.
        """
        target = self.live_at(story.author, story.slug)
        viewer = self.viewer(actor, story.author)
        call = getattr(self.service.stories, action)
        answer = self.attempt(
            action,
            self.refusal(actor, target),
            lambda: call(story.author, story.slug, viewer=viewer),
        )
        if answer is not None:
            assert target is not None
            then(target, answer)

    @rule(story=handles, actor=ACTORS)
    def unpublish(self, story: Modelled, actor: str) -> None:
        self._act("unpublish", story, actor, self._unpublished)

    def _unpublished(self, target: Modelled, detail: Any) -> None:
        if target.status == "published":  # a working story is left as it is: no event
            target.status = "working"
            target.modified = False
            target.version += 1
            self.report(target, "story.unpublished")
        assert detail.status == "working"

    @rule(story=handles, actor=ACTORS)
    def delete(self, story: Modelled, actor: str) -> None:
        self._act("delete", story, actor, self._deleted)

    def _deleted(self, target: Modelled, deleted: Any) -> None:
        assert deleted.sid == target.id
        target.live = False
        self.report(target, "story.deleted")
        for address in [a for a, s in self.aliases.items() if s is target]:
            del self.aliases[address]

    @rule(story=handles, actor=ACTORS, new_slug=SLUGS | invalid_slugs())
    def change_slug(self, story: Modelled, actor: str, new_slug: str) -> None:
        target = self.live_at(story.author, story.slug)
        expected = self.refusal(actor, target)
        if expected is None and target is not None:
            if not is_valid_slug(new_slug):
                expected = InvalidSlug
            elif new_slug != target.slug and new_slug in self.live_slugs(story.author):
                expected = SlugTaken
        viewer = self.viewer(actor, story.author)
        changed = self.attempt(
            "editslug",
            expected,
            lambda: self.service.stories.change_slug(
                story.author, story.slug, new_slug, viewer=viewer
            ),
        )
        if changed is None:
            return
        assert target is not None
        if new_slug != target.slug:
            old_slug, target.slug = target.slug, new_slug
            target.version += 1
            self.moved(target, old_slug)
            self.report(target, "story.slug_changed")  # to the same slug: nothing changes
        assert (changed.slug, changed.version) == (target.slug, target.version)

    @rule(story=handles, actor=ACTORS, on=st.booleans())
    def feature(self, story: Modelled, actor: str, on: bool) -> None:
        target = self.live_at(story.author, story.slug)
        expected: type[StorycoreError] | None = None
        if actor == "anonymous":
            expected = Unauthorized
        elif target is None or not self.sees(actor, target):
            expected = NotFound
        elif actor != "curator":
            expected = Forbidden
        stories_api = self.service.stories
        action = stories_api.feature if on else stories_api.unfeature
        viewer = self.viewer(actor, story.author)
        summary = self.attempt(
            "feature" if on else "unfeature",
            expected,
            lambda: action(story.author, story.slug, viewer=viewer),
        )
        if summary is None:
            return
        assert target is not None
        target.featured = on

    # -- reads --------------------------------------------------------------------------------

    def _read(self, author: str, slug: str, actor: str) -> None:
        target = self.live_at(author, slug)
        moved_to = self.aliases.get((author, slug))
        if target is not None and self.sees(actor, target):
            expected: type[StorycoreError] | None = None
        elif target is None and moved_to is not None and self.sees(actor, moved_to):
            expected = StoryMoved
        else:
            expected = NotFound
        event(f"read: {expected.__name__ if expected else 'done'}")
        try:
            reading = self.service.stories.open(author, slug, viewer=self.viewer(actor, author))
        except StorycoreError as exc:
            raised: StorycoreError | None = exc
        else:
            raised = None
        assert type(raised) is (expected or type(None)), f"expected {expected}, got {raised!r}"
        if isinstance(raised, StoryMoved):
            assert moved_to is not None
            assert (raised.username, raised.slug) == (author, moved_to.slug)
        if raised is None:
            assert target is not None
            detail = reading.detail
            assert (detail.id, detail.slug, detail.status, detail.private) == (
                target.id,
                target.slug,
                target.status,
                target.private,
            )
            assert reading.version == target.version

    @rule(story=handles, actor=ACTORS)
    def read(self, story: Modelled, actor: str) -> None:
        self._read(story.author, story.slug, actor)

    @precondition(lambda self: self.addresses)
    @rule(data=st.data(), actor=ACTORS)
    def read_any_address(self, data: st.DataObject, actor: str) -> None:
        """Old slugs (aliases), slugs of deleted stories, slugs taken again."""
        author, slug = data.draw(st.sampled_from(self.addresses), label="address")
        self._read(author, slug, actor)

    @rule(story=handles, page=st.sampled_from([None, "https://a.example/", "https://b.example/"]))
    def count_views(self, story: Modelled, page: str | None) -> None:
        """Views as the service writes them, from a page embedding the story or not; a story
        keeps two pages here, so that a new page drops one."""
        loads = {(story.id, page): 1} if page is not None else {}
        self.service.store.stories.add_views({story.id: 1}, loads, max_embed_pages=2)

    # -- invariants ---------------------------------------------------------------------------

    @invariant()
    def the_step_logged_exactly_the_events_of_its_change(self) -> None:
        """Since the last step: the events the model says its change reports, in order, each
        of its story as the service now shows it to the author (the events of one change all
        show the story after it); none for a refused step, a read or a feature."""
        expected, self.reports = self.reports, []
        cursor = self.cursor
        logged = at_least(lambda: self.service.events.after(cursor, MAX_EVENTS), len(expected))
        if logged:
            self.cursor = logged[-1].cursor
        assert [(item.event.type, item.event.subject) for item in logged] == [
            (kind, story.id) for kind, story in expected
        ]
        for item, (kind, story) in zip(logged, expected, strict=True):
            data = orjson.loads(item.event.data)
            if kind == "story.deleted":
                assert data == {"sid": story.id, "username": story.author, "slug": story.slug}
                continue
            shown = self.service.stories.open(
                story.author, story.slug, viewer=self.users[story.author], count_view=False
            ).detail
            assert (data["sid"], data["version"], data["slug"], data["status"]) == (
                shown.id,
                shown.version,
                shown.slug,
                shown.status,
            )
            assert (data["publish_at"], data["private"]) == (shown.publish_at, shown.private)
            assert data["version"] == story.version

    @invariant()
    def stored_stories_are_the_models(self) -> None:
        for story in self.stories:
            record = self.service.store.stories.get(story.id)
            if not story.live:
                assert record is None
                continue
            assert record is not None
            stored = (
                record.slug,
                record.status,
                record.private,
                record.version,
                record.modified,
                record.featured_at is not None,
                record.published,
            )
            assert stored == (
                story.slug,
                story.status,
                story.private,
                story.version,
                story.modified,
                story.featured,
                story.published,
            )
            assert may_view(ANONYMOUS, record) == story.public

    def content_of(self, story_id: str) -> tuple[int, Content]:
        """The stored story's version, and what a restore would take of it."""
        stories = self.service.store.stories
        record = stories.get(story_id)
        assert record is not None
        documents = tuple(stories.element_documents(story_id, 0, 1000))
        return record.version, (record.title, record.description, record.thumbnail, documents)

    @invariant()
    def revisions_are_what_the_story_was_at_its_last_versions(self) -> None:
        revisions = self.service.store.revisions
        for story in self.stories:
            if not story.live:
                assert revisions.count(story.id) == 0  # gone with the story
                continue
            version, content = self.content_of(story.id)
            # no step makes two versions: every version a story had was seen here
            assert self.contents.setdefault(story.id, {}).setdefault(version, content) == content
            kept = [head.version for head in revisions.heads(story.id, 0, REVISIONS + 5)]
            assert kept == list(range(version - 1, max(version - 1 - REVISIONS, 0), -1))
            for number in kept:
                revision = revisions.get(story.id, number)
                assert revision is not None
                record = revision.record
                as_was = (record.title, record.description, record.thumbnail, revision.elements)
                assert as_was == self.contents[story.id][number]

    @invariant()
    def revisions_show_to_no_one_but_the_author_and_editors(self) -> None:
        for story in self.stories:
            if not story.live:
                continue
            for actor in ("author", "editor", "other", "curator", "anonymous"):
                viewer = self.viewer(actor, story.author)
                try:
                    self.service.revisions.list(story.author, story.slug, viewer=viewer)
                except NotFound:
                    assert actor not in ("author", "editor")
                else:
                    assert actor in ("author", "editor")

    @invariant()
    def author_stats_are_those_of_their_public_stories(self) -> None:
        """Where a store keeps them as counters, they follow every change of its stories."""
        # the views reads counted, written now: written by the service's own writer (once a
        # second) between the two reads below, they made the counters and the records differ
        self.service.flush_views()
        stored = self.service.store.stories
        for author in AUTHORS:
            author_id = self.users[author].user.id  # type: ignore[union-attr]
            public = [stored.get(s.id) for s in self.stories if s.public and s.author == author]
            records = [record for record in public if record is not None]
            pages = stored.embeds(record.id for record in records)
            stats = stored.author_stats([author_id])[author_id]
            assert (stats.stories, stats.views, stats.embeds, stats.last_story) == (
                len(records),
                sum(record.views for record in records),
                sum(page.views for record in records for page in pages.get(record.id, [])),
                max((record.created for record in records), default=None),
            )

    @invariant()
    def slugs_are_unique_per_author(self) -> None:
        for author in AUTHORS:
            slugs = [s.slug for s in self.stories if s.live and s.author == author]
            assert len(slugs) == len(set(slugs))

    @invariant()
    def every_alias_leads_to_its_live_story(self) -> None:
        stories = self.service.store.stories
        for author, slug in self.addresses:
            author_id = self.users[author].user.id  # type: ignore[union-attr]
            moved_to = self.aliases.get((author, slug))
            found = stories.get_by_slug(author_id, slug)
            left = found.id if found is not None and found.slug != slug else None
            assert left == (moved_to.id if moved_to else None)
            assert moved_to is None or moved_to.live

    @invariant()
    def lists_hold_exactly_what_each_caller_may_see(self) -> None:
        catalog = self.service.catalog
        public = {s.id for s in self.stories if s.public}
        assert _walk(lambda page: catalog.latest(page=page, per_page=PER_PAGE)) == public
        featured = {s.id for s in self.stories if s.public and s.featured}
        assert _walk(lambda page: catalog.featured(page=page, per_page=PER_PAGE)) == featured
        for author in AUTHORS:
            theirs = [s for s in self.stories if s.live and s.author == author]
            for actor in ("author", "editor", "other", "anonymous"):
                viewer = self.viewer(actor, author)
                listed = _walk(_user_pages(catalog, author, viewer))
                assert listed == {s.id for s in theirs if self.sees(actor, s)}


def _user_pages(
    catalog: Catalog[Any, Any], username: str, viewer: Viewer
) -> Callable[[int], Page[Any]]:
    """The pages of a user's list as ``viewer`` sees them, by number."""
    return lambda page: catalog.user(username, viewer=viewer, page=page, per_page=PER_PAGE)


def _walk(list_page: Callable[[int], Page[Any]]) -> set[str]:
    """The ids on every page of a list, checking that none comes twice."""
    seen: list[str] = []
    page = 1
    while True:
        answer = list_page(page)
        seen += [item.id for item in answer.items]
        if not answer.has_next:
            break
        page += 1
    assert len(seen) == len(set(seen)), "an item came twice"
    return set(seen)


def test_the_story_state_machine_keeps_its_invariants(
    store_factory: Callable[[], Store],
) -> None:
    class OnFreshStores(StoryMachine):
        """The machine on a fresh store per example: a class, as hypothesis's annotation of
        ``run_state_machine_as_test`` asks (6.170; earlier ones leave it unannotated)."""

        def __init__(self) -> None:
            super().__init__(store_factory)

    run_state_machine_as_test(  # type: ignore[no-untyped-call, unused-ignore]
        OnFreshStores, settings=MACHINE_SETTINGS
    )


def test_a_loaded_data_set_lists_exactly_its_public_stories(
    store_factory: Callable[[], Store],
) -> None:
    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data_sets(max_stories=6))
    def check(data: DataSet) -> None:
        service = Service(store_factory(), TEST_SETTINGS)
        created = data.load(service)
        public = {c.id for c, (_, new) in zip(created, data.stories, strict=True) if new.public}
        catalog = service.catalog
        assert _walk(lambda page: catalog.latest(page=page, per_page=PER_PAGE)) == public

    check()
