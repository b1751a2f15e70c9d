"""The editor's pages in each state a writer meets them (docs/editor.md#quality), made through
the service on a real server, for the browser tests that measure them.

``STATES`` maps a state's name to a function that prepares its data and says what to open:
the path, who is signed in, what the browser does there first (submit a form), the status the
page answers and a selector of what the state shows. A state of a page whose route is not in
the route table (``storycore.http.table.TABLE``) yet skips, saying which; once the route is
there it runs as written. A new page's states go into ``STATES``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from storycore import Service
from storycore.contrib.demo import load_demo
from storycore.http.editor.sessions import SESSION_COOKIE
from storycore.http.table import TABLE
from storycore.model.visibility import Viewer
from storycore.rules import paths
from storycore.rules.paths import filled

__all__ = ["STATES", "WRITER", "Opened", "World", "routed"]

#: The writer whose stories the states show; the demo's ``alice`` lends her story's elements.
WRITER = "writer"
#: A writer without a story.
NEWCOMER = "newcomer"
#: A writer whose desk holds a story of each state.
DESKED = "desked"
#: Where the demo keeps a story with every kind of element.
DEMO_AUTHOR = "alice"


def password_of(username: str) -> str:
    return f"{username}-password"


def routed(name: str, method: str = "GET") -> bool:
    """Whether the route table answers ``method`` at the path ``storycore.rules.paths.<name>``."""
    template = getattr(paths, name, None)
    return any(route.template == template and route.method == method for route in TABLE)


def _needs(name: str, method: str = "GET") -> None:
    if not routed(name, method):
        pytest.skip(f"no {method} {name} route in storycore.http.table.TABLE yet")


@dataclass(frozen=True)
class Opened:
    """What a state opens: ``path`` as ``user`` (None: signed out), then ``then`` done on the
    page; the page answers ``status`` and shows ``shows`` (a CSS selector)."""

    path: str
    user: str | None = WRITER
    then: Callable[[Any], None] | None = None
    status: int = 200
    shows: str = "main h1"


@dataclass
class World:
    """The server's service and address, on the demo's data and the states' writers."""

    service: Service
    base: str

    @classmethod
    def made_on(cls, service: Service, base: str) -> World:
        load_demo(service, stories=1, web_url=base)
        for username in (WRITER, NEWCOMER, DESKED):
            service.accounts.create_user(username, password_of(username), name=username.title())
        return cls(service, base)

    def viewer(self, username: str = WRITER) -> Viewer:
        return self.service.accounts.as_user(username)

    def session(self, username: str) -> dict[str, str]:
        """A browser cookie of a new session of ``username``."""
        token = self.service.accounts.sign_in(username, password_of(username))
        return {"name": SESSION_COOKIE, "value": token, "url": self.base}

    def demo_elements(self) -> list[dict[str, Any]]:
        """The elements of the demo's story: text, two quotes, an image, a link, a video and
        another page, resolved, with their pictures on this server."""
        viewer = self.viewer(DEMO_AUTHOR)
        slug = self.service.catalog.user(DEMO_AUTHOR, viewer=viewer).items[0].slug
        edited = self.service.stories.edited(DEMO_AUTHOR, slug, viewer=viewer)
        return [
            element.model_dump(mode="json", exclude={"id", "added_at"})
            for element in edited.elements
        ]

    def every_kind(self) -> list[Any]:
        """An element of every kind: the demo's, an unresolved quote and an image without a
        caption."""
        elements = self.demo_elements()
        picture = next(element for element in elements if element["type"] == "image")
        uncaptioned = {**picture, "data": {"image": {**picture["data"]["image"], "caption": ""}}}
        unresolved = "https://socialA.example/harbour_watch/status/77"
        return [*elements, unresolved, uncaptioned]

    def story(self, title: str, elements: list[Any] | None = None, **members: Any) -> str:
        """A new working story of ``WRITER``'s: its slug."""
        story = {"title": title, "elements": elements or [], **members}
        created = self.service.stories.create(WRITER, story, viewer=self.viewer())
        return created.slug

    def path(self, template: str, slug: str, **query: str) -> str:
        path = filled(template, username=WRITER, slug=slug)
        return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def _press(page: Any, name: str) -> None:
    """Presses the button named ``name`` and waits for the page it leads to."""
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).click()


