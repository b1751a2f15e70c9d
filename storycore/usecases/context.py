"""What every part of the service shares, and the lookups they all start with."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field

from ..clocks import Clock
from ..errors import Forbidden, NotFound, StoryMoved, Unauthorized
from ..model.kept import NOTHING_KEPT, KeptPictures
from ..model.pagination import PageRequest
from ..model.records import StoryRecord, UserRecord
from ..model.resolvers import ElementResolver
from ..model.shown_pictures import Shown
from ..model.visibility import Viewer, can_edit, can_see
from ..ports import Store
from ..presentation.presenters import Presenter
from ..rules.keeping import SEEN_LATELY
from ..rules.timestamps import format_timestamp
from ..settings import Settings
from ._page_pictures import PagePictures
from .viewcounts import ViewCounts

__all__ = ["Context"]


@dataclass(frozen=True, slots=True)
class Context:
    """The store, settings, resolver, presenter and clock of one service, its view counts and
    the pictures of the pages of stories it showed."""

    store: Store
    settings: Settings
    resolver: ElementResolver
    presenter: Presenter
    views: ViewCounts
    clock: Clock
    pictures: PagePictures = field(default_factory=PagePictures)

    def now(self) -> str:
        """The current time on the service's clock, as the service writes timestamps."""
        return format_timestamp(self.clock.now())

    def want_pictures(
        self, addresses: Callable[[], Collection[str]], story: str | None = None
    ) -> None:
        """Queue the pictures a write brings (``addresses`` finds them, only when keeping is
        on), of the story ``story`` (an id) or of none, for the keeper: one store call, and none
        when there are none or keeping is off (docs/media.md#how-pictures-are-kept)."""
        if not self.settings.keeps_media:
            return
        wanted = addresses()
        if wanted:
            now = self.clock.now()
            stale = format_timestamp(now - SEEN_LATELY)
            self.store.kept_sources.want(wanted, format_timestamp(now), story, stale)

    def kept_pictures(self, shown: Iterable[Shown]) -> KeptPictures:
        """The kept copies of the pictures an answer shows (``shown``: every picture of the
        answer, as ``model.shown_pictures`` finds them): one store read for the whole answer,
        and none when it shows no picture (docs/media.md#where-kept-pictures-show)."""
        addresses = list(dict.fromkeys(address for _, address in shown))
        if not addresses:
            return NOTHING_KEPT
        return KeptPictures.of(self.store.kept_sources.get_many(addresses).values())

    def page(self, page: int | str | None, per_page: int | str | None) -> PageRequest:
        """The page a list asks for, under the service's page limits (docs/api.md#pagination)."""
        limits = self.settings.limits
        return PageRequest.parse(
            page, per_page, default_per_page=limits.per_page_default, max_per_page=limits.per_page
        )

    def user_named(self, username: str) -> UserRecord:
        """The user with this username (any case), or ``NotFound``."""
        return self.found_user(username, self.store.users.get_by_username(username))

    @staticmethod
    def found_user(username: str, user: UserRecord | None) -> UserRecord:
        """``user``, read by ``username``, or ``NotFound`` when there was none."""
        if user is None:
            raise NotFound(f"there is no user {username!r}")
        return user

    @staticmethod
    def require_user(viewer: Viewer) -> UserRecord:
        """The calling user, or ``Unauthorized`` for an anonymous caller."""
        if viewer.user is None:
            raise Unauthorized("this operation needs api_key, username and _token")
        return viewer.user

    def visible_story(
        self, viewer: Viewer, username: str, slug: str, *, follow_alias: bool = False
    ) -> tuple[UserRecord, StoryRecord]:
        """The author and the story at ``username/slug`` as ``viewer`` may see it.

        A story the viewer may not see does not exist (``NotFound``). With ``follow_alias``, a
        retired slug of a story the viewer may see raises ``StoryMoved`` to its new slug.
        """
        author = self.user_named(username)
        story = self.store.stories.get_by_slug(author.id, slug)
        return author, self._judged(viewer, author, slug, story, follow_alias=follow_alias)

    def found_story(
        self,
        viewer: Viewer,
        author: UserRecord,
        slug: str,
        story: StoryRecord | None,
        *,
        follow_alias: bool = False,
    ) -> StoryRecord:
        """``story``, read at ``author``'s ``slug`` by ``Store.read_story`` (the story that
        lives there, or None), as ``visible_story`` checks it. With ``follow_alias``, a slug
        no story lives at is looked up again, for the story that left it (a story that came
        to live there since is not the one read: not found, as the read said)."""
        if story is None and follow_alias:
            moved = self.store.stories.get_by_slug(author.id, slug)
            story = moved if moved is not None and moved.slug != slug else None
        return self._judged(viewer, author, slug, story, follow_alias=follow_alias)

    @staticmethod
    def _judged(
        viewer: Viewer,
        author: UserRecord,
        slug: str,
        story: StoryRecord | None,
        *,
        follow_alias: bool,
    ) -> StoryRecord:
        """``story``, as ``StoryRepository.get_by_slug`` answered it for ``slug``, if
        ``viewer`` may see it: a story that left ``slug`` raises ``StoryMoved`` with
        ``follow_alias``, else is not there."""
        if story is not None and story.slug != slug:  # ``slug`` is a retired slug of it
            if follow_alias and can_see(viewer, story):
                raise StoryMoved(author.username, story.slug)
            story = None
        if story is None or not can_see(viewer, story):
            raise NotFound(f"{author.username} has no story at {slug!r}")
        return story

    def revisable_story(
        self, viewer: Viewer, username: str, slug: str
    ) -> tuple[UserRecord, StoryRecord]:
        """The story at ``username/slug`` if ``viewer`` may see and restore its revisions: the
        author and editors, as for ``editable_story``; for anyone else there is no such story
        to ask about (``NotFound``, docs/api.md#revisions), anonymous callers included.
        """
        author, story = self.visible_story(viewer, username, slug)
        if not can_edit(viewer, story):
            raise NotFound(f"{author.username} has no story at {slug!r} whose revisions you see")
        return author, story

    def editable_story(
        self, viewer: Viewer, username: str, slug: str
    ) -> tuple[UserRecord, StoryRecord]:
        """The story at ``username/slug`` if ``viewer`` may change it.

        Anonymous: ``Unauthorized``; cannot see it: ``NotFound``; sees it but may not change
        it: ``Forbidden`` (docs/api.md).
        """
        self.require_user(viewer)
        author, story = self.visible_story(viewer, username, slug)
        if not can_edit(viewer, story):
            raise Forbidden(f"only the author or an editor may change {author.username}/{slug}")
        return author, story
