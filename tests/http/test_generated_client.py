"""A client generated from the OpenAPI document by openapi-python-client (the version the
``test`` extra pins) runs the whole story life against a real server, without hand edits
(docs/decisions.md#the-api-reference).

The client is generated once for the module, during the run, into a temporary folder, from the
document the server serves; every test here drives it against that server (``storycore serve``
on a SQLite file, over loopback).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests._serve import serving, storycore

# the generated client and its server are made once, so the module's tests share a worker
pytestmark = pytest.mark.xdist_group("generated_client")

PACKAGE = "storycore_client"
PASSWORD = "a-long-password"


class Generated:
    """The generated package's modules, by their dotted name under the package."""

    def __init__(self, package: str) -> None:
        self.package = package

    def __getattr__(self, name: str) -> ModuleType:
        return importlib.import_module(f"{self.package}.{name}")

    def __call__(self, name: str) -> ModuleType:
        return importlib.import_module(f"{self.package}.{name}")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A running server with a user and an application, and a client generated from the
    document it serves."""
    folder = tmp_path_factory.mktemp("generated")
    db = f"sqlite:///{folder / 'stories.db'}"
    storycore("users", "create", "alice", "--password", PASSWORD, "--name", "Alice", db=db)
    storycore("users", "create", "ed", "--password", PASSWORD, "--editor", db=db)
    api_key = storycore("apps", "create", "client", db=db).stdout.strip().splitlines()[-1]
    with serving(db, folder) as base:
        document = folder / "openapi.json"
        document.write_bytes(httpx.get(f"{base}/v1/openapi.json", timeout=10).content)
        subprocess.run(
            [
                sys.executable, "-m", "openapi_python_client", "generate", "--path",
                str(document), "--output-path", str(folder / PACKAGE), "--meta", "none",
            ],
            check=True, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        sys.path.insert(0, str(folder))
        try:
            yield {"base": base, "api_key": api_key, "client": Generated(PACKAGE)}
        finally:
            sys.path.remove(str(folder))
            for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
                del sys.modules[name]


def _token(world: dict[str, Any], username: str = "alice") -> str:
    g = world["client"]
    body = g("models.authenticate_json_body").AuthenticateJsonBody(
        api_key=world["api_key"], username=username, password=PASSWORD
    )
    with g.client.Client(base_url=world["base"]) as anonymous:
        answer = g("api.auth.authenticate").sync(client=anonymous, body=body)
    token: str = answer.content.field_token
    return token


@pytest.fixture
def as_alice(world: dict[str, Any]) -> Iterator[Any]:
    """The generated client, authenticated by a fresh token of alice's."""
    client = world["client"].client.AuthenticatedClient
    with client(base_url=world["base"], token=_token(world)) as authenticated:
        yield authenticated


@pytest.fixture
def as_ed(world: dict[str, Any]) -> Iterator[Any]:
    """The generated client, authenticated by a token of ed's, an editor."""
    client = world["client"].client.AuthenticatedClient
    with client(base_url=world["base"], token=_token(world, "ed")) as authenticated:
        yield authenticated


@pytest.fixture
def anyone(world: dict[str, Any]) -> Iterator[Any]:
    """The generated client, without credentials."""
    with world["client"].client.Client(base_url=world["base"]) as anonymous:
        yield anonymous


def test_a_generated_client_runs_the_whole_story_life(
    world: dict[str, Any], as_alice: Any, anyone: Any
) -> None:
    g = world["client"]
    models = g.models
    story = models.StoryWrite(
        title="Walks in the city",
        description="Three walks",
        elements=[
            "https://socialA.example/bob/status/1",
            models.TextElementWrite(type_="text", data=models.TextDataWrite(text="<p>Start</p>")),
        ],
    )
    created = g("api.stories.create_story").sync(
        "alice", client=as_alice, body=models.CreateStoryJsonBody(story=story)
    )
    slug = created.content.slug
    assert (slug, created.content.status.value) == ("walks-in-the-city", "working")

    read = g("api.stories.read_story").sync("alice", slug, client=as_alice).content
    assert [e.type_ for e in read.elements] == ["quote", "text"]

    saved = g("api.stories.save_story").sync(
        "alice",
        slug,
        client=as_alice,
        body=models.SaveStoryJsonBody(story=models.StoryWrite(title="Walks"), version=1),
    )
    assert saved.content.title == "Walks"

    published = g("api.stories.publish_story").sync(
        "alice", slug, client=as_alice, body=models.PublishStoryJsonBody(version=2)
    )
    assert published.content.status.value == "published"

    latest = g("api.stories.latest").sync(client=anyone)
    assert [s.slug for s in latest.content.stories] == [slug]

    moved = g("api.stories.edit_slug").sync(
        "alice", slug, client=as_alice, body=models.EditSlugJsonBody(slug="walks")
    )
    assert moved.content.slug == "walks"

    old = g("api.stories.read_story").sync_detailed("alice", slug, client=anyone, page=2)
    assert old.status_code == 301
    assert old.headers["location"] == "/v1/stories/alice/walks?page=2&per_page=20"
    assert old.parsed.error.type_.value == "moved"

    deleted = g("api.stories.delete_story").sync("alice", "walks", client=as_alice)
    assert deleted.content.deleted is True
    gone = g("api.stories.read_story").sync("alice", "walks", client=anyone)
    assert (gone.code, gone.error.type_.value) == (404, "not_found")


