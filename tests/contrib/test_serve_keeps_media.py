"""``storycore serve --keep-media on`` keeps the pictures a story shows within seconds of its
write, and serves the kept copy under ``/media/`` (docs/media.md#how-pictures-are-kept)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.model.kept import KeptSource
from tests._kept_pictures import picture_server
from tests._serve import serving, storycore
from tests.conftest import TEST_SETTINGS
from tests.resolving.conftest import FakeSite

#: The longest the test watches the store for the picture kept: generous, as a safety net.
CEILING_SECONDS = 60
POLL_SECONDS = 0.1


@pytest.fixture
def site() -> Iterator[FakeSite]:
    found = picture_server()
    yield found
    found.stop()


def _kept(db: str, address: str) -> KeptSource | None:
    """The record of ``address`` once it is no longer pending, watching the store."""
    store = open_store(db)
    try:
        ends = time.monotonic() + CEILING_SECONDS
        while time.monotonic() < ends:
            record = store.kept_sources.get_many([address]).get(address)
            if record is not None and record.state != "pending":
                return record
            time.sleep(POLL_SECONDS)
        return None
    finally:
        store.close()


def test_serve_keeps_a_storys_picture_and_serves_it(site: FakeSite, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    storycore("users", "create", "alice", "--password", "alice-password", db=db)
    api_key = storycore("apps", "create", "e2e", db=db).stdout.strip().splitlines()[-1]
    options = ["--keep-media", "on", "--resolve-allow-host", "127.0.0.1"]
    with serving(db, tmp_path, *options) as base, httpx.Client(base_url=base, timeout=30) as client:
        grant = client.post(
            "/v1/auth", data={"api_key": api_key, "username": "alice", "password": "alice-password"}
        ).json()["content"]
        credentials = {"api_key": api_key, "username": "alice", "_token": grant["_token"]}
        image = {"type": "image", "data": {"image": {"src": site.url("/a.png")}}}
        created = client.post(
            "/v1/stories/alice/create",
            json={**credentials, "story": {"title": "Kept", "elements": [image]}},
        )
        assert created.status_code == 200, created.text
        record = _kept(db, site.url("/a.png"))
        assert record is not None
        assert record.state == "kept", record.reason
        served = client.get(f"/media/{record.copies[0].name}.webp")
        assert served.status_code == 200
        assert served.headers["content-type"] == "image/webp"


def test_serve_keeps_the_pictures_of_a_store_written_before_as_it_starts(
    site: FakeSite, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    with Service(open_store(db), TEST_SETTINGS) as service:  # keeping off
        service.accounts.create_user("alice", "alice-password")
        image = {"type": "image", "data": {"image": {"src": site.url("/a.png")}}}
        story = {"title": "Written before", "elements": [image]}
        service.stories.create("alice", story, viewer=service.accounts.as_user("alice"))
    options = ["--keep-media", "on", "--resolve-allow-host", "127.0.0.1"]
    with serving(db, tmp_path, *options):
        record = _kept(db, site.url("/a.png"))
    assert record is not None
    assert record.state == "kept", record.reason