# -- the sign-in page and the desk -------------------------------------------------------------


def sign_in(world: World) -> Opened:
    return Opened(paths.SIGN_IN, user=None)


def sign_in_refused(world: World) -> Opened:
    def wrong_password(page: Any) -> None:
        page.get_by_label("Username").fill(WRITER)
        page.get_by_label("Password").fill("not-the-password")
        _press(page, "Sign in")

    return Opened(
        paths.SIGN_IN, user=None, then=wrong_password, status=401, shows=".problem-summary"
    )


def empty_desk(world: World) -> Opened:
    return Opened(paths.DESK, user=NEWCOMER, shows=".empty")


def desk_with_stories(world: World) -> Opened:
    viewer = world.viewer(DESKED)
    stories = world.service.stories
    stories.create(DESKED, {"title": "Fog in the harbour"}, viewer=viewer)
    stories.create(DESKED, {"title": "Night market", "private": True}, viewer=viewer)
    later = datetime.now(UTC) + timedelta(days=3)
    scheduled = stories.create(DESKED, {"title": "Tides of March"}, viewer=viewer)
    stories.publish(DESKED, scheduled.slug, viewer=viewer, publish_at=later)
    stories.create(DESKED, {"title": "The ferries run again"}, viewer=viewer, publish=True)
    return Opened(paths.DESK, user=DESKED, shows=".status-scheduled")


# -- the editor ---------------------------------------------------------------------------------


def empty_story(world: World) -> Opened:
    return Opened(world.path(paths.EDITOR, world.story("")), shows=".empty")


def every_element_kind(world: World) -> Opened:
    slug = world.story("Every kind", world.every_kind(), description="All of them.")
    return Opened(world.path(paths.EDITOR, slug), shows=".editor-flag")


def refused_save(world: World) -> Opened:
    def too_long_title(page: Any) -> None:
        page.get_by_label("Title", exact=True).fill("T" * 201)
        _press(page, "Save")

    slug = world.story("Refused", world.demo_elements()[:3])
    return Opened(
        world.path(paths.EDITOR, slug), then=too_long_title, status=400, shows="#title-problem"
    )


def conflict(world: World) -> Opened:
    slug = world.story("Mine", world.demo_elements()[:3])

    def saved_meanwhile(page: Any) -> None:
        page.get_by_label("Title", exact=True).fill("Mine, changed")
        edited = world.service.stories.edited(WRITER, slug, viewer=world.viewer())
        kept = [
            element.model_dump(mode="json", exclude={"added_at"}) for element in edited.elements
        ]
        theirs = {"title": "Theirs", "elements": [*world.demo_elements()[3:5], *kept]}
        world.service.stories.save(WRITER, slug, theirs, viewer=world.viewer())
        _press(page, "Save")

    return Opened(
        world.path(paths.EDITOR, slug), then=saved_meanwhile, status=409, shows=".conflict"
    )


def address_shown(world: World) -> Opened:
    def show(page: Any) -> None:
        page.get_by_label("Address", exact=True).fill("https://socialA.example/porto_news/status/9")
        _press(page, "Show it")

    slug = world.story("Adding", world.demo_elements()[:2])
    return Opened(world.path(paths.EDITOR, slug), then=show, shows="#add-preview")


def sources_found(world: World) -> Opened:
    def find(page: Any) -> None:
        page.get_by_label("Words", exact=True).fill("ferries")
        _press(page, "Find sources")

    slug = world.story("Sourcing")
    return Opened(world.path(paths.EDITOR, slug), then=find, shows=".editor-source")


