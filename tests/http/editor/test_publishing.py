"""The editor's publishing, address and deleting forms
(docs/editor.md#publishing-the-address-and-deleting), through the ASGI app as a browser sends
them: publish now, schedule in a time zone, cancel, unpublish, change the slug, delete after a
page that asks; what each refuses, and that no one else can do any of it.

The service's clock stands at 2026-11-28T12:00:00Z.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI
from storycore.http.pages import site_of
from storycore.model.visibility import Viewer
from storycore.presentation.editor import Desk
from storycore.presentation.pages.environment import environment
from storycore.testing import ManualClock
from storycore.testing.client import asgi_client
from tests.conftest import TEST_SETTINGS

NOW = datetime(2026, 11, 28, 12, tzinfo=UTC)
EDIT = "/alice/fog/edit"


@dataclass
class Writer:
    """A browser signed in as one writer, and the token its forms carry."""

    client: httpx.Client
    token: str

    def post(self, path: str, **values: Any) -> httpx.Response:
        return self.client.post(path, data={"form_token": self.token, **values})


@dataclass
class World:
    service: Service
    alice: Viewer
    app: StorycoreASGI
    clock: ManualClock

    def story(self, slug: str = "fog") -> Any:
        return self.service.stories.read("alice", slug, viewer=self.alice)


def _token(page: httpx.Response) -> str:
    found = re.search(r'name="form_token" value="([^"]+)"', page.text)
    assert found is not None
    return found.group(1)


@pytest.fixture
def world() -> Iterator[World]:
    clock = ManualClock(NOW)
    service = Service(open_store("memory://"), settings=TEST_SETTINGS, clock=clock)
    service.accounts.create_user("alice", "alice-password")
    service.accounts.create_user("bob", "bob-password")
    alice = service.accounts.as_user("alice")
    service.stories.create("alice", {"title": "Fog", "slug": "fog"}, viewer=alice)
    yield World(service, alice, StorycoreASGI(service), clock)
    service.close()


def _signed_in(world: World, username: str) -> Iterator[Writer]:
    with asgi_client(world.app) as client:
        token = _token(client.get("/signin"))
        signed = client.post(
            "/signin",
            data={"form_token": token, "username": username, "password": f"{username}-password"},
        )
        assert signed.status_code == 303
        yield Writer(client, _token(client.get("/me")))


@pytest.fixture
def alice(world: World) -> Iterator[Writer]:
    yield from _signed_in(world, "alice")


@pytest.fixture
def bob(world: World) -> Iterator[Writer]:
    yield from _signed_in(world, "bob")


def _partial(world: World, story: Any, zone: str = "UTC") -> str:
    desk = Desk(site_of(world.service), "a-form-token", username="alice", zone=zone)
    return environment().get_template("editor/_publishing.html").render(story=story, desk=desk)


def _problem_of(page: str, field_id: str) -> str:
    """The problem shown beside the field ``field_id``, checking that the field points at it."""
    field = re.search(rf'<(?:input|select)[^>]*id="{field_id}"[^>]*>', page)
    assert field is not None, field_id
    assert 'aria-invalid="true"' in field.group(0)
    assert f"{field_id}-problem" in field.group(0)
    problem = re.search(rf'id="{field_id}-problem">([^<]*)<', page)
    assert problem is not None
    return problem.group(1)


def _value_of(page: str, field_id: str) -> str:
    field = re.search(rf'<input[^>]*id="{field_id}"[^>]*value="([^"]*)"', page)
    if field is None:
        field = re.search(rf'<input[^>]*value="([^"]*)"[^>]*id="{field_id}"', page)
    assert field is not None, field_id
    return field.group(1)


def test_publish_now_publishes_the_story_and_returns_to_the_editor(
    world: World, alice: Writer
) -> None:
    answer = alice.post(f"{EDIT}/publish", version=str(world.story().version))
    assert answer.status_code == 303
    assert answer.headers["location"].endswith(f"{EDIT}?done=published")
    assert world.story().status == "published"


def test_a_stale_version_publishes_nothing_and_says_the_story_changed(
    world: World, alice: Writer
) -> None:
    held = world.story().version
    world.service.stories.save("alice", "fog", {"title": "Fog, later"}, viewer=world.alice)
    answer = alice.post(f"{EDIT}/publish", version=str(held))
    assert answer.status_code == 409
    assert world.story().status == "working"
    assert "The story changed after this page was loaded" in answer.text


def test_a_publish_without_a_version_publishes_nothing(world: World, alice: Writer) -> None:
    answer = alice.post(f"{EDIT}/publish")
    assert answer.status_code == 400
    assert world.story().status == "working"


def test_schedule_reads_the_date_and_time_in_the_chosen_zone_and_stores_the_utc_time(
    world: World, alice: Writer
) -> None:
    answer = alice.post(
        f"{EDIT}/schedule",
        version=str(world.story().version),
        date="2026-12-01",
        time="10:30",
        zone="Europe/Paris",
    )
    assert answer.status_code == 303
    assert answer.headers["location"].endswith(f"{EDIT}?done=scheduled&zone=Europe%2FParis")
    story = world.story()
    assert (story.status, story.publish_at) == ("working", "2026-12-01T09:30:00.000Z")


def test_the_schedule_is_shown_in_the_writers_zone_with_the_utc_time_it_means(
    world: World,
) -> None:
    world.service.stories.save(
        "alice", "fog", {}, viewer=world.alice, publish_at="2026-12-01T09:30:00Z"
    )
    shown = _partial(world, world.story(), zone="Europe/Paris")
    assert "Scheduled for 1 December 2026 at 10:30 Europe/Paris (09:30 UTC)" in shown
    assert '<option value="Europe/Paris" selected>' in shown
    assert (_value_of(shown, "schedule-date"), _value_of(shown, "schedule-time")) == (
        "2026-12-01",
        "10:30",
    )


def test_the_zone_list_starts_with_utc_and_is_chosen_without_a_zone(world: World) -> None:
    shown = _partial(world, world.story())
    options = re.findall(r'<option value="([^"]+)"', shown)
    assert options[0] == "UTC"
    assert options[1:] == sorted(options[1:])
    assert '<select id="schedule-zone" name="zone"' in shown
    assert '<option value="UTC" selected>' in shown


def test_a_local_time_the_clocks_skip_is_refused_beside_the_time_as_typed(
    world: World, alice: Writer
) -> None:
    answer = alice.post(
        f"{EDIT}/schedule",
        version=str(world.story().version),
        date="2027-03-28",
        time="02:30",
        zone="Europe/Paris",
    )
    assert answer.status_code == 400
    assert "the clocks skip that hour" in _problem_of(answer.text, "schedule-time")
    assert (_value_of(answer.text, "schedule-date"), _value_of(answer.text, "schedule-time")) == (
        "2027-03-28",
        "02:30",
    )
    assert '<option value="Europe/Paris" selected>' in answer.text
    assert world.story().publish_at is None


def test_a_time_in_the_past_is_the_apis_400_beside_the_date(world: World, alice: Writer) -> None:
    answer = alice.post(
        f"{EDIT}/schedule", version=str(world.story().version), date="2026-11-01", time="09:00"
    )
    assert answer.status_code == 400
    problem = _problem_of(answer.text, "schedule-date")
    assert problem.startswith("The time must be from one second to one year ahead")
    assert _value_of(answer.text, "schedule-date") == "2026-11-01"
    assert world.story().publish_at is None


def test_a_date_that_is_no_date_is_refused_beside_it(world: World, alice: Writer) -> None:
    answer = alice.post(
        f"{EDIT}/schedule", version=str(world.story().version), date="2026-02-30", time="09:00"
    )
    assert answer.status_code == 400
    assert _problem_of(answer.text, "schedule-date") == "Enter a date, such as 2026-12-01."


def test_cancel_the_schedule_keeps_the_story_unpublished(world: World, alice: Writer) -> None:
    world.service.stories.save(
        "alice", "fog", {}, viewer=world.alice, publish_at="2026-12-01T09:30:00Z"
    )
    answer = alice.post(f"{EDIT}/unschedule", version=str(world.story().version))
    assert answer.headers["location"].endswith(f"{EDIT}?done=unscheduled")
    story = world.story()
    assert (story.status, story.publish_at) == ("working", None)


def test_unpublish_takes_the_story_back_to_working(world: World, alice: Writer) -> None:
    world.service.stories.publish("alice", "fog", viewer=world.alice)
    answer = alice.post(f"{EDIT}/unpublish")
    assert answer.headers["location"].endswith(f"{EDIT}?done=unpublished")
    assert world.story().status == "working"


def test_a_slug_change_goes_to_the_new_editor_and_the_old_page_redirects(
    world: World, alice: Writer
) -> None:
    world.service.stories.publish("alice", "fog", viewer=world.alice)
    answer = alice.post(f"{EDIT}/slug", slug="sea-fog")
    assert answer.status_code == 303
    assert answer.headers["location"].endswith("/alice/sea-fog/edit?done=slug")
    old = alice.client.get("/alice/fog")
    assert old.status_code == 301
    assert old.headers["location"].endswith("/alice/sea-fog")


def test_a_taken_slug_is_the_apis_409_with_the_slug_as_typed(world: World, alice: Writer) -> None:
    world.service.stories.create("alice", {"title": "Rain", "slug": "rain"}, viewer=world.alice)
    answer = alice.post(f"{EDIT}/slug", slug="rain")
    assert answer.status_code == 409
    assert _problem_of(answer.text, "address-slug")
    assert _value_of(answer.text, "address-slug") == "rain"
    assert world.story().slug == "fog"


def test_an_invalid_slug_is_the_apis_400_beside_the_slug(world: World, alice: Writer) -> None:
    answer = alice.post(f"{EDIT}/slug", slug="Not A Slug")
    assert answer.status_code == 400
    assert _problem_of(answer.text, "address-slug")
    assert _value_of(answer.text, "address-slug") == "Not A Slug"


def test_delete_asks_first_naming_the_story(world: World, alice: Writer) -> None:
    page = alice.client.get(f"{EDIT}/delete")
    assert page.status_code == 200
    assert "Delete “Fog”?" in page.text
    assert f'action="http://testserver{EDIT}/delete" method="post"' in page.text.replace(
        world.service.web_url, "http://testserver"
    )
    assert world.story().title == "Fog"


def test_delete_deletes_the_story_and_goes_to_the_desk(world: World, alice: Writer) -> None:
    answer = alice.post(f"{EDIT}/delete")
    assert answer.status_code == 303
    assert answer.headers["location"].endswith("/me?done=deleted")
    assert "The story is deleted." in alice.client.get(answer.headers["location"]).text
    assert world.service.catalog.user("alice", viewer=world.alice).items == []


@pytest.mark.parametrize(
    ("action", "values"),
    [
        ("publish", {"version": "1"}),
        ("schedule", {"version": "1", "date": "2026-12-01", "time": "10:30", "zone": "UTC"}),
        ("unschedule", {"version": "1"}),
        ("unpublish", {}),
        ("slug", {"slug": "bobs-now"}),
        ("delete", {}),
    ],
)
def test_another_writer_gets_the_404_and_nothing_changes(
    world: World, bob: Writer, action: str, values: dict[str, str]
) -> None:
    before = world.story()
    answer = bob.post(f"{EDIT}/{action}", **values)
    assert answer.status_code == 404
    assert world.story() == before


def test_another_writer_gets_the_404_for_the_delete_page(world: World, bob: Writer) -> None:
    assert bob.client.get(f"{EDIT}/delete").status_code == 404


def test_the_forms_carry_the_version_the_editor_holds(world: World) -> None:
    story = world.story()
    shown = _partial(world, story)
    for action in ("publish", "schedule"):
        form = re.search(rf'action="[^"]*/edit/{action}".*?</form>', shown, re.S)
        assert form is not None
        assert f'name="version" value="{story.version}"' in form.group(0)


def test_share_shows_the_permalink_shortlink_and_the_story_pages_embed_code(
    world: World, alice: Writer
) -> None:
    world.service.stories.publish("alice", "fog", viewer=world.alice)
    world.service = world.service.at("http://testserver")  # the address the client asks
    story = world.story()
    shown = _partial(world, story)
    assert _value_of(shown, "share-permalink") == story.permalink
    assert _value_of(shown, "share-shortlink") == story.shortlink
    embed = re.search(r'id="share-embed"[^>]*>([^<]*)</textarea>', shown)
    page_code = re.search(r"<pre><code>([^<]*)</code></pre>", alice.client.get("/alice/fog").text)
    assert embed is not None
    assert page_code is not None
    assert embed.group(1) == page_code.group(1)
    permalink_field = re.search(r'<input[^>]*id="share-permalink"[^>]*>', shown)
    assert permalink_field is not None
    assert "readonly" in permalink_field.group(0)


def test_cancelling_a_schedule_that_has_come_changes_nothing(world: World, alice: Writer) -> None:
    """The editor was showing the schedule; the story was published at its time since."""
    world.service.stories.save(
        "alice", "fog", {}, viewer=world.alice, publish_at="2026-12-01T09:30:00Z"
    )
    held = world.story().version
    world.clock.set(datetime(2026, 12, 1, 9, 31, tzinfo=UTC))
    assert world.service.publish_due() == 1
    answer = alice.post(f"{EDIT}/unschedule", version=str(held))
    assert answer.status_code == 409
    assert world.story().status == "published"


def test_an_editor_may_publish_another_writers_story(world: World) -> None:
    world.service.accounts.create_user("erin", "erin-password", editor=True)
    for erin in _signed_in(world, "erin"):
        answer = erin.post(f"{EDIT}/publish", version=str(world.story().version))
        assert answer.status_code == 303
    assert world.story().status == "published"