def test_a_generated_client_sends_a_story_as_a_form_too(
    world: dict[str, Any], as_alice: Any
) -> None:
    """In a form body the story is its serialized JSON (docs/api.md#calls-and-answers)."""
    g = world["client"]
    body = g.models.CreateStoryDataBody(story='{"title": "A form story"}', publish="yes")
    created = g("api.stories.create_story").sync("alice", client=as_alice, body=body)
    assert (created.content.slug, created.content.status.value) == ("a-form-story", "published")


def test_a_generated_client_revokes_its_token(world: dict[str, Any], as_alice: Any) -> None:
    g = world["client"]
    revoked = g("api.auth.revoke").sync(client=as_alice)
    assert revoked.content.revoked is True
    refused = g("api.users.update_user").sync(
        "alice",
        client=as_alice,
        body=g.models.UpdateUserJsonBody(user=g.models.UserWrite(bio="gone")),
    )
    assert (refused.code, refused.error.type_.value) == (401, "unauthorized")


def test_a_generated_client_updates_a_profile_and_reads_it_back(
    world: dict[str, Any], as_alice: Any, anyone: Any
) -> None:
    g = world["client"]
    body = g.models.UpdateUserJsonBody(user=g.models.UserWrite(bio="Walks.", website=""))
    updated = g("api.users.update_user").sync("alice", client=as_alice, body=body)
    profile = g("api.users.read_user").sync("alice", client=anyone)
    assert updated.content.bio == profile.content.bio == "Walks."


def test_a_generated_client_keeps_a_webhook(world: dict[str, Any], as_ed: Any) -> None:
    """An editor registers a webhook (its secret shown once), reads and lists it and its
    deliveries, and removes it (docs/webhooks.md)."""
    g = world["client"]
    kinds = ["story.published", "story.deleted"]
    event_type = g(
        "models.add_webhook_json_body_events_type_0_item"
    ).AddWebhookJsonBodyEventsType0Item
    body = g.models.AddWebhookJsonBody(
        url="https://hooks.example/storycore", events=[event_type(kind) for kind in kinds]
    )
    made = g("api.webhooks.add_webhook").sync(client=as_ed, body=body).content
    assert made.secret.startswith("whsec_")
    assert made.events == kinds
    read = g("api.webhooks.read_webhook").sync(made.id, client=as_ed).content
    assert (read.id, read.url, read.disabled) == (made.id, made.url, None)
    listed = g("api.webhooks.list_webhooks").sync(client=as_ed).content
    assert made.id in [hook.id for hook in listed.webhooks]
    deliveries = g("api.webhooks.list_deliveries").sync(made.id, client=as_ed, total="true")
    assert (deliveries.content.total, deliveries.content.deliveries) == (0, [])
    removed = g("api.webhooks.remove_webhook").sync(made.id, client=as_ed).content
    assert removed.deleted is True
    gone = g("api.webhooks.read_webhook").sync(made.id, client=as_ed)
    assert (gone.code, gone.error.type_.value) == (404, "not_found")


def test_the_generated_client_has_every_operation_of_the_served_document(
    world: dict[str, Any],
) -> None:
    """Nothing was skipped with a warning while generating the client."""
    document = httpx.get(f"{world['base']}/v1/openapi.json", timeout=10).json()
    operations = {
        (op["tags"][0], op["operationId"])
        for item in document["paths"].values()
        for op in item.values()
    }
    for tag, operation in operations:
        assert hasattr(world["client"](f"api.{tag}.{operation}"), "sync_detailed")