# -- the pages that land later: each skips until its route is in the table -----------------------


def schedule_set(world: World) -> Opened:
    _needs("SCHEDULE", "POST")
    slug = world.story("Scheduled", world.demo_elements()[:2])
    later = datetime.now(UTC) + timedelta(days=2)
    world.service.stories.publish(WRITER, slug, viewer=world.viewer(), publish_at=later)
    return Opened(world.path(paths.EDITOR, slug), shows=".status-scheduled")


def publishing_refused(world: World) -> Opened:
    _needs("SCHEDULE", "POST")

    def schedule_without_a_date(page: Any) -> None:
        _press(page, "Schedule")

    slug = world.story("Unscheduled", world.demo_elements()[:2])
    return Opened(
        world.path(paths.EDITOR, slug),
        then=schedule_without_a_date,
        status=400,
        shows=".problem-summary",
    )


def published_story(world: World) -> Opened:
    _needs("PUBLISH", "POST")
    slug = world.story("Published", world.demo_elements()[:2])
    world.service.stories.publish(WRITER, slug, viewer=world.viewer())
    return Opened(world.path(paths.EDITOR, slug), shows=".status-published")


def delete_confirmation(world: World) -> Opened:
    _needs("DELETE")
    slug = world.story("Doomed", world.demo_elements()[:2])
    return Opened(world.path(paths.DELETE, slug), shows="button.danger")


def _revised(world: World, title: str) -> str:
    """A story saved twice after it was made: versions 1 to 3."""
    elements = world.demo_elements()
    slug = world.story(title, elements[:2], description="First words.")
    viewer = world.viewer()
    world.service.stories.save(
        WRITER, slug, {"title": f"{title}, again", "elements": elements[1:4]}, viewer=viewer
    )
    world.service.stories.save(WRITER, slug, {"description": "Other words."}, viewer=viewer)
    return slug


def history(world: World) -> Opened:
    _needs("HISTORY")
    return Opened(world.path(paths.HISTORY, _revised(world, "Kept")), shows=".history-item")


def comparison(world: World) -> Opened:
    _needs("HISTORY")
    slug = _revised(world, "Compared")
    return Opened(world.path(paths.HISTORY, slug, **{"from": "1", "to": "current"}))


def restore_confirmation(world: World) -> Opened:
    _needs("HISTORY")
    slug = _revised(world, "Restored")
    return Opened(world.path(paths.HISTORY, slug, restore="1"), shows=".restore-form")


def preview(world: World) -> Opened:
    _needs("PREVIEW")
    slug = world.story("Previewed", world.every_kind())
    return Opened(world.path(paths.PREVIEW, slug))


def profile(world: World) -> Opened:
    _needs("PROFILE")
    return Opened(paths.PROFILE)


def profile_refused(world: World) -> Opened:
    _needs("PROFILE", "POST")

    def wrong_website(page: Any) -> None:
        page.get_by_label("Website", exact=True).fill("not an address")
        _press(page, "Save profile")

    return Opened(paths.PROFILE, then=wrong_website, status=400, shows=".problem-summary")


#: Every state of the editor's pages, by name.
STATES: dict[str, Callable[[World], Opened]] = {
    "sign-in": sign_in,
    "sign-in-refused": sign_in_refused,
    "empty-desk": empty_desk,
    "desk": desk_with_stories,
    "empty-story": empty_story,
    "every-element-kind": every_element_kind,
    "refused-save": refused_save,
    "conflict": conflict,
    "address-shown": address_shown,
    "sources-found": sources_found,
    # pages whose routes land with other parts of the editor
    "schedule-set": schedule_set,
    "publishing-refused": publishing_refused,
    "published": published_story,
    "delete-confirmation": delete_confirmation,
    "history": history,
    "comparison": comparison,
    "restore-confirmation": restore_confirmation,
    "preview": preview,
    "profile": profile,
    "profile-refused": profile_refused,
}
